import { prepareText, Wildmatch } from './wildmatch';

/** Code units with lists of their own; a name starting or ending beyond these is checked against all. */
const LISTED_UNITS = 128;
/** What a glob's literal part may not hold (anything else is left to git's matcher). */
const LITERAL = '[^*?[\\]\\\\]+';
const SUFFIX_GLOB = new RegExp(`^\\*${LITERAL}$`);
const PREFIX_GLOB = new RegExp(`^${LITERAL}\\*$`);
const INFIX_GLOB = new RegExp(`^\\*${LITERAL}\\*$`);

/**
 * One test for a list of file-name globs (`.gitignore` syntax for a single segment, any case),
 * made for the index's hot path, where it runs once per file of the workspace. Plain names,
 * `*.ext`, `prefix*` and `*part*` globs are string comparisons, tried only when the name's first
 * or last letter can start or end one (a table lookup, no hashing, no new strings); only what
 * is left goes to git's matcher (`Wildmatch`), one glob after another. A class,
 * not a closure per list: the walk calls the lists of every rule file from one place, and one
 * method there stays one call target for the optimizer.
 */
export class NameGlobs {
	private readonly exact = new Set<string>();
	private readonly exactFirst = new Uint8Array(LISTED_UNITS);
	private readonly prefixes: string[] = [];
	private readonly suffixes: string[] = [];
	private readonly infixes: string[] = [];
	private readonly prefixesByFirst: readonly (readonly string[])[];
	private readonly suffixesByLast: readonly (readonly string[])[];
	private readonly rest: readonly Wildmatch[];

	constructor(globs: readonly string[]) {
		const rest: string[] = [];
		for (const glob of globs) {
			const lower = glob.toLowerCase();
			if (!/[*?[\\]/.test(lower)) {
				this.exact.add(lower);
				if (lower.charCodeAt(0) < LISTED_UNITS) {
					this.exactFirst[lower.charCodeAt(0)] = 1;
				}
			} else if (SUFFIX_GLOB.test(lower)) {
				this.suffixes.push(lower.slice(1));
			} else if (PREFIX_GLOB.test(lower)) {
				this.prefixes.push(lower.slice(0, -1));
			} else if (INFIX_GLOB.test(lower)) {
				this.infixes.push(lower.slice(1, -1));
			} else {
				rest.push(glob);
			}
		}
		this.rest = rest.map(glob => Wildmatch.compile(glob, { pathname: false, caseFold: true }));
		this.prefixesByFirst = byUnit(this.prefixes, prefix => prefix.charCodeAt(0));
		this.suffixesByLast = byUnit(this.suffixes, suffix => suffix.charCodeAt(suffix.length - 1));
	}

	/**
	 * Whether `name` matches one of the globs; `lower` is the name in lower case when the caller
	 * has it already (the walk checks each name against several lists, and lower-cases it once).
	 */
	matches(name: string, lower = name.toLowerCase()): boolean {
		const first = lower.charCodeAt(0);
		const last = lower.charCodeAt(lower.length - 1);
		if ((!(first < LISTED_UNITS) || this.exactFirst[first] === 1) && this.exact.has(lower)) {
			return true;
		}
		const startingAlike = first < LISTED_UNITS ? this.prefixesByFirst[first] : this.prefixes;
		for (let i = 0; i < startingAlike.length; i++) {
			if (lower.startsWith(startingAlike[i])) {
				return true;
			}
		}
		const endingAlike = last < LISTED_UNITS ? this.suffixesByLast[last] : this.suffixes;
		for (let i = 0; i < endingAlike.length; i++) {
			if (lower.endsWith(endingAlike[i])) {
				return true;
			}
		}
		for (let i = 0; i < this.infixes.length; i++) {
			if (lower.includes(this.infixes[i])) {
				return true;
			}
		}
		if (this.rest.length > 0) {
			const prepared = prepareText(lower, false);
			for (let i = 0; i < this.rest.length; i++) {
				if (this.rest[i].matchesPrepared(prepared, 0)) {
					return true;
				}
			}
		}
		return false;
	}
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
