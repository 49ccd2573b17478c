import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { Emitter, Event } from '../common/event';
import { Disposable, toDisposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import {
	GitCommit, GitFileChange, GitFileStatus, GitRef, GitRepository, GitRepositoryChange, GitSource, GitStatus, GitText,
} from '../core/git/ports';
import { FileChangeEvent, WorkspaceFoldersSource } from '../core/ports';
import { relativeInside } from '../core/uriGuard';

const DEFAULT_TIMEOUT_MS = 15_000;
/** Budget for outputs that are parsed, not shown (status, log, refs). */
const PARSED_OUTPUT_LIMIT = 16 * 1024 * 1024;
/** Quiet time before a burst of `.git` or file events becomes one change. */
const CHANGE_DEBOUNCE_MS = 40;
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export class GitCommandError extends Error {
	constructor(readonly args: readonly string[], readonly exitCode: number | string | undefined, readonly stderr: string) {
		super(`git ${args[0] ?? ''} failed (${exitCode ?? 'no exit code'}): ${stderr.trim().split('\n')[0] ?? ''}`);
		this.name = 'GitCommandError';
	}
}

/**
 * Runs the git binary: never a shell, never optional locks (a status must not rewrite the
 * index the watcher watches), bounded output and time, no pager, colour or prompts.
 */
export class GitCli {
	constructor(readonly gitPath = 'git', private readonly timeoutMs = DEFAULT_TIMEOUT_MS) {}

	run(cwd: string, args: readonly string[], maxBytes = PARSED_OUTPUT_LIMIT): Promise<{ stdout: string; truncated: boolean }> {
		const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' };
		// Inherited repository overrides (a git hook's environment) would point every command elsewhere.
		for (const key of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_NAMESPACE']) {
			delete env[key];
		}
		const fullArgs = ['--no-optional-locks', '-c', 'core.quotePath=false', '-c', 'color.ui=false', '-c', 'log.showSignature=false', ...args];
		return new Promise((resolve, reject) => {
			execFile(this.gitPath, fullArgs, {
				cwd, env, encoding: 'buffer', maxBuffer: maxBytes, timeout: this.timeoutMs, killSignal: 'SIGKILL', windowsHide: true,
			}, (err, stdout, stderr) => {
				const out = Buffer.isBuffer(stdout) ? stdout : Buffer.from(stdout ?? '');
				if (err && (err as NodeJS.ErrnoException).code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
					resolve({ stdout: out.subarray(0, maxBytes).toString('utf8'), truncated: true });
				} else if (err) {
					const code = (err as NodeJS.ErrnoException).code;
					if (code === 'ENOENT' || code === 'EACCES') {
						reject(err); // git missing: the caller decides
					} else {
						reject(new GitCommandError(args, typeof code === 'number' ? code : (err as { killed?: boolean }).killed ? 'timeout' : code, String(stderr ?? '')));
					}
				} else {
					resolve({ stdout: out.toString('utf8'), truncated: false });
				}
			});
		});
	}
}

/** Where a repository keeps its state (worktrees have a private and a common git dir). */
export interface GitLocation {
	readonly root: string;
	readonly gitDir: string;
	readonly commonDir: string;
}

function realFolder(folder: string): string {
	try {
		return realpathSync.native(folder);
	} catch {
		return folder;
	}
}

function isInside(parent: string, child: string): boolean {
	const rel = path.relative(parent, child);
	return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export async function locateRepository(cli: GitCli, folder: string): Promise<GitLocation | undefined> {
	try {
		const { stdout } = await cli.run(folder, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir']);
		const [root, gitDir, commonDir] = stdout.split('\n');
		if (!root || !gitDir || !commonDir) {
			return undefined;
		}
		return { root: path.resolve(root), gitDir: path.resolve(gitDir), commonDir: path.resolve(folder, commonDir) };
	} catch {
		return undefined; // not a repository (or a bare one), or no git
	}
}

/** A repository read through the git CLI, changes from `.git` (and the workspace's files). */
export class GitCliRepository extends Disposable implements GitRepository {
	private readonly changeEmitter = this._register(new Emitter<GitRepositoryChange>());
	readonly onDidChange = this.changeEmitter.event;
	readonly root: string;
	private pendingHistory = false;
	private timer: NodeJS.Timeout | undefined;

	constructor(readonly location: GitLocation, private readonly cli: GitCli, private readonly logger: Logger) {
		super();
		this.root = location.root;
		this._register(toDisposable(() => clearTimeout(this.timer)));
	}

	/** Watches HEAD, the index and refs (fs.watch; no polling). */
	startWatching(): void {
		const { gitDir, commonDir } = this.location;
		this.watchDir(gitDir, false, name => name === null || /^(HEAD|ORIG_HEAD|packed-refs|MERGE_HEAD|REBASE_HEAD|CHERRY_PICK_HEAD)(\.lock)?$/.test(name) ? 'history'
			: /^index(\.lock)?$/.test(name) ? 'index' : undefined);
		if (commonDir !== gitDir) {
			this.watchDir(commonDir, false, name => name === null || /^packed-refs(\.lock)?$/.test(name) ? 'history' : undefined);
		}
		this.watchDir(path.join(commonDir, 'refs'), true, () => 'history');
	}

	/** A working-tree change seen by the workspace's file watcher. */
	notifyWorkingTreeChanged(): void {
		this.schedule(false);
	}

	private watchDir(dir: string, recursive: boolean, classify: (name: string | null) => 'history' | 'index' | undefined): void {
		try {
			const watcher = fs.watch(dir, { recursive, persistent: false }, (_event, filename) => {
				const kind = classify(filename === null ? null : String(filename));
				if (kind) {
					this.schedule(kind === 'history');
				}
			});
			watcher.on('error', err => this.logger.warn(`git watcher on ${path.basename(dir)} stopped: ${String(err)}`));
			this._register(toDisposable(() => watcher.close()));
		} catch (err) {
			this.logger.warn(`cannot watch ${path.basename(dir)} of a git repository: ${String(err)}`);
		}
	}

	private schedule(history: boolean): void {
		if (this.isDisposed) {
			return;
		}
		this.pendingHistory ||= history;
		clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			const change = { history: this.pendingHistory };
			this.pendingHistory = false;
			this.changeEmitter.fire(change);
		}, CHANGE_DEBOUNCE_MS);
	}

	private git(args: readonly string[], maxBytes?: number) {
		return this.cli.run(this.root, args, maxBytes);
	}

	async status(): Promise<GitStatus> {
		const { stdout } = await this.git(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal', '--ignore-submodules=dirty']);
		return parseStatus(stdout);
	}

	diff(staged: boolean, maxBytes: number): Promise<GitText> {
		return this.diffText([...(staged ? ['--cached'] : [])], maxBytes);
	}

	async diffPath(repoPath: string, maxBytes: number): Promise<GitText> {
		const spec = ['--', `:(literal)${repoPath}`];
		if (await this.hasHead()) {
			return this.diffText(['HEAD', ...spec], maxBytes);
		}
		// Before the first commit: staged (against the empty tree) and unstaged, one after the other.
		const staged = await this.diffText(['--cached', ...spec], maxBytes);
		const unstaged = await this.diffText(spec, maxBytes);
		return { text: staged.text + unstaged.text, truncated: staged.truncated || unstaged.truncated };
	}

	async log(maxEntries: number): Promise<GitCommit[]> {
		if (!(await this.hasHead())) {
			return [];
		}
		const { stdout } = await this.git(['log', `-n${Math.max(1, Math.floor(maxEntries))}`, `--format=${COMMIT_FORMAT}`, 'HEAD', '--']);
		return parseCommits(stdout);
	}

	async refs(): Promise<GitRef[]> {
		const format = '%(refname)%00%(objectname)%00%(upstream:short)%00%(upstream:track,nobracket)';
		const { stdout } = await this.git(['for-each-ref', `--format=${format}`, 'refs/heads', 'refs/remotes', 'refs/tags']);
		return parseRefs(stdout);
	}

	async commit(ref: string): Promise<GitCommit | undefined> {
		if (ref.startsWith('-')) {
			return undefined;
		}
		let hash: string;
		try {
			hash = (await this.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).stdout.trim();
		} catch {
			return undefined;
		}
		if (!/^[0-9a-f]{40,64}$/.test(hash)) {
			return undefined;
		}
		const { stdout } = await this.git(['show', '-s', `--format=${COMMIT_FORMAT}`, hash, '--']);
		return parseCommits(stdout)[0];
	}

	commitPatch(commit: GitCommit, maxBytes: number): Promise<GitText> {
		const parent = commit.parents[0] ?? EMPTY_TREE;
		return this.diffText(['-M', parent, commit.hash], maxBytes);
	}

	private async diffText(args: readonly string[], maxBytes: number): Promise<GitText> {
		const { stdout, truncated } = await this.git([
			'diff', '--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/', '--submodule=short', ...args,
		], maxBytes);
		return { text: stdout, truncated };
	}

	private async hasHead(): Promise<boolean> {
		try {
			await this.git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
			return true;
		} catch {
			return false;
		}
	}
}

export interface GitCliSourceOptions {
	readonly folders: WorkspaceFoldersSource;
	readonly log: Logger;
	/** The workspace's file events, so working-tree edits refresh status and diffs. */
	readonly fileEvents?: Event<readonly FileChangeEvent[]>;
	readonly gitPath?: string;
	/** Off in tests that drive changes themselves. */
	readonly watch?: boolean;
}

/** The repositories that contain the workspace folders, found with `git rev-parse`. */
export class GitCliSource extends Disposable implements GitSource {
	private readonly changeEmitter = this._register(new Emitter<void>());
	readonly onDidChangeRepositories = this.changeEmitter.event;
	private repos: GitCliRepository[] = [];
	private discovery: Promise<void> | undefined;
	readonly cli: GitCli;

	constructor(private readonly options: GitCliSourceOptions) {
		super();
		this.cli = new GitCli(options.gitPath);
		this._register(options.folders.onDidChange(() => {
			this.discovery = undefined;
			void this.ready();
		}));
		if (options.fileEvents) {
			this._register(options.fileEvents(events => this.onFileEvents(events)));
		}
		this._register(toDisposable(() => this.repos.forEach(r => r.dispose())));
	}

	ready(): Promise<void> {
		this.discovery ??= this.discover();
		return this.discovery;
	}

	repositories(): readonly GitRepository[] {
		return this.repos;
	}

	private async discover(): Promise<void> {
		const folders = this.options.folders.folders();
		// Headless, --root is an explicit scope: a repository that starts above a served root
		// (serving one package of a monorepo) would expose history of files outside it.
		const found = (await Promise.all(folders.map(f => locateRepository(this.cli, f.path))))
			.map((location, i) => location && isInside(realFolder(folders[i].path), location.root) ? location : undefined);
		if (this.isDisposed) {
			return;
		}
		const byRoot = new Map<string, GitLocation>();
		for (const location of found) {
			if (location && !byRoot.has(location.root)) {
				byRoot.set(location.root, location);
			}
		}
		const kept = this.repos.filter(r => byRoot.has(r.root));
		for (const repo of this.repos) {
			if (!byRoot.has(repo.root)) {
				repo.dispose();
			}
		}
		const added = [...byRoot.values()].filter(l => !kept.some(r => r.root === l.root)).map(location => {
			const repo = new GitCliRepository(location, this.cli, this.options.log);
			if (this.options.watch !== false) {
				repo.startWatching();
			}
			return repo;
		});
		const changed = added.length > 0 || kept.length !== this.repos.length;
		this.repos = [...kept, ...added];
		if (added.length > 0) {
			this.options.log.info(`git: ${this.repos.length} repositor${this.repos.length === 1 ? 'y' : 'ies'}`);
		}
		if (changed) {
			this.changeEmitter.fire();
		}
	}

	private onFileEvents(events: readonly FileChangeEvent[]): void {
		for (const repo of this.repos) {
			const gitDir = repo.location.gitDir;
			if (events.some(e => relativeInside(repo.root, e.path) !== undefined && relativeInside(gitDir, e.path) === undefined && e.path !== gitDir)) {
				repo.notifyWorkingTreeChanged();
			}
		}
	}
}

// ---- parsing (exported for tests) ----

const COMMIT_FORMAT = '%x1e%H%x1f%P%x1f%aN%x1f%aE%x1f%aI%x1f%B';

export function parseCommits(stdout: string): GitCommit[] {
	return stdout.split('\x1e').filter(r => r.trim() !== '').map(record => {
		const [hash, parents, authorName, authorEmail, authorDate, ...message] = record.split('\x1f');
		return {
			hash: hash.trim(),
			parents: parents ? parents.split(' ').filter(Boolean) : [],
			authorName, authorEmail, authorDate,
			message: message.join('\x1f').replace(/\n+$/, ''),
		};
	});
}

export function parseRefs(stdout: string): GitRef[] {
	const refs: GitRef[] = [];
	for (const line of stdout.split('\n')) {
		if (!line) {
			continue;
		}
		const [refname, commit, upstream, track] = line.split('\0');
		let kind: GitRef['kind'];
		let name: string;
		if (refname.startsWith('refs/heads/')) {
			kind = 'branch';
			name = refname.slice('refs/heads/'.length);
		} else if (refname.startsWith('refs/remotes/')) {
			kind = 'remote';
			name = refname.slice('refs/remotes/'.length);
			if (name.endsWith('/HEAD')) {
				continue;
			}
		} else if (refname.startsWith('refs/tags/')) {
			kind = 'tag';
			name = refname.slice('refs/tags/'.length);
		} else {
			continue;
		}
		const ahead = /ahead (\d+)/.exec(track ?? '');
		const behind = /behind (\d+)/.exec(track ?? '');
		refs.push({
			name, kind, commit,
			...(upstream ? { upstream } : {}),
			...(ahead ? { ahead: Number(ahead[1]) } : {}),
			...(behind ? { behind: Number(behind[1]) } : {}),
		});
	}
	return refs;
}

const CODES: Record<string, GitFileStatus> = { M: 'modified', T: 'typeChanged', A: 'added', D: 'deleted', R: 'renamed', C: 'copied' };

/** `git status --porcelain=v2 --branch -z`. */
export function parseStatus(stdout: string): GitStatus {
	const fields = stdout.split('\0');
	let branch: string | undefined;
	let commit: string | undefined;
	let upstream: string | undefined;
	let ahead: number | undefined;
	let behind: number | undefined;
	const staged: GitFileChange[] = [];
	const unstaged: GitFileChange[] = [];
	const untracked: GitFileChange[] = [];
	const conflicts: GitFileChange[] = [];
	for (let i = 0; i < fields.length; i++) {
		const field = fields[i];
		if (field.startsWith('# branch.oid ')) {
			const oid = field.slice('# branch.oid '.length);
			commit = oid === '(initial)' ? undefined : oid;
		} else if (field.startsWith('# branch.head ')) {
			const head = field.slice('# branch.head '.length);
			branch = head === '(detached)' ? undefined : head;
		} else if (field.startsWith('# branch.upstream ')) {
			upstream = field.slice('# branch.upstream '.length);
		} else if (field.startsWith('# branch.ab ')) {
			const m = /^\+(\d+) -(\d+)$/.exec(field.slice('# branch.ab '.length));
			if (m) {
				ahead = Number(m[1]);
				behind = Number(m[2]);
			}
		} else if (field.startsWith('1 ') || field.startsWith('2 ')) {
			const parts = field.split(' ');
			const xy = parts[1];
			const pathStart = field.startsWith('1 ') ? 8 : 9;
			const p = parts.slice(pathStart).join(' ');
			const originalPath = field.startsWith('2 ') ? fields[++i] : undefined;
			const push = (code: string, into: GitFileChange[]) => {
				const status = CODES[code];
				if (status) {
					into.push({ path: p, status, ...(originalPath !== undefined && (code === 'R' || code === 'C') ? { originalPath } : {}) });
				}
			};
			push(xy[0], staged);
			push(xy[1], unstaged);
		} else if (field.startsWith('u ')) {
			conflicts.push({ path: field.split(' ').slice(10).join(' '), status: 'conflicted' });
		} else if (field.startsWith('? ')) {
			untracked.push({ path: field.slice(2), status: 'untracked' });
		}
	}
	return { branch, commit, upstream, ahead, behind, staged, unstaged, untracked, conflicts };
}
