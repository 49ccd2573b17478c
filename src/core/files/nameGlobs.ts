import picomatch from 'picomatch';

/**
 * Whether a file name matches, given the name and (when the caller has it already) the name in
 * lower case: one walk checks each name against several lists, and lower-casing it once is
 * cheaper than once per list.
 */
export type NameTest = (name: string, lower?: string) => boolean;

/** Code units with lists of their own; a name starting or ending beyond these is checked against all. */
const LISTED_UNITS = 128;
/** What a glob's literal part may not hold (anything else is left to the regular expression). */
const LITERAL = '[^*?[\\]\\\\{}()!+@]+';
const SUFFIX_GLOB = new RegExp(`^\\*${LITERAL}$`);
const PREFIX_GLOB = new RegExp(`^${LITERAL}\\*$`);
const INFIX_GLOB = new RegExp(`^\\*${LITERAL}\\*$`);

/**
 * One test for a list of file-name globs (`.gitignore` syntax for a single segment, any case),
 * made for the index's hot path, where it runs once per file of the workspace. Plain names,
 * `*.ext`, `prefix*` and `*part*` globs are string comparisons, tried only when the name's first
 * or last letter can start or end one (a table lookup, no hashing, no new strings); only what
 * is left goes to a single regular expression (picomatch's, all alternatives in one).
 */
export function nameGlobs(globs: readonly string[]): NameTest {
	const exact = new Set<string>();
	const prefixes: string[] = [];
	const suffixes: string[] = [];
	const infixes: string[] = [];
	const rest: string[] = [];
	for (const glob of globs) {
		const lower = glob.toLowerCase();
		if (!/[*?[\]\\{}()!+@]/.test(lower)) {
			exact.add(lower);
		} else if (SUFFIX_GLOB.test(lower)) {
			suffixes.push(lower.slice(1));
		} else if (PREFIX_GLOB.test(lower)) {
			prefixes.push(lower.slice(0, -1));
		} else if (INFIX_GLOB.test(lower) && /[^.]/.test(lower.slice(1, -1))) {
			// Not all dots: picomatch never matches `.` or `..`, which contain only dots.
			infixes.push(lower.slice(1, -1));
		} else {
			rest.push(glob);
		}
	}
	const re = rest.length > 0 ? new RegExp(rest.map(g => picomatch.makeRe(g, { dot: true, nocase: true }).source).join('|'), 'i') : undefined;
	if (exact.size === 0 && prefixes.length === 0 && suffixes.length === 0 && infixes.length === 0 && !re) {
		return () => false;
	}
	const exactFirst = new Uint8Array(LISTED_UNITS);
	exact.forEach(name => {
		if (name.charCodeAt(0) < LISTED_UNITS) {
			exactFirst[name.charCodeAt(0)] = 1;
		}
	});
	const prefixesByFirst = byUnit(prefixes, prefix => prefix.charCodeAt(0));
	const suffixesByLast = byUnit(suffixes, suffix => suffix.charCodeAt(suffix.length - 1));
	return (name, lower = name.toLowerCase()) => {
		const first = lower.charCodeAt(0);
		const last = lower.charCodeAt(lower.length - 1);
		if ((!(first < LISTED_UNITS) || exactFirst[first] === 1) && exact.has(lower)) {
			return true;
		}
		const startingAlike = first < LISTED_UNITS ? prefixesByFirst[first] : prefixes;
		for (let i = 0; i < startingAlike.length; i++) {
			if (lower.startsWith(startingAlike[i])) {
				return true;
			}
		}
		const endingAlike = last < LISTED_UNITS ? suffixesByLast[last] : suffixes;
		for (let i = 0; i < endingAlike.length; i++) {
			if (lower.endsWith(endingAlike[i])) {
				return true;
			}
		}
		for (let i = 0; i < infixes.length; i++) {
			if (lower.includes(infixes[i])) {
				return true;
			}
		}
		return re !== undefined && re.test(name);
	};
}

/**
 * `items` by a code unit of each (its first or last), for the units below `LISTED_UNITS`. A name
 * whose unit is beyond those is checked against the whole list instead.
 */
function byUnit(items: readonly string[], unitOf: (item: string) => number): readonly (readonly string[])[] {
	const lists: string[][] = [];
	const none: string[] = [];
	for (let unit = 0; unit < LISTED_UNITS; unit++) {
		lists.push(none);
	}
	for (const item of items) {
		const unit = unitOf(item);
		if (unit < LISTED_UNITS) {
			lists[unit] = lists[unit] === none ? [item] : [...lists[unit], item];
		}
	}
	return lists;
}
