import { statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { Disposable, toDisposable } from '../common/lifecycle';
import { GitRepositoryChange } from '../core/git/ports';
import { GitApiRepository } from './gitApi';

/** Quiet time before a burst of `.git` events becomes one change and one status request. */
const GIT_DIR_DEBOUNCE_MS = 50;

const EVERYTHING: GitRepositoryChange = { history: true, index: true, workingTree: true };

type Pending = { -readonly [K in keyof GitRepositoryChange]: boolean };

/**
 * What moved in a repository the git extension has open. Its state event says only that a
 * status ran, so each one is compared with the last: HEAD and its upstream (history), the index
 * file (written by staging, commits, checkouts; not visible in the lists when a staged file is
 * staged again; one stat, not a walk of the lists) and always the working tree. `.git` events
 * (HEAD, index, refs) add their own kind to the change of the status they ask for, so a branch
 * made in a terminal, which changes no state the API shows, is not missed, and a commit made
 * there is one change, not one for its `.git` events and another for the status after them.
 */
export class GitStateChanges extends Disposable {
	private readonly changeEmitter = this._register(new Emitter<GitRepositoryChange>());
	readonly onDidChange = this.changeEmitter.event;
	private last: { head: string; index: string };
	private readonly indexFile: string;
	/** What `.git` events said moved, kept for the change of the status they asked for. */
	private fromGitDir: Pending | undefined;

	constructor(private readonly api: GitApiRepository) {
		super();
		this.indexFile = path.join(api.rootUri.fsPath, '.git', 'index');
		this.last = this.signatures();
		this._register(api.state.onDidChange(() => {
			const next = this.signatures();
			const history = next.head !== this.last.head;
			// An index that cannot be looked at (a worktree's `.git` is a file) may have changed.
			const index = next.index !== this.last.index || next.index === '';
			this.last = next;
			const told = this.fromGitDir;
			this.fromGitDir = undefined;
			this.changeEmitter.fire({ history: history || told?.history === true, index: index || told?.index === true, workingTree: true });
		}));
		for (const event of [api.onDidCommit, api.onDidCheckout]) {
			if (event) {
				this._register(event(() => this.changeEmitter.fire(EVERYTHING)));
			}
		}
		this.watchGitDir();
	}

	/**
	 * The git extension refreshes after outside changes (a commit in a terminal) only when
	 * the window is idle and focused, which can be seconds later. Watching HEAD, the index and
	 * refs, firing what they say and asking it for a status brings the notification down to the
	 * watcher's delay.
	 */
	private watchGitDir(): void {
		const watcher = this._register(vscode.workspace.createFileSystemWatcher(
			new vscode.RelativePattern(this.api.rootUri, '.git/{HEAD,index,packed-refs,refs/**}')));
		let timer: NodeJS.Timeout | undefined;
		let pending: Pending = { history: false, index: false, workingTree: false };
		const seen = (uri: vscode.Uri) => {
			if (path.basename(uri.fsPath) === 'index') {
				pending.index = true;
			} else {
				pending.history = true;
			}
			clearTimeout(timer);
			timer = setTimeout(() => {
				const change = pending;
				pending = { history: false, index: false, workingTree: false };
				if (!this.api.status) {
					this.changeEmitter.fire(change);
					return;
				}
				this.fromGitDir = { history: change.history || this.fromGitDir?.history === true, index: change.index || this.fromGitDir?.index === true, workingTree: false };
				// The status run fires the state event (which takes `fromGitDir`); should it fail
				// before that, what `.git` said is fired on its own.
				void this.api.status().catch(() => undefined).finally(() => {
					const told = this.fromGitDir;
					this.fromGitDir = undefined;
					if (told && !this.isDisposed) {
						this.changeEmitter.fire(told);
					}
				});
			}, GIT_DIR_DEBOUNCE_MS);
		};
		this._register(watcher.onDidChange(seen));
		this._register(watcher.onDidCreate(seen));
		this._register(watcher.onDidDelete(seen));
		this._register(toDisposable(() => clearTimeout(timer)));
	}

	private signatures(): { head: string; index: string } {
		const head = this.api.state.HEAD;
		return {
			head: JSON.stringify([head?.name, head?.commit, head?.upstream, head?.ahead, head?.behind]),
			index: indexStamp(this.indexFile),
		};
	}
}

/** The index file's identity and time (git replaces it by rename on every write); '' when absent. */
function indexStamp(file: string): string {
	try {
		const s = statSync(file, { bigint: true });
		return `${s.ino}:${s.size}:${s.mtimeNs}`;
	} catch {
		return '';
	}
}
