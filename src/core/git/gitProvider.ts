import * as path from 'node:path';
import { Emitter } from '../../common/event';
import { Disposable, DisposableStore } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { ByteLru } from '../byteLru';
import { formatBytes, InvalidParams, ResourceNotFound } from '../errors';
import { FileSettings, SettingsSource } from '../ports';
import { JSON_MIME } from '../mime';
import { Completion, MAX_COMPLETIONS, ResourceChange, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from '../resource';
import { decodePath, encodePath, ownIfDisposable, WorkspaceScope } from '../workspaceScope';
import { filterDiff } from './diffFilter';
import { GitCommit, GitFileChange, GitRepository, GitSource, GitText } from './ports';

export const GIT_DIFF_TEMPLATE = 'git://{repo}/diff/{+path}';
export const GIT_SHOW_TEMPLATE = 'git://{repo}/show/{ref}';
/** How many commits `/log` shows. */
export const GIT_LOG_LIMIT = 50;
/** Most changed paths `/status` lists per group. */
export const GIT_STATUS_LIMIT = 1000;
const DIFF_MIME = 'text/x-diff';
/** Template URIs (per-path diffs, commits) read or subscribed lately, to notify on change. */
const MAX_WATCHED = 500;
/** A ref as a client may name it: no options, no ranges, no `ref:path`. */
const REF_PATTERN = /^(?![-.])(?!.*\.\.)[A-Za-z0-9._/@{}~^+-]{1,200}$/;
/** A commit named by its whole id (SHA-1 or SHA-256), which no branch move can change. */
const FULL_COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
/** Bytes of answers kept between changes; least recently read go first. */
export const GIT_CACHE_BYTES = 32 * 1024 * 1024;

interface CacheRecord {
	/** Kept across working-tree changes (dropped when history moves). */
	readonly history: boolean;
	readonly value: Promise<ResourceContent[]>;
}

interface RepoEntry {
	readonly name: string;
	readonly repo: GitRepository;
}

type Route =
	| { kind: 'status' | 'diff' | 'staged' | 'log' | 'branches' }
	| { kind: 'diffPath'; path: string }
	| { kind: 'show'; ref: string };

const FIXED: readonly { suffix: string; kind: 'status' | 'diff' | 'staged' | 'log' | 'branches'; title: string; description: string; mimeType: string }[] = [
	{ suffix: '/branches', kind: 'branches', title: 'branches', description: 'Local and remote branches and tags, with upstream and ahead/behind.', mimeType: JSON_MIME },
	{ suffix: '/diff', kind: 'diff', title: 'working tree diff', description: 'Unstaged changes (working tree against the index) as a unified diff.', mimeType: DIFF_MIME },
	{ suffix: '/diff/staged', kind: 'staged', title: 'staged diff', description: 'Staged changes (index against HEAD) as a unified diff.', mimeType: DIFF_MIME },
	{ suffix: '/log', kind: 'log', title: 'log', description: `The last ${GIT_LOG_LIMIT} commits of HEAD.`, mimeType: JSON_MIME },
	{ suffix: '/status', kind: 'status', title: 'status', description: 'Branch, upstream, and staged, unstaged, untracked and conflicted paths.', mimeType: JSON_MIME },
];

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
	private readonly cache: ByteLru<CacheRecord>;
	private readonly watched = new Set<string>();

	constructor(private readonly ports: GitProviderPorts) {
		super();
		this.cache = new ByteLru(ports.cacheBytes ?? GIT_CACHE_BYTES);
		ownIfDisposable(ports.source, d => this._register(d));
		this._register(ports.scope);
		this._register(ports.source.onDidChangeRepositories(() => this.refreshRepositories()));
		this._register(ports.scope.onDidChange(() => this.invalidateAll()));
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
		return [
			{
				uriTemplate: GIT_DIFF_TEMPLATE, name: 'git-diff-of-path', title: 'Uncommitted changes of one path',
				description: 'Unified diff of one path (relative to the repository) against HEAD, staged and unstaged together.',
				mimeType: DIFF_MIME,
			},
			{
				uriTemplate: GIT_SHOW_TEMPLATE, name: 'git-commit', title: 'A commit and its patch',
				description: 'A commit by hash, branch or tag: author, date, message and the patch against its first parent.',
				mimeType: DIFF_MIME,
			},
		];
	}

	async read(uri: string): Promise<ResourceContent[]> {
		await this.ready();
		const { entry, route } = this.resolve(uri);
		if (route.kind === 'diffPath' || route.kind === 'show') {
			this.watch(uri);
		}
		if (route.kind === 'show') {
			// A full commit id never moves: a cached answer needs no git call. Any other ref (a
			// branch or tag may move) is resolved on every read.
			const showKey = (hash: string) => `git://${encodePath(entry.name)}/show/${hash}`;
			if (FULL_COMMIT_ID.test(route.ref)) {
				const hit = this.cache.get(showKey(route.ref.toLowerCase()));
				if (hit) {
					return (await hit.value).map(c => ({ ...c, uri }));
				}
			}
			const commit = await entry.repo.commit(route.ref);
			if (!commit) {
				throw new ResourceNotFound(uri);
			}
			const canonical = showKey(commit.hash);
			const contents = await this.cached(canonical, false, () => this.showCommit(canonical, entry, commit));
			return contents.map(c => ({ ...c, uri }));
		}
		// Only the log is kept across working-tree changes: refs can move without HEAD moving
		// (a branch made in a terminal), which the VS Code host cannot tell apart cheaply.
		return this.cached(uri, route.kind === 'log', () => this.compute(uri, entry, route));
	}

	/** Bytes the answer cache holds (diagnostics and tests). */
	get cacheBytes(): number {
		return this.cache.bytes;
	}

	private cached(key: string, history: boolean, compute: () => Promise<ResourceContent[]>): Promise<ResourceContent[]> {
		const hit = this.cache.get(key);
		if (hit) {
			return hit.value;
		}
		const record: CacheRecord = { history, value: compute() };
		// Pending, it is counted by its key; once answered, by what it holds.
		this.cache.set(key, record, key.length * 2);
		record.value.then(contents => {
			if (this.cache.peek(key) === record) {
				this.cache.set(key, record, key.length * 2 + contentBytes(contents));
			}
		}, () => {
			if (this.cache.peek(key) === record) {
				this.cache.delete(key);
			}
		});
		return record.value;
	}

	async checkSubscribable(uri: string): Promise<void> {
		await this.ready();
		const { entry, route } = this.resolve(uri);
		if (route.kind === 'diffPath' && !(await this.isServed(entry, route.path))) {
			throw new ResourceNotFound(uri);
		}
		if (route.kind === 'diffPath' || route.kind === 'show') {
			this.watch(uri);
		}
	}

	async complete(uriTemplate: string, argument: string, value: string, context: Readonly<Record<string, string>>): Promise<Completion | undefined> {
		if (uriTemplate !== GIT_DIFF_TEMPLATE && uriTemplate !== GIT_SHOW_TEMPLATE) {
			return undefined;
		}
		await this.ready();
		if (argument === 'repo') {
			return completion(this.repos.map(r => r.name), value);
		}
		const entry = this.repos.find(r => r.name === context.repo) ?? (this.repos.length === 1 ? this.repos[0] : undefined);
		if (uriTemplate === GIT_DIFF_TEMPLATE && argument === 'path') {
			if (!entry) {
				return { values: [], total: 0, hasMore: false };
			}
			const status = await entry.repo.status();
			const paths = new Set<string>();
			for (const change of [...status.staged, ...status.unstaged, ...status.conflicts]) {
				paths.add(change.path);
			}
			const served: string[] = [];
			for (const p of [...paths].sort()) {
				if (await this.isServed(entry, p)) {
					served.push(p);
				}
			}
			return completion(served, value.replace(/^\/+/, ''));
		}
		if (uriTemplate === GIT_SHOW_TEMPLATE && argument === 'ref') {
			if (!entry) {
				return { values: [], total: 0, hasMore: false };
			}
			const [refs, commits] = await Promise.all([entry.repo.refs(), entry.repo.log(GIT_LOG_LIMIT).catch(() => [])]);
			const names = ['HEAD', ...refs.map(r => r.name), ...commits.map(c => c.hash.slice(0, 12))];
			return completion([...new Set(names)], value);
		}
		return undefined;
	}

	private resolve(uri: string): { entry: RepoEntry; route: Route } {
		const match = /^git:\/\/([^/?#]+)(\/[^?#]*)$/.exec(uri);
		const name = match ? decodePath(match[1]) : undefined;
		const entry = name === undefined ? undefined : this.repos.find(r => r.name === name);
		if (!match || !entry) {
			throw new ResourceNotFound(uri);
		}
		const rest = match[2];
		const fixed = FIXED.find(f => f.suffix === rest);
		if (fixed) {
			return { entry, route: { kind: fixed.kind } };
		}
		if (rest.startsWith('/diff/')) {
			const rel = decodePath(rest.slice('/diff/'.length));
			if (rel === undefined || rel.split('/').some(s => s === '' || s === '.' || s === '..' || s.includes('\0') || s.includes('\\'))) {
				throw new ResourceNotFound(uri);
			}
			return { entry, route: { kind: 'diffPath', path: rel } };
		}
		if (rest.startsWith('/show/')) {
			const ref = decodePath(rest.slice('/show/'.length));
			if (ref === undefined || !REF_PATTERN.test(ref)) {
				throw new InvalidParams(`Not a usable ref for ${GIT_SHOW_TEMPLATE}: use a commit hash, branch or tag name`);
			}
			return { entry, route: { kind: 'show', ref } };
		}
		throw new ResourceNotFound(uri);
	}

	private async compute(uri: string, entry: RepoEntry, route: Exclude<Route, { kind: 'show' }>): Promise<ResourceContent[]> {
		const { repo } = entry;
		const maxBytes = this.ports.settings.get().maxFileSize;
		const json = (body: unknown): ResourceContent[] => [{ uri, mimeType: JSON_MIME, text: JSON.stringify(body, null, 2) }];
		switch (route.kind) {
			case 'status': {
				const status = await repo.status();
				let hidden = 0;
				const keep = async (changes: readonly GitFileChange[]) => {
					const out: GitFileChange[] = [];
					for (const change of changes) {
						const ok = await this.isServed(entry, change.path)
							&& (change.originalPath === undefined || await this.isServed(entry, change.originalPath));
						if (!ok) {
							hidden++;
						} else if (out.length < GIT_STATUS_LIMIT) {
							out.push(change);
						}
					}
					return out;
				};
				const staged = await keep(status.staged);
				const unstaged = await keep(status.unstaged);
				const untracked = await keep(status.untracked);
				const conflicts = await keep(status.conflicts);
				return json({
					repo: entry.name,
					branch: status.branch ?? null,
					detached: status.branch === undefined && status.commit !== undefined,
					commit: status.commit ?? null,
					upstream: status.upstream ?? null,
					ahead: status.ahead ?? 0,
					behind: status.behind ?? 0,
					staged, unstaged, untracked, conflicts,
					...(hidden > 0 ? { hidden, hiddenReason: 'paths not served (secrets, ignored or outside the workspace) are left out' } : {}),
				});
			}
			case 'log': {
				const commits = await repo.log(GIT_LOG_LIMIT);
				return json({ repo: entry.name, limit: GIT_LOG_LIMIT, commits: commits.map(commitJson) });
			}
			case 'branches': {
				const refs = await repo.refs();
				const status = await repo.status().catch(() => undefined);
				return json({
					repo: entry.name,
					current: status?.branch ?? null,
					branches: refs.filter(r => r.kind === 'branch'),
					remotes: refs.filter(r => r.kind === 'remote'),
					tags: refs.filter(r => r.kind === 'tag'),
				});
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

	private async renderDiff(entry: RepoEntry, result: GitText, maxBytes: number, header: string): Promise<string> {
		const { text, hidden } = await filterDiff(result.text, p => this.isServed(entry, p));
		let out = header + text;
		const notes: string[] = [];
		if (hidden > 0) {
			notes.push(`${hidden} file${hidden === 1 ? '' : 's'} not shown: not served (secrets, ignored or outside the workspace)`);
		}
		if (result.truncated || Buffer.byteLength(out) > maxBytes) {
			out = out.slice(0, maxBytes);
			notes.push(`diff truncated at ${formatBytes(maxBytes)} (the ${this.ports.settings.get().maxFileSizeSetting} limit); read git://${encodePath(entry.name)}/diff/{path} per file`);
		}
		if (notes.length > 0) {
			out += (out === '' || out.endsWith('\n') ? '' : '\n') + notes.map(n => `# ${n}\n`).join('');
		}
		return out;
	}

	/** A repository path may be mentioned when the files provider would serve it. */
	private isServed(entry: RepoEntry, repoPath: string): Promise<boolean> {
		if (repoPath.includes('\0') || repoPath.split('/').some(s => s === '..')) {
			return Promise.resolve(false);
		}
		return this.ports.scope.isServed(path.join(entry.repo.root, ...repoPath.replace(/\/$/, '').split('/')));
	}

	private watch(uri: string): void {
		this.watched.delete(uri);
		this.watched.add(uri);
		if (this.watched.size > MAX_WATCHED) {
			this.watched.delete(this.watched.values().next().value as string);
		}
	}

	private refreshRepositories(): void {
		const repos = [...this.ports.source.repositories()].sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0));
		const taken = new Set<string>();
		const next: RepoEntry[] = repos.map(repo => {
			const base = path.basename(repo.root) || 'repo';
			let name = base;
			for (let n = 2; taken.has(name); n++) {
				name = `${base}-${n}`;
			}
			taken.add(name);
			return { name, repo };
		});
		const same = next.length === this.repos.length && next.every((e, i) => e.name === this.repos[i].name && e.repo === this.repos[i].repo);
		if (same) {
			return;
		}
		const before = new Set(this.sorted.map(e => e.uri));
		this.repos = next;
		this.repoListeners.clear();
		for (const entry of next) {
			this.repoListeners.add(entry.repo.onDidChange(change => this.onRepositoryChanged(entry, change.history)));
		}
		this.sorted = next.flatMap(entry => FIXED.map(f => ({
			uri: `git://${encodePath(entry.name)}${f.suffix}`,
			name: `${entry.name} ${f.title}`,
			title: `Git ${f.title} (${entry.name})`,
			description: f.description,
			mimeType: f.mimeType,
			annotations: { priority: f.kind === 'status' || f.kind === 'diff' ? 0.6 : 0.4, audience: ['assistant' as const] },
		}))).sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
		this.cache.clear();
		const after = new Set(this.sorted.map(e => e.uri));
		const updated = [...before].filter(u => !after.has(u)).concat([...after].filter(u => !before.has(u)));
		this.changeEmitter.fire({ updated, listChanged: true });
	}

	private onRepositoryChanged(entry: RepoEntry, history: boolean): void {
		const prefix = `git://${encodePath(entry.name)}/`;
		const updated = [`${prefix}status`, `${prefix}diff`, `${prefix}diff/staged`];
		if (history) {
			updated.push(`${prefix}log`, `${prefix}branches`);
		}
		for (const uri of this.watched) {
			if (uri.startsWith(`${prefix}diff/`) || (history && uri.startsWith(`${prefix}show/`))) {
				updated.push(uri);
			}
		}
		this.cache.deleteWhere((uri, record) => uri.startsWith(prefix) && (history || !record.history));
		this.changeEmitter.fire({ updated, listChanged: false });
	}

	private invalidateAll(): void {
		this.cache.clear();
		const updated = this.sorted.map(e => e.uri).concat([...this.watched]);
		if (updated.length > 0) {
			this.changeEmitter.fire({ updated, listChanged: false });
		}
	}
}

/** What cached contents hold, counted as UTF-16 code units (how V8 may store them). */
function contentBytes(contents: readonly ResourceContent[]): number {
	let bytes = 0;
	for (const c of contents) {
		bytes += (c.uri.length + ('text' in c ? c.text.length : c.blob.length)) * 2;
	}
	return bytes;
}

function completion(candidates: readonly string[], value: string): Completion {
	const lower = value.toLowerCase();
	const matches = candidates.filter(c => c.startsWith(value))
		.concat(value ? candidates.filter(c => !c.startsWith(value) && c.toLowerCase().includes(lower)) : []);
	return { values: matches.slice(0, MAX_COMPLETIONS), total: matches.length, hasMore: matches.length > MAX_COMPLETIONS };
}

function commitJson(c: GitCommit): Record<string, unknown> {
	const [subject, ...body] = c.message.split('\n');
	return {
		hash: c.hash,
		parents: c.parents,
		author: c.authorName ?? null,
		email: c.authorEmail ?? null,
		date: c.authorDate ?? null,
		subject,
		...(body.join('\n').trim() ? { body: body.join('\n').trim() } : {}),
	};
}

function commitHeader(c: GitCommit): string {
	const lines = [`commit ${c.hash}`];
	if (c.parents.length > 1) {
		lines.push(`Merge: ${c.parents.map(p => p.slice(0, 12)).join(' ')}`);
	}
	if (c.authorName !== undefined) {
		lines.push(`Author: ${c.authorName}${c.authorEmail ? ` <${c.authorEmail}>` : ''}`);
	}
	if (c.authorDate !== undefined) {
		lines.push(`Date:   ${c.authorDate}`);
	}
	lines.push('', ...c.message.replace(/\n+$/, '').split('\n').map(l => `    ${l}`), '', '');
	return lines.join('\n');
}
