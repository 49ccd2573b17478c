import * as fs from 'node:fs';
import * as path from 'node:path';
import { Emitter } from '../../common/event';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { GitRepositoryChange } from '../../core/git/ports';
import { GitLocation } from './gitLocation';

/** Quiet time before a burst of `.git` or file events becomes one change. */
const CHANGE_DEBOUNCE_MS = 40;

/**
 * Turns changes to a repository's HEAD, index and refs (fs.watch; no polling) and working-tree
 * edits reported by the workspace's watcher into one debounced change; `history` when any of
 * the burst moved HEAD or refs.
 */
export class GitDirWatcher extends Disposable {
	private readonly changeEmitter = this._register(new Emitter<GitRepositoryChange>());
	readonly onDidChange = this.changeEmitter.event;
	private pendingHistory = false;
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly location: GitLocation, private readonly logger: Logger) {
		super();
		this._register(toDisposable(() => clearTimeout(this.timer)));
	}

	/** Watches HEAD, the index and refs. */
	start(): void {
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
}
