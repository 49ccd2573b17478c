import { Buffer } from 'node:buffer';
import { RE2JS } from 're2js';
import { InvalidParams } from '../errors';
import { LiteralPlan, requiredLiterals } from './requiredLiterals';
import { TextQuery } from './searchQuery';
import { literalProbes, mayHoldAll } from './quadgrams';

/** One line that holds a match. */
export interface LineHit {
	/** 1-based. */
	readonly line: number;
	/** 0-based UTF-16 offset of the first match in the line, and where it ends. */
	readonly start: number;
	readonly end: number;
	/** The whole line, without its line break. */
	readonly text: string;
}

/**
 * Work past which the regex engine is not asked where a match starts (line length times program
 * size): finding positions takes its slower automaton, which on a long line of a hostile
 * pattern runs far longer than reading the line. Past it the line is known to match (the fast
 * automaton says so) and the match is placed at its first required literal, or at its start.
 */
const MAX_POSITION_WORK = 4_000_000;
/** Word characters for `word=true` on a literal: as `\b` of a regex sees them. */
const NOT_WORD_BEFORE = '(?<![A-Za-z0-9_])';
const NOT_WORD_AFTER = '(?![A-Za-z0-9_])';

/**
 * What a text query looks for, compiled once: the lines of a text that match, and the 4-gram
 * keys a file must hold to have any (for the index to rule files out unread).
 *
 * Literals run as V8 regular expressions of the escaped text, which cannot backtrack beyond the
 * literal itself. `case=false` folds letters as RE2 and ripgrep do (Unicode's simple case folding:
 * `i` with `u`), at every step that looks at text; the index's signatures fold ASCII letters only
 * and leave grams of other letters out, so that an ASCII k or s in `q` is the one letter the
 * signatures may not find in place of the Kelvin sign or the long s (docs/resources.md).
 * Regexes run on RE2 (`re2js`), in time linear in the text: no pattern can hold the search.
 */
export class TextMatcher {
	/**
	 * Alternatives of literals, each literal as its 4-gram probes: a file must hold every literal
	 * of one alternative, each within one part of its signature (empty: no narrowing).
	 */
	private readonly keySets: readonly (readonly number[][])[];
	private readonly literal: RegExp | undefined;
	private readonly regex: RE2JS | undefined;
	/** Finds lines that may match a regex: its required literals, any case. */
	private readonly lineFilter: RegExp | undefined;
	/** Each alternative's required literals, any case: a line must hold all of one to be run. */
	private readonly lineLiterals: readonly (readonly RegExp[])[] = [];
	/**
	 * For a case-sensitive query, the bytes a file must hold (all of one alternative): looked for
	 * in the file's bytes before they are decoded, as `Buffer.indexOf` finds them far faster than
	 * decoding and scanning the text. Empty when the query folds case (nothing to look for).
	 */
	private readonly byteLiterals: readonly (readonly Buffer[])[] = [];
	/**
	 * For a query that folds case (so has no byte literals), what a file must hold somewhere when
	 * every literal is ASCII: tried on the bytes read as Latin-1 (a character a byte, copied, not
	 * decoded), where `i` folds ASCII letters alone, as it does in the text. Most files a
	 * signature lets through lack the literal, and decoding each of them was a regex search's
	 * largest cost.
	 */
	private readonly foldedFilter: RegExp | undefined;

	private constructor(query: TextQuery) {
		if (!query.regex) {
			const escaped = escapeRegExp(query.q);
			const source = query.word ? `${NOT_WORD_BEFORE}${escaped}${NOT_WORD_AFTER}` : escaped;
			this.literal = new RegExp(source, query.caseSensitive ? 'g' : 'giu');
			const keys = literalProbes(query.q, query.caseSensitive);
			this.keySets = keys.length > 0 ? [[keys]] : [];
			this.byteLiterals = query.caseSensitive ? [[Buffer.from(query.q, 'utf8')]] : [];
			this.foldedFilter = query.caseSensitive ? undefined : asciiFilter([query.q]);
			return;
		}
		this.regex = compileRegex(query);
		const plan = requiredLiterals(query.q);
		this.keySets = plan ? keySetsOf(plan) : [];
		if (plan) {
			// The longest literal of each alternative: a line without any of them cannot match.
			const longest = plan.map(set => set.reduce((a, b) => (b.length > a.length ? b : a)));
			this.lineFilter = new RegExp(longest.map(escapeRegExp).join('|'), 'giu');
			this.lineLiterals = plan.map(set => set.map(l => new RegExp(escapeRegExp(l), 'iu')));
			// Flags inside the pattern (`(?i)`) may fold case where the query does not.
			if (query.caseSensitive && !/\(\?[a-zA-Z]*i/.test(query.q)) {
				this.byteLiterals = plan.map(set => set.map(l => Buffer.from(l, 'utf8')));
			} else {
				this.foldedFilter = asciiFilter(longest);
			}
		}
	}

	/** Compiles a query; an invalid regex is an InvalidParams with RE2's own reason. */
	static compile(query: TextQuery): TextMatcher {
		return new TextMatcher(query);
	}

	/**
	 * Whether a file whose signature is `words` [start, end) may hold a match (false: its index
	 * rules the query out). A property, so the search hands the same function to every file.
	 */
	readonly mayMatchSignature = (words: Int32Array, start: number, end: number): boolean => {
		const sets = this.keySets;
		if (sets.length === 0) {
			return true;
		}
		for (let s = 0; s < sets.length; s++) {
			const literals = sets[s];
			let all = true;
			for (let l = 0; l < literals.length && all; l++) {
				all = mayHoldAll(words, start, end, literals[l]);
			}
			if (all) {
				return true;
			}
		}
		return false;
	};

	/** Whether a file whose bytes these are may hold a match (false: it holds no required literal). */
	mayMatchBytes(bytes: Buffer): boolean {
		if (this.byteLiterals.length > 0) {
			return this.byteLiterals.some(set => set.every(l => bytes.indexOf(l) >= 0));
		}
		return this.foldedFilter === undefined || this.foldedFilter.test(bytes.toString('latin1'));
	}

	/**
	 * The lines of `text` that match, in order, at most `limit`. `goOn` is asked before each line
	 * a regex is run on (false stops: the search's time budget ran out).
	 */
	scan(text: string, limit: number, goOn: () => boolean = () => true): LineHit[] {
		return this.literal ? this.scanLiteral(this.literal, text, limit) : this.scanRegex(text, limit, goOn);
	}

	/** One pass of the literal over the whole text; line numbers counted as it goes. */
	private scanLiteral(re: RegExp, text: string, limit: number): LineHit[] {
		const hits: LineHit[] = [];
		const lines = new LineCounter(text);
		re.lastIndex = 0;
		while (hits.length < limit) {
			const m = re.exec(text);
			if (!m) {
				break;
			}
			const line = lines.lineAt(m.index);
			const hitLine = lineBounds(text, m.index);
			if (m.index + m[0].length > hitLine.end) {
				// A literal with a line break in it spans lines: a line holds no such match.
				re.lastIndex = m.index + 1;
				continue;
			}
			hits.push({ line, start: m.index - hitLine.start, end: m.index - hitLine.start + m[0].length, text: lineWithoutCr(text, hitLine) });
			re.lastIndex = hitLine.end + 1;
		}
		return hits;
	}

	private scanRegex(text: string, limit: number, goOn: () => boolean): LineHit[] {
		const hits: LineHit[] = [];
		const lines = new LineCounter(text);
		const filter = this.lineFilter;
		let from = 0;
		while (from < text.length && hits.length < limit) {
			let lineStart = from;
			if (filter) {
				filter.lastIndex = from;
				const m = filter.exec(text);
				if (!m) {
					break;
				}
				lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
				if (lineStart < from) {
					lineStart = from;
				}
			}
			const bounds = lineBounds(text, lineStart);
			if (!goOn()) {
				break;
			}
			const line = lineWithoutCr(text, bounds);
			const hit = this.holdsLiterals(line) ? this.regexHit(line) : undefined;
			if (hit) {
				hits.push({ line: lines.lineAt(lineStart), start: hit.start, end: hit.end, text: line });
			}
			from = bounds.end + 1;
		}
		return hits;
	}

	/**
	 * Whether a line holds every required literal of some alternative (a match lies within one
	 * line): far cheaper than running the regex, and most lines with one literal lack another.
	 * Tested in place: a lower-cased copy of each line cost as much as the regex on minified
	 * code's long lines, and lower-casing is not how RE2 folds (σ and ς, ſ and s).
	 */
	private holdsLiterals(line: string): boolean {
		if (this.lineLiterals.length === 0) {
			return true;
		}
		return this.lineLiterals.some(set => set.every(l => l.test(line)));
	}

	/** Where the regex matches in a line, or undefined when it does not. */
	private regexHit(line: string): { start: number; end: number } | undefined {
		const re = this.regex!;
		if (!re.test(line)) {
			return undefined;
		}
		if (line.length * re.programSize() <= MAX_POSITION_WORK) {
			const m = re.matcher(line);
			if (m.find()) {
				return { start: m.start(), end: m.end() };
			}
		}
		const filter = this.lineFilter;
		let at = 0;
		if (filter) {
			filter.lastIndex = 0;
			at = filter.exec(line)?.index ?? 0;
		}
		return { start: at, end: at };
	}
}

/**
 * A case-folding test for any of `literals` on bytes read as Latin-1, or undefined when one is
 * not ASCII (its bytes are not its characters). The two letters whose case folding leaves ASCII,
 * k (the Kelvin sign) and s (the long s), also match those signs' UTF-8 bytes.
 */
function asciiFilter(literals: readonly string[]): RegExp | undefined {
	// eslint-disable-next-line no-control-regex
	if (literals.some(l => !/^[\x00-\x7f]*$/.test(l))) {
		return undefined;
	}
	return new RegExp(literals.map(l => escapeRegExp(l).replace(/[ks]/gi, letter => FOLDED_BYTES[letter.toLowerCase()])).join('|'), 'i');
}

/** k and s, or the UTF-8 bytes (read as Latin-1) of the sign that folds to each. */
const FOLDED_BYTES: Record<string, string> = {
	k: `(?:k|${Buffer.from('\u212a', 'utf8').toString('latin1')})`,
	s: `(?:s|${Buffer.from('\u017f', 'utf8').toString('latin1')})`,
};

/** `text` as a pattern that matches just it. */
function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function compileRegex(query: TextQuery): RE2JS {
	const source = query.word ? `\\b(?:${query.q})\\b` : query.q;
	try {
		return RE2JS.compile(source, query.caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
	} catch (err) {
		// The engine shows the flags it was given as a prefix of the pattern: the client never wrote them.
		const reason = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '').replace(/`\(\?i\)/g, '`') : 'it cannot be parsed';
		throw new InvalidParams(`Invalid regex (RE2 syntax): ${reason.slice(0, 200)}. Lookaround and backreferences are not supported; for plain text, leave out regex=true`);
	}
}

/** Each alternative's literals as 4-gram probes (case folded as the index is); an alternative with none narrows nothing. */
function keySetsOf(plan: LiteralPlan): number[][][] {
	const sets: number[][][] = [];
	for (const literals of plan) {
		const keys = literals.map(l => literalProbes(l, false)).filter(k => k.length > 0);
		if (keys.length === 0) {
			return [];
		}
		sets.push(keys);
	}
	return sets;
}

/** The line around `index`: where it starts, and where its `\n` is (or the text ends). */
function lineBounds(text: string, index: number): { start: number; end: number } {
	const start = text.lastIndexOf('\n', index - 1) + 1;
	const newline = text.indexOf('\n', index);
	return { start, end: newline < 0 ? text.length : newline };
}

function lineWithoutCr(text: string, bounds: { start: number; end: number }): string {
	const end = bounds.end > bounds.start && text.charCodeAt(bounds.end - 1) === 13 ? bounds.end - 1 : bounds.end;
	return text.slice(bounds.start, end);
}

/** Line numbers of offsets met in increasing order, counting line breaks once. */
class LineCounter {
	private offset = 0;
	private line = 1;

	constructor(private readonly text: string) {}

	lineAt(index: number): number {
		for (let nl = this.text.indexOf('\n', this.offset); nl >= 0 && nl < index; nl = this.text.indexOf('\n', nl + 1)) {
			this.line++;
			this.offset = nl + 1;
		}
		if (this.offset < index) {
			this.offset = index;
		}
		return this.line;
	}
}
