import ignore, { Ignore, Options } from 'ignore';
import { NameGlobs } from './nameGlobs';

const IGNORED = { ignored: true, unignored: false } as const;
const NOT_IGNORED = { ignored: false, unignored: false } as const;

/** Tests answered by one `ignore` instance before it is replaced by a fresh copy. */
const TESTS_PER_COPY = 4096;

/**
 * `ignore` rules whose result cache stays small. An `Ignore` remembers the answer for every path
 * it was ever asked about (and for each of its parent directories), so one instance asked about
 * every file of a million-file workspace holds a million cached answers for as long as the index
 * lives. Here the rules are parsed once and tests go to a copy that shares the parsed rules and
 * is replaced after a few thousand tests, which bounds the cache and keeps its lookups fast.
 */
export class BoundedIgnore {
	private readonly rules: Ignore;
	private tester: Ignore;
	private tests = 0;
	/**
	 * Every rule names a last path segment (`*.log`, `build/`, `!keep.txt`; no inner `/`, no
	 * `**`): such rules decide a path by its name alone, whatever directory it is in.
	 */
	readonly byNameOnly: boolean;
	/** Some rule re-includes (`!pattern`). */
	readonly negates: boolean;

	constructor(patterns: string | readonly string[], private readonly options?: Options) {
		this.rules = ignore(options).add(patterns);
		this.tester = this.copy();
		let byNameOnly = true;
		let negates = false;
		let simple = true;
		const forFiles: string[] = [];
		const forDirectories: string[] = [];
		for (const line of (typeof patterns === 'string' ? patterns.split(/\r?\n/) : patterns)) {
			const rule = line.trim();
			if (rule === '' || rule.startsWith('#')) {
				continue;
			}
			negates ||= rule.startsWith('!');
			const body = rule.replace(/^[!\\]/, '').replace(/\/$/, '');
			byNameOnly &&= !body.includes('/') && !body.includes('**');
			// Letters, digits, `.-_` and the wildcards `*` `?` mean the same to git and to a glob.
			simple &&= !/^\s/.test(line) && /^[\w.@+=,~*?-]+\/?$/.test(rule) && !/[@+!]\(/.test(rule);
			(rule.endsWith('/') ? forDirectories : forFiles).push(body);
		}
		this.byNameOnly = byNameOnly;
		this.negates = negates;
		if (byNameOnly && !negates && simple) {
			this.simpleNames = { files: new NameGlobs(forFiles), directories: new NameGlobs([...forFiles, ...forDirectories]) };
		}
	}

	/** Plain name rules without negations, compiled to one test on the name (no `ignore` call). */
	private readonly simpleNames: { readonly files: NameGlobs; readonly directories: NameGlobs } | undefined;

	/**
	 * `test` for a path of one segment, when the caller vouches that the rules decide by name
	 * alone (`byNameOnly`) and no parent is ignored.
	 */
	testName(name: string, isDirectory: boolean, lower?: string): { ignored: boolean; unignored: boolean } {
		if (this.simpleNames) {
			return (isDirectory ? this.simpleNames.directories : this.simpleNames.files).matches(name, lower) ? IGNORED : NOT_IGNORED;
		}
		return this.test(isDirectory ? `${name}/` : name);
	}

	test(path: string): { ignored: boolean; unignored: boolean } {
		return this.current().test(path);
	}

	ignores(path: string): boolean {
		return this.current().ignores(path);
	}

	private current(): Ignore {
		if (++this.tests > TESTS_PER_COPY) {
			this.tests = 0;
			this.tester = this.copy();
		}
		return this.tester;
	}

	private copy(): Ignore {
		return ignore(this.options).add(this.rules);
	}
}

/**
 * Whether a path is ignored after one more rule file's answer, as git lets a later (deeper) file
 * decide: its match ignores, its negation re-includes, silence keeps what came before.
 */
export function ignoredAfter(soFar: boolean, result: { ignored: boolean; unignored: boolean }): boolean {
	return result.ignored || (soFar && !result.unignored);
}

/**
 * Longer than a path can be (Linux's `PATH_MAX`). `ignore` compiles a rule when it first tests
 * one, and a line of some 32,000 characters (a `.gitignore` from a clone) makes a regular
 * expression V8 refuses with an exception the walk cannot survive; building one takes time that
 * grows with the square of its length.
 */
const MAX_RULE_LENGTH = 4096;

/**
 * A `.gitignore`'s rules; null for none, or for rules `ignore` cannot parse (as if absent). Lines
 * longer than `MAX_RULE_LENGTH` are skipped.
 */
export function parseGitignore(text: string | null): BoundedIgnore | null {
	try {
		return text === null ? null : new BoundedIgnore(text.split(/\r?\n/).filter(line => line.length <= MAX_RULE_LENGTH));
	} catch {
		return null;
	}
}
