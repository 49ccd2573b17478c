import * as path from 'node:path';
import { Disposable, DisposableStore, toDisposable } from '../../common/lifecycle';
import { GitSource } from '../git/ports';
import { Throttle } from '../throttle';
import { WorkspaceScope } from '../workspaceScope';
import { LocatedPaths } from './locatedPaths';
import { gitChangeKind, GitChangeKind, MAX_CANDIDATES, strongerGit } from './ranking';

/**
 * The files git shows changed (conflicts, staged, unstaged, untracked), one of the relevance
 * ranking's signals. Git is first asked when `start` is called (a client listed or read, as the
 * git provider waits for), never on activation; then again at most once per `throttleMs` after a
 * repository changed. Each read is located in the scope before it counts.
 */
export class GitChangeSignals extends Disposable {
	private current = new Map<string, GitChangeKind>();
	/** Where the paths of `changes` stand in the scope. */
	readonly located: LocatedPaths;
	private started = false;
	/** Resolves once a read is in the ranking (or git cannot be asked). */
	private firstRead: Promise<void> | undefined;
	private firstReadDone: (() => void) | undefined;
	private readonly listeners = this._register(new DisposableStore());
	private readonly refresh: Throttle;

	/** `onDidRead`: the changes (and where they stand) were read anew. */
	constructor(private readonly git: GitSource | undefined, scope: WorkspaceScope, throttleMs: number, private readonly onDidRead: () => void) {
		super();
		this.located = new LocatedPaths(scope);
		this.refresh = this._register(new Throttle(throttleMs, () => void this.read()));
		this._register(toDisposable(() => this.firstReadDone?.()));
	}

	/** The changed files by absolute path, as last read: a new map at every read. */
	get changes(): ReadonlyMap<string, GitChangeKind> {
		return this.current;
	}

	start(): void {
		if (this.started || !this.git) {
			return;
		}
		this.started = true;
		const git = this.git;
		const watchRepos = () => {
			this.listeners.clear();
			for (const repo of git.repositories()) {
				this.listeners.add(repo.onDidChange(() => this.refresh.trigger()));
			}
			this.refresh.trigger();
		};
		this._register(git.onDidChangeRepositories(watchRepos));
		// Not the first read's own end: a rule change (the rule loading at start-up) while it is
		// located abandons it for the read that change asks for, and an answer waiting for git
		// would have gone out without it.
		this.firstRead = new Promise<void>(resolve => this.firstReadDone = resolve);
		git.ready().then(() => {
			watchRepos();
			return this.read();
		}).catch(() => this.firstReadDone?.());
	}

	/** `start`, resolving when git's first read is done. */
	async startAndWait(): Promise<void> {
		this.start();
		await this.firstRead;
	}

	/** The scope's rule changed: git's files are located afresh by the next ranking until git is read again. */
	scopeChanged(): void {
		this.located.clear();
		if (this.started) {
			this.refresh.trigger();
		}
	}

	private async read(): Promise<void> {
		// Never inside the repository's change event: the git extension fires it at the end of its
		// own model update, which during a branch switch is a long hold of the loop already
		// (reading thousands of changes there made it longer still in a profiled switch).
		await new Promise<void>(resolve => setImmediate(resolve));
		const changes = new Map<string, GitChangeKind>();
		for (const repo of this.git?.repositories() ?? []) {
			try {
				const status = await repo.status();
				for (const area of ['conflicts', 'staged', 'unstaged', 'untracked'] as const) {
					for (const change of status[area]) {
						if (change.path.endsWith('/')) {
							// A new directory git lists whole (`dir/`): no file to rank, and judged as a
							// file its name would pass rules written for directories (`.ssh/`).
							continue;
						}
						const abs = path.join(repo.root, ...change.path.split('/'));
						changes.set(abs, strongerGit(changes.get(abs), gitChangeKind(area, change.status)));
						if (changes.size >= MAX_CANDIDATES) {
							break;
						}
					}
				}
			} catch {
				// A repository that cannot be read adds no signal; the git resources report the error.
			}
		}
		// Committed with where its files stand, unless a later read (or a rule change) came meanwhile.
		if (await this.located.locate([...changes.keys()])) {
			this.current = changes;
			this.firstReadDone?.();
			this.firstReadDone = undefined;
			this.onDidRead();
		}
	}
}
