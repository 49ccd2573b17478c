import * as path from 'node:path';
import { Emitter } from '../../common/event';
import { Disposable, DisposableStore, IDisposable, nothingToDispose } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { ResourceNotFound } from '../errors';
import { JSON_MIME } from '../mime';
import { FileSettings, SettingsSource } from '../ports';
import { Completion, ResourceChange, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from '../resource';
import { HeldUris } from '../heldUris';
import { unusedName } from '../unusedName';
import { ownIfDisposable, WorkspaceScope } from '../workspaceScope';
import { GIT_CACHE_BYTES, GitAnswerCache } from './gitAnswerCache';
import { changedBy } from './gitChangeScope';
import { completeGitTemplate, RepoEntry } from './gitCompletion';
import { branchesAnswer, commitHeader, logAnswer, renderDiff, statusAnswer } from './gitAnswers';
import {
	DIFF_MIME, GIT_DIFF_TEMPLATE, GIT_LOG_LIMIT, GIT_SHOW_TEMPLATE, GIT_TEMPLATES, gitRoute, GitRoute, repositoryEntries, repositoryPrefix, splitGitUri,
} from './gitUris';
import { GitCommit, GitRepositoryChange, GitSource, GitText } from './ports';

/** A commit named by its whole id (SHA-1 or SHA-256), which no branch move can change. */
const FULL_COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

export interface GitProviderPorts {
	readonly source: GitSource;
	readonly scope: WorkspaceScope;
	readonly settings: SettingsSource<FileSettings>;
	readonly log: Logger;
	/** Bound of the answer cache in bytes; {@link GIT_CACHE_BYTES} by default. */
	readonly cacheBytes?: number;
}

/**
 * Each repository's status, diffs, log and branches as resources. Output is computed on read
 * and cached until the repository changes; paths the files provider would refuse (secrets,
 * ignored, outside the workspace) are left out of every answer.
 */
export class GitProvider extends Disposable implements ResourceProvider {
	readonly id = 'git';
	// VS Code's git extension can take seconds to find repositories in a large workspace; the
	// first page should not wait for that, but should for the usual few hundred milliseconds.
	readonly readyWaitMs = 3000;
	readonly summary = 'git state (git://{repo}/status, /diff, /diff/staged, /log, /branches, /diff/{path}, /show/{ref})';
	private readonly changeEmitter = this._register(new Emitter<ResourceChange>());
	readonly onDidChange = this.changeEmitter.event;
	private repos: RepoEntry[] = [];
	private sorted: ResourceEntry[] = [];
	private readonly repoListeners = this._register(new DisposableStore());
	/**
	 * Cached answers by URI (a commit by its canonical `show/<hash>` URI, so every spelling of
	 * it shares one entry); dropped when their repository changes, bounded in bytes.
	 */
	private readonly cache: GitAnswerCache;
	/**
	 * Subscribed URIs that no listed entry names (per-path diffs, commits, a repository's name
	 * spelled otherwise), while subscribed: changes name them one by one.
	 */
	private readonly watched = new HeldUris();

	constructor(private readonly ports: GitProviderPorts) {
		super();
		this.cache = new GitAnswerCache(ports.cacheBytes ?? GIT_CACHE_BYTES);
		ownIfDisposable(ports.source, d => this._register(d));
		this._register(ports.scope);
		this._register(ports.source.onDidChangeRepositories(() => {
			this.refreshRepositories();
			// A folder reached through a link is known by its real path (git's) only once loaded.
			void ports.scope.loadRealFolders().then(() => this.refreshRepositories());
		}));
		this._register(ports.scope.onDidChange(() => {
			this.refreshRepositories();
			this.invalidateAll();
		}));
		this._register(ports.settings.onDidChange(() => this.invalidateAll()));
		this.refreshRepositories();
	}

	async ready(): Promise<void> {
		await Promise.all([this.ports.source.ready(), this.ports.scope.loadRealFolders()]);
		this.refreshRepositories();
	}

	handles(uri: string): boolean {
		return /^git:/i.test(uri);
	}

	list(): readonly ResourceEntry[] {
		return this.sorted;
	}

	templates(): readonly TemplateEntry[] {
		return GIT_TEMPLATES;
	}

	async read(uri: string): Promise<ResourceContent[]> {
		await this.ready();
		const { entry, route, rest } = this.resolve(uri);
		if (route.kind === 'show') {
			// A full commit id never moves: a cached answer needs no git call. Any other ref (a
			// branch or tag may move) is resolved on every read.
			const showKey = (hash: string) => `${repositoryPrefix(entry.name)}show/${hash}`;
			if (FULL_COMMIT_ID.test(route.ref)) {
				const hit = this.cache.get(showKey(route.ref.toLowerCase()));
				if (hit) {
					return (await hit).map(c => ({ ...c, uri }));
				}
			}
			const commit = await entry.repo.commit(route.ref);
			if (!commit) {
				throw new ResourceNotFound(uri);
			}
			const canonical = showKey(commit.hash);
			const contents = await this.cache.getOrCompute(canonical, () => this.showCommit(canonical, entry, commit));
			return contents.map(c => ({ ...c, uri }));
		}
		// Kept under the repository's own spelling (`git://%61pp/status` is `git://app/status`),
		// which a change drops: another spelling's answer would stay stale.
		const contents = await this.cache.getOrCompute(repositoryPrefix(entry.name) + rest, () => this.compute(uri, entry, route));
		return contents.map(c => ({ ...c, uri }));
	}

	/** Bytes the answer cache holds (diagnostics and tests). */
	get cacheBytes(): number {
		return this.cache.bytes;
	}

	async subscribe(uri: string): Promise<IDisposable> {
		await this.ready();
		const { entry, route, rest } = this.resolve(uri);
		if (route.kind === 'diffPath' && !(await this.isServed(entry, route.path))) {
			throw new ResourceNotFound(uri);
		}
		// Template URIs, and a listed one spelled otherwise (`git://%61pp/status`): changes name
		// the listed spelling only.
		if (route.kind === 'diffPath' || route.kind === 'show' || uri !== repositoryPrefix(entry.name) + rest) {
			return this.watched.hold(uri);
		}
		return nothingToDispose;
	}

	/** URIs held in `watched` for subscriptions now (tests and diagnostics). */
	get watchedCount(): number {
		return this.watched.size;
	}

	async complete(uriTemplate: string, argument: string, value: string, context: Readonly<Record<string, string>>): Promise<Completion | undefined> {
		if (uriTemplate !== GIT_DIFF_TEMPLATE && uriTemplate !== GIT_SHOW_TEMPLATE) {
			return undefined;
		}
		await this.ready();
		return completeGitTemplate(this.repos, uriTemplate, argument, value, context, (entry, repoPath) => this.isServed(entry, repoPath));
	}

	/** `rest` is the URI after `git://{repo}/`. */
	private resolve(uri: string): { entry: RepoEntry; route: GitRoute; rest: string } {
		const parts = splitGitUri(uri);
		const entry = parts && this.repos.find(r => r.name === parts.repoName);
		if (!parts || !entry) {
			throw new ResourceNotFound(uri);
		}
		return { entry, route: gitRoute(uri, parts.rest), rest: parts.rest.slice(1) };
	}

	private async compute(uri: string, entry: RepoEntry, route: Exclude<GitRoute, { kind: 'show' }>): Promise<ResourceContent[]> {
		const { repo } = entry;
		const maxBytes = this.ports.settings.get().maxFileSize;
		const json = (body: unknown): ResourceContent[] => [{ uri, mimeType: JSON_MIME, text: JSON.stringify(body, null, 2) }];
		const isServed = (repoPath: string) => this.isServed(entry, repoPath);
		switch (route.kind) {
			case 'status':
				return json(await statusAnswer(entry.name, await repo.status(), isServed));
			case 'log':
				return json(logAnswer(entry.name, await repo.log(GIT_LOG_LIMIT)));
			case 'branches': {
				const refs = await repo.refs();
				return json(branchesAnswer(entry.name, refs, await repo.status().catch(() => undefined)));
			}
			case 'diff':
			case 'staged': {
				const result = await repo.diff(route.kind === 'staged', maxBytes);
				return [{ uri, mimeType: DIFF_MIME, text: await this.renderDiff(entry, result, maxBytes, '') }];
			}
			case 'diffPath': {
				if (!(await this.isServed(entry, route.path))) {
					throw new ResourceNotFound(uri);
				}
				const result = await repo.diffPath(route.path, maxBytes);
				return [{ uri, mimeType: DIFF_MIME, text: await this.renderDiff(entry, result, maxBytes, '') }];
			}
		}
	}

	private async showCommit(uri: string, entry: RepoEntry, commit: GitCommit): Promise<ResourceContent[]> {
		const maxBytes = this.ports.settings.get().maxFileSize;
		const patch = await entry.repo.commitPatch(commit, maxBytes);
		return [{ uri, mimeType: DIFF_MIME, text: await this.renderDiff(entry, patch, maxBytes, commitHeader(commit)) }];
	}

	private renderDiff(entry: RepoEntry, result: GitText, maxBytes: number, header: string): Promise<string> {
		return renderDiff(result, header, {
			maxBytes, maxBytesSetting: this.ports.settings.get().maxFileSizeSetting, perFileTemplate: `${repositoryPrefix(entry.name)}diff/{path}`,
		}, repoPath => this.isServed(entry, repoPath));
	}

	/**
	 * A repository path may be mentioned when the files provider serves it as a file, or would
	 * were it there (a deletion). Git names a new untracked directory (a nested repository) as
	 * one `dir/` entry: a directory is no resource, whatever its name.
	 */
	private isServed(entry: RepoEntry, repoPath: string): Promise<boolean> {
		if (repoPath.endsWith('/') || repoPath.includes('\0') || repoPath.split('/').some(s => s === '..')) {
			return Promise.resolve(false);
		}
		return this.ports.scope.isServedFile(path.join(entry.repo.root, ...repoPath.split('/')));
	}

	/**
	 * Whether a watched URI of `entry` shows something `change` can alter; a per-path diff only
	 * while it names a file the rule serves (as loaded): one whose file became ignored or secret
	 * since it was read or subscribed is not notified again.
	 */
	private watchedChangedBy(entry: RepoEntry, uri: string, change: GitRepositoryChange): boolean {
		const parts = splitGitUri(uri);
		if (parts?.repoName !== entry.name || !changedBy(change, parts.rest.slice(1))) {
			return false;
		}
		try {
			const route = gitRoute(uri, parts.rest);
			return route.kind !== 'diffPath' || this.ports.scope.locate(path.join(entry.repo.root, ...route.path.split('/'))) !== undefined;
		} catch {
			return false;
		}
	}

	/**
	 * Names each repository after its folder, made unique in the workspace folders' order (then
	 * by path), as the folders' own names are: with two folders named `app`, `git://app-2/` is the
	 * repository of the folder whose files are named `app-2/…`.
	 */
	private refreshRepositories(): void {
		if (this.isDisposed) {
			return;
		}
		const { scope } = this.ports;
		const repos = [...this.ports.source.repositories()]
			.map(repo => ({ repo, position: scope.folderPosition(repo.root) }))
			.sort((a, b) => a.position - b.position || (a.repo.root < b.repo.root ? -1 : a.repo.root > b.repo.root ? 1 : 0))
			.map(r => r.repo);
		const taken = new Set<string>();
		const next: RepoEntry[] = repos.map(repo => {
			return { name: unusedName(path.basename(repo.root) || 'repo', taken), repo };
		});
		const same = next.length === this.repos.length && next.every((e, i) => e.name === this.repos[i].name && e.repo === this.repos[i].repo);
		if (same) {
			return;
		}
		const before = new Set(this.sorted.map(e => e.uri));
		this.repos = next;
		this.repoListeners.clear();
		for (const entry of next) {
			this.repoListeners.add(entry.repo.onDidChange(change => this.onRepositoryChanged(entry, change)));
		}
		this.sorted = next.flatMap(entry => repositoryEntries(entry.name)).sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
		this.cache.clear();
		const after = new Set(this.sorted.map(e => e.uri));
		const updated = [...before].filter(u => !after.has(u)).concat([...after].filter(u => !before.has(u)));
		this.changeEmitter.fire({ updated, listChanged: true });
	}

	/** Notifies and forgets only the answers that `change` can make differ (see {@link changedBy}). */
	private onRepositoryChanged(entry: RepoEntry, change: GitRepositoryChange): void {
		const prefix = repositoryPrefix(entry.name);
		const affected = (uri: string) => uri.startsWith(prefix) && changedBy(change, uri.slice(prefix.length));
		const updated = this.sorted.map(e => e.uri).filter(affected);
		for (const uri of this.watched) {
			if (this.watchedChangedBy(entry, uri, change)) {
				updated.push(uri);
			}
		}
		this.cache.dropWhere(affected);
		if (updated.length > 0) {
			this.changeEmitter.fire({ updated, listChanged: false });
		}
	}

	private invalidateAll(): void {
		this.cache.clear();
		const updated = this.sorted.map(e => e.uri).concat([...this.watched]);
		if (updated.length > 0) {
			this.changeEmitter.fire({ updated, listChanged: false });
		}
	}
}
