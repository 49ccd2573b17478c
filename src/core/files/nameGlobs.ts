import { anyMatches, Wildmatch } from './wildmatch';

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
	private readonly prefixes: Affixes;
	private readonly suffixes: Affixes;
	private readonly infixes: readonly string[];
	private readonly rest: readonly Wildmatch[];

	constructor(globs: readonly string[]) {
		const rest = new Set<string>();
		const prefixes = new Set<string>();
		const suffixes = new Set<string>();
		const infixes = new Set<string>();
		for (const glob of globs) {
			const lower = glob.toLowerCase();
			if (!/[*?[\\]/.test(lower)) {
				this.exact.add(lower);
				if (lower.charCodeAt(0) < LISTED_UNITS) {
					this.exactFirst[lower.charCodeAt(0)] = 1;
				}
			} else if (SUFFIX_GLOB.test(lower)) {
				suffixes.add(lower.slice(1));
			} else if (PREFIX_GLOB.test(lower)) {
				prefixes.add(lower.slice(0, -1));
			} else if (INFIX_GLOB.test(lower)) {
				infixes.add(lower.slice(1, -1));
			} else {
				rest.add(lower);
			}
		}
		this.rest = [...rest].map(glob => Wildmatch.compile(glob, { pathname: false, caseFold: true }));
		this.prefixes = new Affixes([...prefixes], false);
		this.suffixes = new Affixes([...suffixes], true);
		this.infixes = [...infixes];
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
		if (this.prefixes.match(lower, first) || this.suffixes.match(lower, last)) {
			return true;
		}
		for (let i = 0; i < this.infixes.length; i++) {
			if (lower.includes(this.infixes[i])) {
				return true;
			}
		}
		return anyMatches(this.rest, lower);
	}
}

/** Past this many affixes that share a first (or last) unit, they are looked up by length instead of tried in turn. */
const MAX_SCANNED = 32;
/**
 * The list of every unit no affix starts (ends) with, shared: an empty list per unit was
 * `LISTED_UNITS` arrays per list of affixes, four lists per parsed `.gitignore`, for each one the
 * index keeps, most of them holding one or two rules.
 */
const NONE: readonly string[] = [];
/** The lists by unit of an empty list of affixes (the prefixes of most rule files). */
const NONE_BY_UNIT: readonly (readonly string[])[] = Array.from({ length: LISTED_UNITS }, () => NONE);

/**
 * Plain prefixes (or suffixes) of names. A few are tried in turn, only those whose first (last)
 * unit is the name's (a table lookup, no hashing, no new strings); a long list (a `.gitignore` of
 * thousands of `*.ext` rules) is looked up instead: one set per length, one lookup per length.
 */
class Affixes {
	/** Per code unit below `LISTED_UNITS`, the affixes that start (end) with it; a name whose unit is beyond those tries all. */
	private readonly byUnit: readonly (readonly string[])[];
	/** When the list is long: the affixes by length, shortest first. */
	private readonly byLength: readonly (readonly [number, ReadonlySet<string>])[] | undefined;

	constructor(private readonly items: readonly string[], private readonly atEnd: boolean) {
		// Never added to while empty: a unit's own list is made for its first affix.
		const lists = (items.length === 0 ? NONE_BY_UNIT : Array.from({ length: LISTED_UNITS }, () => NONE)) as string[][];
		const others: string[] = [];
		for (const item of items) {
			const unit = item.charCodeAt(atEnd ? item.length - 1 : 0);
			if (unit < LISTED_UNITS && lists[unit] === NONE) {
				lists[unit] = [];
			}
			(unit < LISTED_UNITS ? lists[unit] : others).push(item);
		}
		if (others.length > MAX_SCANNED || lists.some(list => list.length > MAX_SCANNED)) {
			const byLength = new Map<number, Set<string>>();
			for (const item of items) {
				const same = byLength.get(item.length) ?? new Set<string>();
				byLength.set(item.length, same.add(item));
			}
			this.byLength = [...byLength].sort((a, b) => a[0] - b[0]);
		}
		this.byUnit = lists;
	}

	/** Whether `lower` starts (ends) with one of the affixes; `unit` is its first (last) code unit. */
	match(lower: string, unit: number): boolean {
		if (this.byLength) {
			for (const [length, same] of this.byLength) {
				if (length > lower.length) {
					return false;
				}
				if (same.has(this.atEnd ? lower.slice(lower.length - length) : lower.slice(0, length))) {
					return true;
				}
			}
			return false;
		}
		const alike = unit < LISTED_UNITS ? this.byUnit[unit] : this.items;
		for (let i = 0; i < alike.length; i++) {
			if (this.atEnd ? lower.endsWith(alike[i]) : lower.startsWith(alike[i])) {
				return true;
			}
		}
		return false;
	}
}
