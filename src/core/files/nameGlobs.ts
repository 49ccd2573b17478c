import picomatch from 'picomatch';

/**
 * Whether a file name matches, given the name and (when the caller has it already) the name in
 * lower case: one walk checks each name against several lists, and lower-casing it once is
 * cheaper than once per list.
 */
export type NameTest = (name: string, lower?: string) => boolean;

/** Marks, by a lower-case name's first or last code unit, of what can match it. */
const EXACT_FIRST = 1;
const PREFIX_FIRST = 2;
const SUFFIX_LAST = 4;
/** Code units with a mark of their own; a name starting or ending beyond these is checked fully. */
const MARKED_UNITS = 128;
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
	const marks = new Uint8Array(MARKED_UNITS);
	const mark = (unit: number, flag: number) => {
		if (unit < MARKED_UNITS) {
			marks[unit] |= flag;
		}
	};
	exact.forEach(name => mark(name.charCodeAt(0), EXACT_FIRST));
	prefixes.forEach(prefix => mark(prefix.charCodeAt(0), PREFIX_FIRST));
	suffixes.forEach(suffix => mark(suffix.charCodeAt(suffix.length - 1), SUFFIX_LAST));
	// A code unit beyond the table may start or end anything.
	const marksOf = (unit: number) => (unit < MARKED_UNITS ? marks[unit] : EXACT_FIRST | PREFIX_FIRST | SUFFIX_LAST);
	return (name, lower = name.toLowerCase()) => {
		const first = marksOf(lower.charCodeAt(0));
		if ((first & EXACT_FIRST) !== 0 && exact.has(lower)) {
			return true;
		}
		if ((first & PREFIX_FIRST) !== 0) {
			for (let i = 0; i < prefixes.length; i++) {
				if (lower.startsWith(prefixes[i])) {
					return true;
				}
			}
		}
		if ((marksOf(lower.charCodeAt(lower.length - 1)) & SUFFIX_LAST) !== 0) {
			for (let i = 0; i < suffixes.length; i++) {
				if (lower.endsWith(suffixes[i])) {
					return true;
				}
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
