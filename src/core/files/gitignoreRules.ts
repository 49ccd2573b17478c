import { NameGlobs } from './nameGlobs';
import { prepareText, Wildmatch } from './wildmatch';

const IGNORED = { ignored: true, unignored: false } as const;
const UNIGNORED = { ignored: false, unignored: true } as const;
const NOT_IGNORED = { ignored: false, unignored: false } as const;

export type RuleResult = { readonly ignored: boolean; readonly unignored: boolean };

/** One line of a rule file, read as git's `parse_path_pattern` reads it. */
interface Rule {
	/** Its place in the file: the last rule that matches decides. */
	readonly index: number;
	readonly negative: boolean;
	/** Ended in `/`: matches directories only. */
	readonly directoryOnly: boolean;
	/** Without a `/` (git's `NODIR`): matched against the last segment alone. */
	readonly byName: boolean;
	/** The pattern's leading part without wildcards (git's `nowildcardlen`), prepared, compared as a string. */
	readonly prefix: string;
	/** The rest, matched after the prefix; undefined when there is none. */
	readonly rest: Wildmatch | undefined;
}

/** Wildcard characters (git's `GLOB_SPECIAL`): a pattern's literal prefix ends at the first. */
const WILDCARD = /[*?[\\]/;

/**
 * The rules of one `.gitignore`-syntax file, matched as git matches them (`dir.c`,
 * `wildmatch.c`): negation, directory-only `/`, anchoring by an inner or leading `/`, `**`,
 * classes, escapes, trailing spaces. Plain names and `*.ext`-style rules are looked up in maps
 * rather than tried in turn, so a `.gitignore` of 50,000 names costs a few lookups per path;
 * rules with an inner `/` are tried only for paths in the directory their first segment names;
 * the others are tried from the last back, and only those after the best match so far.
 * Paths are relative to the file's directory; a trailing `/` marks a directory. A path's
 * ancestors are the caller's to check (git stops at an ignored directory).
 */
export class GitignoreRules {
	private readonly rules: Rule[] = [];
	/** Rules that are a plain name, by that name: their indices, in file order. */
	private readonly exact = new Map<string, number[]>();
	/** Rules `*` + a plain suffix, by suffix length, then suffix: their indices, in file order. */
	private readonly suffixes = new Map<number, Map<string, number[]>>();
	/**
	 * Other rules that end in a plain part (`deep/**\/x.js`, `a?c.txt`), by its length, then that
	 * part: a path that does not end in it cannot match. In file order.
	 */
	private readonly byTail = new Map<number, Map<string, Rule[]>>();
	/** Rules with an inner `/` whose first segment has no wildcard, by that segment, in file order. */
	private readonly byFirstSegment = new Map<string, Rule[]>();
	/** Every other rule, in file order. */
	private readonly general: Rule[] = [];
	/**
	 * Every rule names a last path segment (`*.log`, `build/`, `!keep.txt`; no inner `/`, no
	 * `**`): such rules decide a path by its name alone, whatever directory it is in.
	 */
	readonly byNameOnly: boolean;
	/** Some rule re-includes (`!pattern`). */
	readonly negates: boolean;
	/** Plain name rules without negations, compiled to one test on the name. */
	private readonly simpleNames: { readonly files: NameGlobs; readonly directories: NameGlobs } | undefined;

	constructor(lines: readonly string[], private readonly caseFold: boolean) {
		let byNameOnly = true;
		let simple = true;
		const forFiles: string[] = [];
		const forDirectories: string[] = [];
		for (const line of lines) {
			const rule = this.add(line);
			if (rule) {
				const body = rule.body;
				byNameOnly &&= rule.byName && !body.includes('**');
				// Letters, digits, `.-_` and the wildcards `*` `?`: what `NameGlobs` reads as git does.
				simple &&= !rule.negative && /^[\w.@+=,~*?-]+$/.test(body);
				(rule.directoryOnly ? forDirectories : forFiles).push(body);
			}
		}
		this.byNameOnly = byNameOnly;
		this.negates = this.rules.some(r => r.negative);
		this.simpleNames = byNameOnly && simple ? { files: new NameGlobs(forFiles), directories: new NameGlobs([...forFiles, ...forDirectories]) } : undefined;
	}

	/** Parses one line (git's `add_pattern`); returns what the name fast path needs, or undefined for none. */
	private add(line: string): { body: string; negative: boolean; directoryOnly: boolean; byName: boolean } | undefined {
		let text = trimTrailingSpaces(line.endsWith('\r') ? line.slice(0, -1) : line);
		if (text === '' || text.startsWith('#')) {
			return undefined;
		}
		const negative = text.startsWith('!');
		if (negative) {
			text = text.slice(1);
		}
		const directoryOnly = text.endsWith('/');
		if (directoryOnly) {
			text = text.slice(0, -1);
		}
		const byName = !text.includes('/');
		if (!byName && text.startsWith('/')) {
			text = text.slice(1);
		}
		const wildcard = text.search(WILDCARD);
		const literalLength = wildcard < 0 ? text.length : wildcard;
		const index = this.rules.length;
		const prefix = prepareText(text.slice(0, literalLength), this.caseFold);
		const restText = text.slice(literalLength);
		const suffix = text.slice(1);
		// A `*.ext` rule is answered by its suffix alone: no automaton for it.
		const bySuffix = byName && text.startsWith('*') && !WILDCARD.test(suffix);
		const rest = restText === '' || bySuffix ? undefined : Wildmatch.compile(restText, { pathname: !byName, caseFold: this.caseFold });
		const rule: Rule = { index, negative, directoryOnly, byName, prefix, rest };
		this.rules.push(rule);
		if (byName && restText === '') {
			listIn(this.exact, prefix).push(index);
		} else if (bySuffix) {
			const key = prepareText(suffix, this.caseFold);
			let sameLength = this.suffixes.get(key.length);
			if (!sameLength) {
				sameLength = new Map();
				this.suffixes.set(key.length, sameLength);
			}
			listIn(sameLength, key).push(index);
		} else if (tailOf(text) !== '') {
			const tail = prepareText(tailOf(text), this.caseFold);
			let byText = this.byTail.get(tail.length);
			if (!byText) {
				byText = new Map();
				this.byTail.set(tail.length, byText);
			}
			listIn(byText, tail).push(rule);
		} else if (!byName && (restText === '' || prefix.includes('/'))) {
			const slash = prefix.indexOf('/');
			listIn(this.byFirstSegment, slash < 0 ? prefix : prefix.slice(0, slash)).push(rule);
		} else {
			this.general.push(rule);
		}
		return { body: text, negative, directoryOnly, byName };
	}

	/**
	 * `test` for a path of one segment, when the caller vouches that the rules decide by name
	 * alone (`byNameOnly`) and no parent is ignored; `lower` is the name in lower case, when known.
	 */
	testName(name: string, isDirectory: boolean, lower?: string): RuleResult {
		if (this.simpleNames) {
			return (isDirectory ? this.simpleNames.directories : this.simpleNames.files).matches(name, lower) ? IGNORED : NOT_IGNORED;
		}
		return this.decide(prepareText(this.caseFold && lower !== undefined ? lower : name, this.caseFold), isDirectory);
	}

	/** What the last matching rule says of `path` (a trailing `/` for a directory). */
	test(path: string): RuleResult {
		const isDirectory = path.endsWith('/');
		return this.decide(prepareText(isDirectory ? path.slice(0, -1) : path, this.caseFold), isDirectory);
	}

	ignores(path: string): boolean {
		return this.test(path).ignored;
	}

	private decide(path: string, isDirectory: boolean): RuleResult {
		const nameStart = path.lastIndexOf('/') + 1;
		let best = this.lastApplying(this.exact.get(nameStart === 0 ? path : path.slice(nameStart)), isDirectory, -1);
		for (const [length, bySuffix] of this.suffixes) {
			if (path.length - nameStart >= length) {
				best = this.lastApplying(bySuffix.get(path.slice(path.length - length)), isDirectory, best);
			}
		}
		for (const [length, byText] of this.byTail) {
			if (path.length >= length) {
				best = lastMatching(byText.get(path.slice(path.length - length)), path, nameStart, isDirectory, best);
			}
		}
		const firstSlash = path.indexOf('/');
		best = lastMatching(this.byFirstSegment.get(firstSlash < 0 ? path : path.slice(0, firstSlash)), path, nameStart, isDirectory, best);
		best = lastMatching(this.general, path, nameStart, isDirectory, best);
		return best < 0 ? NOT_IGNORED : this.rules[best].negative ? UNIGNORED : IGNORED;
	}

	/** The last index in `indices` (in file order) of a rule that applies to the path, if after `best`. */
	private lastApplying(indices: readonly number[] | undefined, isDirectory: boolean, best: number): number {
		for (let i = (indices?.length ?? 0) - 1; i >= 0; i--) {
			const index = indices![i];
			if (index <= best) {
				break;
			}
			if (isDirectory || !this.rules[index].directoryOnly) {
				return index;
			}
		}
		return best;
	}
}

/**
 * What follows a pattern's last wildcard, escape or class bracket, without a leading `/` (which
 * `**\/` may match with nothing): text any match ends with.
 */
function tailOf(pattern: string): string {
	return pattern.slice(Math.max(pattern.lastIndexOf('*'), pattern.lastIndexOf('?'), pattern.lastIndexOf('['), pattern.lastIndexOf(']'), pattern.lastIndexOf('\\')) + 1).replace(/^\//, '');
}

/** The index of the last of `rules` (in file order) that matches the path, if after `best`. */
function lastMatching(rules: readonly Rule[] | undefined, path: string, nameStart: number, isDirectory: boolean, best: number): number {
	for (let i = (rules?.length ?? 0) - 1; i >= 0 && rules![i].index > best; i--) {
		const rule = rules![i];
		if ((isDirectory || !rule.directoryOnly) && matchesRule(rule, path, rule.byName ? nameStart : 0)) {
			return rule.index;
		}
	}
	return best;
}

/** Git's `match_basename` and `match_pathname` for a rule with wildcards, from `start` of the path. */
function matchesRule(rule: Rule, path: string, start: number): boolean {
	if (!path.startsWith(rule.prefix, start)) {
		return false;
	}
	const restStart = start + rule.prefix.length;
	return rule.rest === undefined ? restStart === path.length : rule.rest.matchesPrepared(path, restStart);
}

function listIn<T>(map: Map<string, T[]>, key: string): T[] {
	let list = map.get(key);
	if (!list) {
		list = [];
		map.set(key, list);
	}
	return list;
}

/** Git's `trim_trailing_spaces`: drops trailing spaces unless the first of them is escaped with `\`. */
function trimTrailingSpaces(line: string): string {
	let lastSpace = -1;
	for (let i = 0; i < line.length; i++) {
		const c = line[i];
		if (c === ' ') {
			if (lastSpace < 0) {
				lastSpace = i;
			}
		} else if (c === '\\') {
			if (++i >= line.length) {
				return line;
			}
			lastSpace = -1;
		} else {
			lastSpace = -1;
		}
	}
	return lastSpace < 0 ? line : line.slice(0, lastSpace);
}

/**
 * Whether a path is ignored after one more rule file's answer, as git lets a later (deeper) file
 * decide: its match ignores, its negation re-includes, silence keeps what came before.
 */
export function ignoredAfter(soFar: boolean, result: RuleResult): boolean {
	return result.ignored || (soFar && !result.unignored);
}

/** A `.gitignore`'s rules (git reads them case-sensitively; here any case, as on macOS and Windows); null for none. */
export function parseGitignore(text: string | null): GitignoreRules | null {
	return text === null ? null : new GitignoreRules((text.startsWith('\ufeff') ? text.slice(1) : text).split('\n'), true);
}
