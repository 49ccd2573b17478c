import * as path from 'node:path';
import { Disposable, IDisposable, toDisposable } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { GitRepository, GitSource } from './ports';

/**
 * A HEAD move across more paths than this is left to the file watcher (and logged): each path
 * costs an lstat and a slot in the batch, and git's list of them is held whole.
 */
export const MAX_RECHECKED_PATHS = 100_000;

/** A path a HEAD move changed, and whether the new commit has it. */
export interface MovedPath {
	readonly absPath: string;
	readonly deleted: boolean;
}

/** Takes paths to check on disk again, as if a file watcher had reported them changed. */
export interface PathRecheck {
	recheck(paths: readonly MovedPath[]): void;
}

interface FollowedRepository {
	/** HEAD's commit when last looked at; undefined before the first look or the first commit. */
	head: string | undefined;
	/** The looks at HEAD, one after the other, so each move is diffed from the one before. */
	checking: Promise<void>;
	readonly listener: IDisposable;
}

/**
 * When a repository's HEAD moves to another commit (checkout, reset, pull, rebase), hands the
 * paths that differ between the old and the new commit to the file index. In the editor, VS
 * Code's file watcher was seen to drop a few events of a branch switch (deleted files still
 * listed, new ones missing), and the listing stayed wrong until a reload; git names exactly
 * the paths a move touched, so no
 * workspace scan is needed. Paths outside every workspace folder are ignored by the index, and
 * ignored or secret ones are judged as a watcher event's are.
 */
export class HeadMoveRecheck extends Disposable {
	private readonly followed = new Map<GitRepository, FollowedRepository>();

	constructor(
		private readonly source: GitSource,
		private readonly target: PathRecheck,
		private readonly log: Logger,
		private readonly maxPaths = MAX_RECHECKED_PATHS,
	) {
		super();
		this._register(source.onDidChangeRepositories(() => this.follow()));
		this._register(toDisposable(() => {
			for (const repo of this.followed.values()) {
				repo.listener.dispose();
			}
			this.followed.clear();
		}));
		this.follow();
	}

	/** Resolves when every look at HEAD asked for so far is done (for tests and benchmarks). */
	async settled(): Promise<void> {
		await Promise.all([...this.followed.values()].map(r => r.checking));
	}

	private follow(): void {
		const current = new Set(this.source.repositories());
		for (const [repo, followed] of this.followed) {
			if (!current.has(repo)) {
				followed.listener.dispose();
				this.followed.delete(repo);
			}
		}
		for (const repo of current) {
			if (!this.followed.has(repo)) {
				const listener = repo.onDidChange(change => {
					if (change.history) {
						this.check(repo);
					}
				});
				this.followed.set(repo, { head: undefined, checking: Promise.resolve(), listener });
				this.check(repo); // the first sighting only remembers HEAD
			}
		}
	}

	private check(repo: GitRepository): void {
		const followed = this.followed.get(repo);
		if (followed) {
			followed.checking = followed.checking.then(() => this.recheckMove(repo, followed)).catch(err => {
				this.log.warn(`git: could not list the paths HEAD's move changed in ${path.basename(repo.root)}: ${err instanceof Error ? err.message : String(err)}`);
			});
		}
	}

	private async recheckMove(repo: GitRepository, followed: FollowedRepository): Promise<void> {
		if (this.followed.get(repo) !== followed) {
			return; // closed, or this recheck disposed
		}
		const head = await repo.headCommit();
		const previous = followed.head;
		followed.head = head;
		if (previous === undefined || head === undefined || previous === head) {
			return;
		}
		const paths = await repo.pathsChangedBetween(previous, head, this.maxPaths);
		if (this.followed.get(repo) !== followed) {
			return;
		}
		if (!paths) {
			this.log.info(`git: HEAD of ${path.basename(repo.root)} moved across more than ${this.maxPaths} paths; the file watcher's events alone update the listing`);
			return;
		}
		if (paths.length > 0) {
			this.target.recheck(paths.map(change => ({ absPath: path.join(repo.root, change.path), deleted: change.status === 'deleted' })));
		}
	}
}
