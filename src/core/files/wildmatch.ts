import { Buffer } from 'node:buffer';
import { readClass, UnitClass } from './wildmatchClass';

/**
 * Git's glob matcher (`wildmatch.c`), answering in time proportional to pattern length times
 * text length whatever the input. Libraries that compile globs to JavaScript regular expressions
 * (`ignore`, `picomatch`) backtrack: one `.gitignore` line like `*a*a*a*a*a*a*a*a*b` from a cloned
 * repository held the event loop for minutes against a long name. Here a pattern is a list of
 * tokens and a text is read once, left to right, keeping the set of pattern positions reached
 * (a Thompson simulation): each step costs at most one visit per position.
 *
 * Texts are matched as git matches them, byte by byte: a name with non-ASCII letters is read as
 * its UTF-8 bytes, so `?` stands for one byte as in git. With `caseFold` both sides are lower-cased
 * first (all of Unicode, not only ASCII as git does), so a pattern hides a name in any case.
 */
export interface WildmatchOptions {
	/** `*`, `?` and classes never match `/`; `**` between slashes spans directories (git's `WM_PATHNAME`). */
	readonly pathname: boolean;
	readonly caseFold: boolean;
	/** An unclosed `[` is a literal `[` (VS Code globs), not a pattern that never matches (git). */
	readonly unclosedClassIsLiteral?: boolean;
}

const LITERAL = 0;
/** `?` */
const ONE = 1;
/** `[...]` */
const CLASS = 2;
/** `*`: any run of units (except `/` with `pathname`). */
const STAR = 3;
/** `**` that spans directories: any run of units. */
const ANY = 4;
/** `**\/` at a segment start, nothing or anything that ends in `/`: this token moves on at once, to the next (`DIRS`) and past it. */
const SKIP_DIRS = 5;
/** What `SKIP_DIRS` leads to: any unit stays here, and a `/` also moves on (the slash belongs to the token). */
const DIRS = 6;

const SLASH = 0x2f;
/**
 * Units of text past which a pattern never matches: no path holds more (Linux's `PATH_MAX` is
 * 4,096). Compiling stops there; stars do not repeat and a run of `**\/` is one, so a 100 MB
 * line costs no more memory than a few tokens per unit of this.
 */
const MAX_PATTERN_UNITS = 16_384;
const NON_ASCII = /[\u0080-\uffff]/;

/** A text as the matcher reads it: lower-cased with `caseFold`, as UTF-8 bytes (one per unit) when not ASCII. */
export function prepareText(text: string, caseFold: boolean): string {
	const folded = caseFold ? text.toLowerCase() : text;
	return NON_ASCII.test(folded) ? Buffer.from(folded, 'utf8').toString('latin1') : folded;
}

/** The units from `from` to `to` as a string (a loop: a spread of 30,000 arguments may overflow the stack). */
function textOf(units: readonly number[], from: number, to: number): string {
	let text = '';
	for (let i = from; i < to; i++) {
		text += String.fromCharCode(units[i]);
	}
	return text;
}

/**
 * Whether one of `globs` (compiled without `caseFold`) matches the whole of `text`; the text is
 * prepared once for all of them, and not at all when there are none.
 */
export function anyMatches(globs: readonly Wildmatch[], text: string): boolean {
	if (globs.length === 0) {
		return false;
	}
	const prepared = prepareText(text, false);
	for (let i = 0; i < globs.length; i++) {
		if (globs[i].matchesPrepared(prepared, 0)) {
			return true;
		}
	}
	return false;
}

/** One compiled glob. Not reentrant: it keeps its work arrays between calls (the walk is one thread). */
export class Wildmatch {
	private readonly kinds: Uint8Array;
	private readonly units: Int32Array;
	private readonly classes: (UnitClass | undefined)[];
	/** Pattern positions reached before and after the current text unit, and a stamp per position. */
	private current: Int32Array;
	private next: Int32Array;
	private readonly seen: Int32Array;
	/** Positions still to add in `reach`. */
	private readonly pending: Int32Array;
	private stamp = 0;
	/** Units any match needs at least: a shorter text cannot match. */
	private readonly minLength: number;
	/** The whole pattern when it has no wildcard (compared as a string). */
	private readonly literal: string | undefined;
	/** The plain text a match starts with, and ends with: checked before the automaton runs. */
	private readonly head: string;
	private readonly tail: string;

	/** Git's `wildmatch()` of `pattern` (already prepared as `prepareText` does) under `options`; `never` for a pattern git never matches. */
	private constructor(pattern: string, private readonly options: WildmatchOptions, readonly never = false) {
		const kinds: number[] = [];
		const units: number[] = [];
		const classes: (UnitClass | undefined)[] = [];
		let consuming = 0;
		const push = (kind: number, unit = -1, unitClass?: UnitClass) => {
			consuming += kind <= CLASS ? 1 : 0;
			kinds.push(kind);
			units.push(unit);
			classes.push(unitClass);
		};
		let i = 0;
		while (i < pattern.length && !never) {
			if (consuming > MAX_PATTERN_UNITS) {
				never = true;
				break;
			}
			const c = pattern.charCodeAt(i);
			if (c === 0x5c /* \ */) {
				if (i + 1 >= pattern.length) {
					never = true; // git compares a trailing `\` with the end of the text: no match
				} else {
					push(LITERAL, pattern.charCodeAt(i + 1));
				}
				i += 2;
			} else if (c === 0x3f /* ? */) {
				push(ONE);
				i++;
			} else if (c === 0x2a /* * */) {
				const start = i;
				while (pattern.charCodeAt(i) === 0x2a) {
					i++;
				}
				const atSegmentStart = start === 0 || pattern.charCodeAt(start - 1) === SLASH;
				const atSegmentEnd = i === pattern.length || pattern[i] === '/' || (pattern[i] === '\\' && pattern[i + 1] === '/');
				if (!options.pathname) {
					push(ANY);
				} else if (i - start >= 2 && atSegmentStart && atSegmentEnd) {
					if (pattern[i] === '/') {
						// `**\/**\/` means what `**\/` means.
						if (kinds[kinds.length - 1] !== DIRS) {
							push(SKIP_DIRS);
							push(DIRS);
						}
						i++;
					} else {
						push(ANY);
					}
				} else {
					push(STAR);
				}
			} else if (c === 0x5b /* [ */) {
				const read = readClass(pattern, i, options.caseFold);
				if (read) {
					push(CLASS, -1, read.unitClass);
					i = read.next;
				} else if (options.unclosedClassIsLiteral) {
					push(LITERAL, c);
					i++;
				} else {
					never = true;
				}
			} else {
				push(LITERAL, c);
				i++;
			}
		}
		this.never = never;
		this.kinds = Uint8Array.from(kinds);
		this.units = Int32Array.from(units);
		this.classes = classes;
		this.current = new Int32Array(kinds.length + 1);
		this.next = new Int32Array(kinds.length + 1);
		this.seen = new Int32Array(kinds.length + 1);
		this.pending = new Int32Array(2 * kinds.length + 4);
		this.minLength = kinds.filter(k => k <= CLASS).length;
		this.literal = kinds.every(k => k === LITERAL) ? textOf(units, 0, units.length) : undefined;
		const headLength = kinds.findIndex(k => k !== LITERAL);
		const tailStart = kinds.length - [...kinds].reverse().findIndex(k => k !== LITERAL);
		this.head = headLength < 0 ? '' : textOf(units, 0, headLength);
		this.tail = headLength < 0 ? '' : textOf(units, tailStart, units.length);
	}

	/** Compiles `pattern` (any string; prepared here). */
	static compile(pattern: string, options: WildmatchOptions): Wildmatch {
		return new Wildmatch(prepareText(pattern, options.caseFold), options);
	}

	/** Whether the whole of `text` matches. */
	matches(text: string): boolean {
		return this.matchesPrepared(prepareText(text, this.options.caseFold), 0);
	}

	/** Whether `text` (prepared with `prepareText` and the same `caseFold`) from `start` to its end matches. */
	matchesPrepared(text: string, start: number): boolean {
		if (this.never || text.length - start < this.minLength) {
			return false;
		}
		if (this.literal !== undefined) {
			return text.length - start === this.literal.length && text.startsWith(this.literal, start);
		}
		if (!text.startsWith(this.head, start) || !text.endsWith(this.tail)) {
			return false;
		}
		const end = this.kinds.length;
		const pathname = this.options.pathname;
		if (this.stamp > 0x3fffffff) {
			this.stamp = 0;
			this.seen.fill(0);
		}
		let count = this.reach(this.current, 0, 0, ++this.stamp);
		for (let t = start; t < text.length && count > 0; t++) {
			const unit = text.charCodeAt(t);
			const from = this.current;
			const to = this.next;
			const stamp = ++this.stamp;
			let reached = 0;
			for (let s = 0; s < count; s++) {
				const at = from[s];
				if (at === end) {
					continue;
				}
				const kind = this.kinds[at];
				const opensSlash = !pathname || unit !== SLASH;
				if (kind === LITERAL) {
					if (this.units[at] === unit) {
						reached = this.reach(to, reached, at + 1, stamp);
					}
				} else if (kind === ONE) {
					if (opensSlash) {
						reached = this.reach(to, reached, at + 1, stamp);
					}
				} else if (kind === CLASS) {
					if (opensSlash && this.classes[at]!.has(unit)) {
						reached = this.reach(to, reached, at + 1, stamp);
					}
				} else if (kind === STAR) {
					if (opensSlash) {
						reached = this.reach(to, reached, at, stamp);
					}
				} else {
					reached = this.reach(to, reached, at, stamp);
					if (kind === DIRS && unit === SLASH) {
						reached = this.reach(to, reached, at + 1, stamp);
					}
				}
			}
			this.current = to;
			this.next = from;
			count = reached;
		}
		return count > 0 && this.seen[end] === this.stamp;
	}

	/**
	 * Adds position `at` to the list `into` (of `count` entries), with every position it leads to
	 * without reading a unit (past a star, which may match nothing; both ways from `SKIP_DIRS`);
	 * returns the new count. A stack, not recursion: a pattern may chain thousands of those.
	 */
	private reach(into: Int32Array, count: number, at: number, stamp: number): number {
		const end = this.kinds.length;
		const pending = this.pending;
		let waiting = 0;
		pending[waiting++] = at;
		while (waiting > 0) {
			const position = pending[--waiting];
			if (this.seen[position] === stamp) {
				continue;
			}
			this.seen[position] = stamp;
			const kind = position === end ? LITERAL : this.kinds[position];
			if (kind === SKIP_DIRS) {
				pending[waiting++] = position + 2;
				pending[waiting++] = position + 1;
				continue;
			}
			into[count++] = position;
			if (kind === STAR || kind === ANY) {
				pending[waiting++] = position + 1;
			}
		}
		return count;
	}
}
