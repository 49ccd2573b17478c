import * as path from 'node:path';
import { FileSettings, FileSystemReader, WorkspaceFolder } from '../ports';
import { ExcludeGlobs } from './excludeGlobs';
import { GitignoreRules, ignoredAfter, parseGitignore } from './gitignoreRules';
import { readRepositoryRules, RuleFile } from './repositoryRules';
import { readRuleFileText } from './ruleFileText';
import { BUILT_IN_SECRETS, SecretMatcher } from './secretMatcher';
import { deleteSubtrees } from './subtreeKeys';
import { Located } from './workspaceRoots';

type Ignore = GitignoreRules;

/** A `.gitignore` that applies in a directory, and where its own directory's part of the relative path ends (0 at the root, else after its `/`). */
interface AppliedRules {
	readonly rules: Ignore;
	readonly start: number;
}

/**
 * Directories whose `AppliedRules` are kept per folder; past this the cache starts over (each
 * entry is rebuilt from its parent's, so a walk stays linear in depth either way).
 */
const MAX_CACHED_CHAINS = 65_536;

/** Decides whether a path under a workspace folder may be served. */
export class FileFilter {
	private readonly secrets: SecretMatcher;
	private readonly excluded: ExcludeGlobs | undefined;
	/**
	 * Parsed `.gitignore` per directory (null: none there), filled while indexing: per folder path,
	 * by workspace-relative directory. Two short keys, not one joined string: the walk looks up
	 * every ancestor of each directory it reads, and a joined key was a new long string to build
	 * and hash for each of those lookups. A directory's entry goes when it is deleted
	 * (`forgetGone`), so this follows the served directories on disk, not every one ever walked.
	 */
	private readonly gitignores = new Map<string, Map<string, Ignore | null>>();
	/**
	 * Per folder path, the rules of its repository that lie outside the folder (see
	 * `loadRepositoryRules`), in git's order, each with the folder's path relative to it.
	 */
	private readonly repositoryRules = new Map<string, Promise<readonly RuleFile[]>>();
	private readonly loadedRepositoryRules = new Map<string, readonly RuleFile[]>();
	/**
	 * Per folder path, by directory: the `.gitignore` files that apply to its names, root first
	 * (`chainIn`). Each is its parent's plus its own, so a walk 2,000 directories deep does not
	 * look its ancestors up again for each directory. Holds every ancestor of what it holds, and
	 * loses deleted directories with their `.gitignore` entries.
	 */
	private readonly chains = new Map<string, Map<string, readonly AppliedRules[]>>();

	constructor(
		private readonly reader: FileSystemReader,
		readonly settings: FileSettings,
		/** Told of a setting's pattern that cannot be used (and then hides everything). */
		warn: (message: string) => void = () => undefined,
	) {
		this.secrets = new SecretMatcher([...BUILT_IN_SECRETS, ...settings.secrets]);
		const patterns = settings.exclude.filter(p => p.trim() !== '');
		this.excluded = patterns.length > 0 ? new ExcludeGlobs(patterns, warn) : undefined;
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
		if (this.secrets.matches(rel, isDirectory) || this.excluded?.matches(rel)) {
			return true;
		}
		const respectGitignore = this.settings.respectGitignore;
		const loaded = respectGitignore ? this.gitignores.get(folder.path) : undefined;
		const outside = respectGitignore ? this.loadedRepositoryRules.get(folder.path) ?? [] : [];
		// One pass down the path: the `.gitignore` files met so far are the ones that apply below.
		const chain: AppliedRules[] = [];
		let slash = -1;
		for (;;) {
			if (respectGitignore) {
				const dirRel = slash < 0 ? '' : rel.slice(0, slash);
				const rules = loaded?.get(dirRel) ?? extra?.get(dirRel);
				if (rules) {
					chain.push({ rules, start: slash + 1 });
				}
			}
			const next = rel.indexOf('/', slash + 1);
			if (next < 0) {
				break;
			}
			if (!parentsChecked) {
				const parent = rel.slice(0, next);
				if (this.secrets.matches(parent, true) || this.excluded?.matches(parent) || gitignored(outside, chain, parent, true)) {
					return true;
				}
			}
			slash = next;
		}
		return gitignored(outside, chain, rel, isDirectory);
	}

	/**
	 * `isIgnored` for the children of one served directory (`parentsChecked`), with the work that
	 * depends only on the directory done once: which `.gitignore` files apply and the path of the
	 * directory relative to each. The walk asks this once per directory, then once per name.
	 */
	checkerFor(folder: WorkspaceFolder, dirRel: string): NameCheck {
		const chain: RuleFile[] = [];
		for (const outside of this.loadedRepositoryRules.get(folder.path) ?? []) {
			chain.push({ rules: outside.rules, prefix: dirRel ? `${outside.prefix}${dirRel}/` : outside.prefix });
		}
		if (this.settings.respectGitignore) {
			for (const { rules, start } of this.chainIn(folder, dirRel)) {
				const sub = dirRel.slice(start);
				chain.push({ rules, prefix: sub ? `${sub}/` : '' });
			}
		}
		// Parents are served, so a rule file without negations anywhere in the chain ignored none
		// of them; its rules that name only a last segment then decide by the name alone, tested
		// without building the path.
		if (!chain.some(c => c.rules.negates)) {
			for (const c of chain) {
				if (c.rules.byNameOnly) {
					c.prefix = '';
				}
			}
		}
		return new NameCheck(this.secrets, this.excluded, dirRel ? `${dirRel}/` : '', chain);
	}

	/**
	 * The loaded `.gitignore` files that apply to names in `dirRel` (its own and its ancestors'),
	 * root first: from the cache, else from the nearest cached ancestor's down.
	 */
	private chainIn(folder: WorkspaceFolder, dirRel: string): readonly AppliedRules[] {
		const loaded = this.gitignores.get(folder.path);
		if (!loaded) {
			return [];
		}
		let cache = this.chains.get(folder.path);
		if (!cache || cache.size > MAX_CACHED_CHAINS) {
			cache = new Map();
			this.chains.set(folder.path, cache);
		}
		const uncached: string[] = [];
		let chain: readonly AppliedRules[] = [];
		for (let dir: string | undefined = dirRel; dir !== undefined; dir = dir === '' ? undefined : dir.slice(0, Math.max(0, dir.lastIndexOf('/')))) {
			const cached = cache.get(dir);
			if (cached) {
				chain = cached;
				break;
			}
			uncached.push(dir);
		}
		for (let i = uncached.length - 1; i >= 0; i--) {
			const dir = uncached[i];
			const own = loaded.get(dir);
			chain = own ? [...chain, { rules: own, start: dir === '' ? 0 : dir.length + 1 }] : chain;
			cache.set(dir, chain);
		}
		return chain;
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
			// Chains hold their ancestors, so one for a directory not cached has no descendants cached either.
			if (this.chains.get(folder.path)?.has(dirRel)) {
				this.chains.delete(folder.path);
			}
		}
	}

	/**
	 * Reads and caches the `.gitignore` of a directory the index judges names in without having
	 * read it (and those of its ancestors it has not read), root first; undefined when there is
	 * nothing to read, as for nearly every call. A deleted directory is forgotten (`forgetGone`),
	 * and when it comes back the watcher may report files in it before it, or without it: they
	 * are then judged by its `.gitignore` as it is now, not by none (nor by the one it had). An
	 * ignored directory is never read, nor anything below it: events under `node_modules/` cost
	 * a path check and no read.
	 */
	readMissing(folder: WorkspaceFolder, dirRel: string): Promise<void> | undefined {
		const loaded = this.gitignores.get(folder.path);
		if (!this.settings.respectGitignore || loaded?.has(dirRel)) {
			return undefined;
		}
		const dirs = [''];
		for (let i = dirRel.indexOf('/'); i >= 0; i = dirRel.indexOf('/', i + 1)) {
			dirs.push(dirRel.slice(0, i));
		}
		if (dirRel !== '') {
			dirs.push(dirRel);
		}
		// Decided without a promise when the first directory not read is ignored (`node_modules`).
		let first = 0;
		while (loaded?.has(dirs[first])) {
			first++;
		}
		return first > 0 && this.isIgnored(folder, dirs[first], true) ? undefined : this.readDown(folder, dirs.slice(first));
	}

	/** Reads the `.gitignore` files of `dirs` (each the parent of the next) not read yet, down to the first ignored one. */
	private async readDown(folder: WorkspaceFolder, dirs: readonly string[]): Promise<void> {
		for (const dir of dirs) {
			if (!this.gitignores.get(folder.path)?.has(dir)) {
				// Its ancestors are read by now, so this is the full check.
				if (dir !== '' && this.isIgnored(folder, dir, true)) {
					return;
				}
				await this.loadGitignore(folder, dir, true);
			}
		}
	}

	/**
	 * Forgets the `.gitignore` files and chains of directories that are gone from disk (reported
	 * by the watcher, not there when looked at), and of everything below them: an entry was kept
	 * per directory ever walked (a larger one with a `.gitignore` of its own), so
	 * tools that keep making uniquely named directories (hashed build output, test runners' temp
	 * directories) grew it for the window's life. A directory still on disk keeps its entry even
	 * when the index lists nothing in it (`dist/` with a `.gitignore` of `*`): the events under it
	 * are judged by it, and reading it again for each would cost a read per event. A folder root
	 * is kept, as the index keeps its directory.
	 *
	 * Both maps hold every ancestor of what they hold (directories are read from the root down:
	 * the walk reads a directory before its subdirectories, `readMissing` reads the parent of one
	 * it meets first; a chain is its parent's plus one), so a gone directory that neither holds
	 * has nothing below it in them (see `deleteSubtrees`).
	 */
	async forgetGone(gone: Iterable<Located>, pause: () => Promise<void> | undefined): Promise<void> {
		const byFolder = new Map<string, string[]>();
		for (const { folder, rel } of gone) {
			if (rel !== '') {
				const rels = byFolder.get(folder.path) ?? [];
				byFolder.set(folder.path, rels);
				rels.push(rel);
			}
		}
		for (const [folderPath, rels] of byFolder) {
			const maps = [this.gitignores.get(folderPath), this.chains.get(folderPath)].filter(map => map !== undefined);
			await deleteSubtrees(maps, rels, pause);
		}
	}

	/** Directories whose `.gitignore` (or its absence) is cached, in every folder: for tests and diagnostics. */
	get cachedDirectories(): number {
		let count = 0;
		for (const loaded of this.gitignores.values()) {
			count += loaded.size;
		}
		return count;
	}

	/** Directories whose chain of `.gitignore` files is cached, in every folder: for tests and diagnostics. */
	get cachedChains(): number {
		let count = 0;
		for (const chains of this.chains.values()) {
			count += chains.size;
		}
		return count;
	}

	private async readGitignore(dirPath: string): Promise<Ignore | null> {
		return parseGitignore(await this.readGitignoreText(dirPath));
	}

	private readGitignoreText(dirPath: string): Promise<string | null> {
		return readRuleFileText(this.reader, path.join(dirPath, '.gitignore'));
	}
}

/**
 * Whether git ignores a path as the rules outside the folder, then each `.gitignore` from the
 * folder's root down to the path's parent (`chain`), decide in turn: deeper ones override
 * shallower ones, as in git.
 */
function gitignored(outside: readonly RuleFile[], chain: readonly AppliedRules[], rel: string, isDirectory: boolean): boolean {
	let ignored = false;
	for (const { rules, prefix } of outside) {
		ignored = ignoredAfter(ignored, rules.test(isDirectory ? `${prefix}${rel}/` : prefix + rel));
	}
	for (const { rules, start } of chain) {
		const sub = rel.slice(start);
		ignored = ignoredAfter(ignored, rules.test(isDirectory ? `${sub}/` : sub));
	}
	return ignored;
}

/**
 * Whether a name in one directory is hidden; the directory itself is served (`checkerFor`).
 * An object, not a closure per directory: its method is one call target for the optimizer
 * however many directories the walk reads.
 */
export class NameCheck {
	constructor(
		private readonly secrets: SecretMatcher,
		private readonly excluded: ExcludeGlobs | undefined,
		/** The directory's relative path with its `/` ('' at a folder root). */
		private readonly relPrefix: string,
		private readonly chain: readonly RuleFile[],
	) {}

	/** Per name of the walk: the relative path is built only for what needs it. */
	isIgnored(name: string, isDirectory: boolean): boolean {
		// Lower-cased once for the secrets and every rule file's name globs.
		const lower = name.toLowerCase();
		if (this.secrets.matchesIn(this.relPrefix, name, isDirectory, lower) || (this.excluded !== undefined && this.excluded.matchesIn(this.relPrefix, name))) {
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
