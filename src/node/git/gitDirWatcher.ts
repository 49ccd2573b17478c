import * as fs from 'node:fs';
import * as path from 'node:path';
import { Emitter } from '../../common/event';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { GitRepositoryChange } from '../../core/git/ports';
import { GitLocation } from './gitLocation';

/** Quiet time before a burst of `.git` or file events becomes one change. */
const CHANGE_DEBOUNCE_MS = 40;

type ChangeKind = keyof GitRepositoryChange;

/**
 * Turns changes to a repository's HEAD, index and refs (fs.watch; no polling) and working-tree
 * edits reported by the workspace's watcher into one debounced change that names each kind the
 * burst held.
 */
export class GitDirWatcher extends Disposable {
	private readonly changeEmitter = this._register(new Emitter<GitRepositoryChange>());
	readonly onDidChange = this.changeEmitter.event;
	private pending: { -readonly [K in ChangeKind]: boolean } = { history: false, index: false, workingTree: false };
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly location: GitLocation, private readonly logger: Logger) {
		super();
		this._register(toDisposable(() => clearTimeout(this.timer)));
	}

	/** Watches HEAD, the index and refs. */
	start(): void {
		const { gitDir, commonDir } = this.location;
		// A platform that does not say which file changed (filename null) could mean any of them.
		this.watchDir(gitDir, false, name => name === null ? ['history', 'index']
			: /^(HEAD|ORIG_HEAD|packed-refs|MERGE_HEAD|REBASE_HEAD|CHERRY_PICK_HEAD)(\.lock)?$/.test(name) ? ['history']
				: /^index(\.lock)?$/.test(name) ? ['index'] : []);
		if (commonDir !== gitDir) {
			this.watchDir(commonDir, false, name => name === null || /^packed-refs(\.lock)?$/.test(name) ? ['history'] : []);
		}
		this.watchDir(path.join(commonDir, 'refs'), true, () => ['history']);
	}

	/** A working-tree change seen by the workspace's file watcher. */
	notifyWorkingTreeChanged(): void {
		this.schedule('workingTree');
	}

	private watchDir(dir: string, recursive: boolean, classify: (name: string | null) => readonly ChangeKind[]): void {
		try {
			const watcher = fs.watch(dir, { recursive, persistent: false }, (_event, filename) => {
				for (const kind of classify(filename === null ? null : String(filename))) {
					this.schedule(kind);
				}
			});
			watcher.on('error', err => this.logger.warn(`git watcher on ${path.basename(dir)} stopped: ${String(err)}`));
			this._register(toDisposable(() => watcher.close()));
		} catch (err) {
			this.logger.warn(`cannot watch ${path.basename(dir)} of a git repository: ${String(err)}`);
		}
	}

	private schedule(kind: ChangeKind): void {
		if (this.isDisposed) {
			return;
		}
		this.pending[kind] = true;
		clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			const change: GitRepositoryChange = { ...this.pending };
			this.pending = { history: false, index: false, workingTree: false };
			this.changeEmitter.fire(change);
		}, CHANGE_DEBOUNCE_MS);
	}
}
