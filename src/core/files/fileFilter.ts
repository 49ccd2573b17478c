import * as path from 'node:path';
import picomatch from 'picomatch';
import { FileSettings, FileSystemReader, WorkspaceFolder } from '../ports';
import { BoundedIgnore, ignoredAfter, parseGitignore } from './boundedIgnore';
import { readRepositoryRules, RuleFile } from './repositoryRules';
import { readRuleFileText } from './ruleFileText';
import { BUILT_IN_SECRETS, SecretMatcher } from './secretMatcher';

type Ignore = BoundedIgnore;

/** Decides whether a path under a workspace folder may be served. */
export class FileFilter {
	private readonly secrets: SecretMatcher;
	private readonly excluded: ((rel: string) => boolean) | undefined;
	/**
	 * Parsed `.gitignore` per directory (null: none there), filled while indexing: per folder path,
	 * by workspace-relative directory. Two short keys, not one joined string: the walk looks up
	 * every ancestor of each directory it reads, and a joined key was a new long string to build
	 * and hash for each of those lookups.
	 */
	private readonly gitignores = new Map<string, Map<string, Ignore | null>>();
	/**
	 * Per folder path, the rules of its repository that lie outside the folder (see
	 * `loadRepositoryRules`), in git's order, each with the folder's path relative to it.
	 */
	private readonly repositoryRules = new Map<string, Promise<readonly RuleFile[]>>();
	private readonly loadedRepositoryRules = new Map<string, readonly RuleFile[]>();

	constructor(
		private readonly reader: FileSystemReader,
		readonly settings: FileSettings,
	) {
		this.secrets = new SecretMatcher([...BUILT_IN_SECRETS, ...settings.secrets]);
		const patterns = settings.exclude.filter(p => p.trim() !== '');
		const matcher = patterns.length > 0 ? picomatch(patterns, { dot: true }) : undefined;
		this.excluded = matcher ? rel => matcher(rel) : undefined;
	}

	/**
	 * Synchronous check against what is loaded. With `parentsChecked` the caller vouches that
	 * every ancestor directory is served (the indexer only descends into served directories).
	 * `extra` holds `.gitignore` rules of directories the index has not loaded, by relative path.
	 */
	isIgnored(folder: WorkspaceFolder, rel: string, isDirectory: boolean, parentsChecked = false, extra?: Map<string, Ignore | null>): boolean {
		if (rel === '' || rel.startsWith('/')) {
			return true;
		}
		if (this.secrets.matches(rel, isDirectory)) {
			return true;
		}
		if (!parentsChecked) {
			const parts = rel.split('/');
			let prefix = '';
			for (let i = 0; i < parts.length - 1; i++) {
				prefix = prefix ? `${prefix}/${parts[i]}` : parts[i];
				if (this.secrets.matches(prefix, true) || this.excluded?.(prefix) || this.gitignored(folder, prefix, true, extra)) {
					return true;
				}
			}
		}
		return this.excluded?.(rel) || this.gitignored(folder, rel, isDirectory, extra);
	}

	/**
	 * `isIgnored` for the children of one served directory (`parentsChecked`), with the work that
	 * depends only on the directory done once: which `.gitignore` files apply and the path of the
	 * directory relative to each. The walk asks this once per directory, then once per name.
	 */
	checkerFor(folder: WorkspaceFolder, dirRel: string): NameCheck {
		const chain: RuleFile[] = [];
		const loaded = this.gitignores.get(folder.path);
		for (const outside of this.loadedRepositoryRules.get(folder.path) ?? []) {
			chain.push({ rules: outside.rules, prefix: dirRel ? `${outside.prefix}${dirRel}/` : outside.prefix });
		}
		if (this.settings.respectGitignore && loaded) {
			// Each directory from the folder root down to this one: where its relative path ends
			// in `dirRel` (-1 for the root), and what is left of `dirRel` below it.
			let end = -1;
			for (;;) {
				const rules = loaded.get(end < 0 ? '' : dirRel.slice(0, end));
				if (rules) {
					const sub = dirRel.slice(end + 1);
					chain.push({ rules, prefix: sub ? `${sub}/` : '' });
				}
				if (dirRel === '' || end === dirRel.length) {
					break;
				}
				const slash = dirRel.indexOf('/', end + 1);
				end = slash < 0 ? dirRel.length : slash;
			}
		}
		// Parents are served, so a rule file without negations anywhere in the chain ignored none
		// of them; its rules that name only a last segment then decide by the name alone, and
		// `ignore` answers a bare name without walking and caching every parent directory.
		if (!chain.some(c => c.rules.negates)) {
			for (const c of chain) {
				if (c.rules.byNameOnly) {
					c.prefix = '';
				}
			}
		}
		return new NameCheck(this.secrets, this.excluded, dirRel ? `${dirRel}/` : '', chain);
	}

	/** Loads the `.gitignore` files of every ancestor of `rel`, then checks it. */
	async isServed(folder: WorkspaceFolder, rel: string, isDirectory: boolean): Promise<boolean> {
		if (this.settings.respectGitignore) {
			if (!this.loadedRepositoryRules.has(folder.path)) {
				await this.loadRepositoryRules([folder]);
			}
			const dirs = [''];
			for (let i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
				dirs.push(rel.slice(0, i));
			}
			// Directories the indexer has not seen are read but not cached, so probing
			// random paths cannot grow memory.
			const loaded = this.gitignores.get(folder.path);
			const transient = new Map<string, Ignore | null>();
			await Promise.all(dirs.filter(d => !loaded?.has(d)).map(async d => {
				transient.set(d, await this.readGitignore(path.join(folder.path, d)));
			}));
			return !this.isIgnored(folder, rel, isDirectory, false, transient);
		}
		return !this.isIgnored(folder, rel, isDirectory);
	}

	/**
	 * Reads the rules of each folder's repository that lie outside the folder, as git applies
	 * them: the user's global excludes file, the repository's `.git/info/exclude`, then, for a repository's subfolder opened alone,
	 * the `.gitignore` files from the repository's top (the first directory up from the folder's
	 * real path with a `.git`) down to the folder. None when no repository holds the folder, or
	 * when those rules ignore the folder itself (someone who opens a folder git ignores, such as a
	 * build output, means to see it). Read once per index, before its walk; the walk's thread
	 * reads its own.
	 */
	async loadRepositoryRules(folders: readonly WorkspaceFolder[]): Promise<void> {
		if (!this.settings.respectGitignore) {
			return;
		}
		await Promise.all(folders.map(async folder => {
			let loading = this.repositoryRules.get(folder.path);
			if (!loading) {
				loading = readRepositoryRules(this.reader, folder.path, this.settings.gitUser).catch(() => []);
				this.repositoryRules.set(folder.path, loading);
			}
			this.loadedRepositoryRules.set(folder.path, await loading);
		}));
	}

	/**
	 * Reads and caches the `.gitignore` of a directory the indexer walks. Returns its text (null
	 * when there is none or it is not read), which a walk in another thread hands to `adoptGitignore`.
	 */
	async loadGitignore(folder: WorkspaceFolder, dirRel: string, present: boolean): Promise<string | null> {
		if (!this.settings.respectGitignore) {
			return null;
		}
		const text = present ? await this.readGitignoreText(path.join(folder.path, dirRel)) : null;
		this.adoptGitignore(folder, dirRel, text);
		return text;
	}

	/** Caches a walked directory's `.gitignore` as loaded elsewhere (null: none there). */
	adoptGitignore(folder: WorkspaceFolder, dirRel: string, text: string | null): void {
		if (this.settings.respectGitignore) {
			let loaded = this.gitignores.get(folder.path);
			if (!loaded) {
				loaded = new Map();
				this.gitignores.set(folder.path, loaded);
			}
			loaded.set(dirRel, parseGitignore(text));
		}
	}

	private async readGitignore(dirPath: string): Promise<Ignore | null> {
		return parseGitignore(await this.readGitignoreText(dirPath));
	}

	private readGitignoreText(dirPath: string): Promise<string | null> {
		return readRuleFileText(this.reader, path.join(dirPath, '.gitignore'));
	}

	private gitignored(folder: WorkspaceFolder, rel: string, isDirectory: boolean, extra?: Map<string, Ignore | null>): boolean {
		if (!this.settings.respectGitignore) {
			return false;
		}
		// The repository's exclude file, then each .gitignore from the repository's top down to
		// the parent decides in turn; deeper files override shallower ones, as in git.
		let ignored = false;
		for (const outside of this.loadedRepositoryRules.get(folder.path) ?? []) {
			const result = outside.rules.test(isDirectory ? `${outside.prefix}${rel}/` : outside.prefix + rel);
			ignored = ignoredAfter(ignored, result);
		}
		const loaded = this.gitignores.get(folder.path);
		let slash = -1;
		do {
			const dirRel = slash < 0 ? '' : rel.slice(0, slash);
			const rules = loaded?.get(dirRel) ?? extra?.get(dirRel);
			if (rules) {
				const sub = rel.slice(slash + 1);
				const result = rules.test(isDirectory ? `${sub}/` : sub);
				ignored = ignoredAfter(ignored, result);
			}
			slash = rel.indexOf('/', slash + 1);
		} while (slash >= 0);
		return ignored;
	}
}

/**
 * Whether a name in one directory is hidden; the directory itself is served (`checkerFor`).
 * An object, not a closure per directory: its method is one call target for the optimizer
 * however many directories the walk reads.
 */
export class NameCheck {
	constructor(
		private readonly secrets: SecretMatcher,
		private readonly excluded: ((rel: string) => boolean) | undefined,
		/** The directory's relative path with its `/` ('' at a folder root). */
		private readonly relPrefix: string,
		private readonly chain: readonly RuleFile[],
	) {}

	/** Per name of the walk: the relative path is built only for what needs it. */
	isIgnored(name: string, isDirectory: boolean): boolean {
		// Lower-cased once for the secrets and every rule file's name globs.
		const lower = name.toLowerCase();
		if (this.secrets.matchesIn(this.relPrefix, name, isDirectory, lower) || (this.excluded !== undefined && this.excluded(this.relPrefix + name))) {
			return true;
		}
		let ignored = false;
		for (const { rules, prefix } of this.chain) {
			const result = prefix === '' ? rules.testName(name, isDirectory, lower) : rules.test(isDirectory ? `${prefix}${name}/` : prefix + name);
			ignored = ignoredAfter(ignored, result);
		}
		return ignored;
	}
}
