import { statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Emitter, Event } from '../common/event';
import { Disposable, toDisposable } from '../common/lifecycle';
import { GitRepositoryChange } from '../core/git/ports';
import { isInWorkingTree, isServedFileEvent, ServedByName } from '../node/git/servedFileEvent';
import { FileChangeEvent } from '../core/ports';
import { GitApiRepository } from './gitApi';

/** Quiet time before a burst of `.git` events becomes one change and one status request. */
const GIT_DIR_DEBOUNCE_MS = 50;

const EVERYTHING: GitRepositoryChange = { history: true, index: true, workingTree: true };

type Pending = { -readonly [K in keyof GitRepositoryChange]: boolean };

/** What tells the working tree's served part moved. */
export interface ServedWorkingTree {
	/** The files provider's rule, by name: only served paths count. */
	readonly isServedNow: ServedByName;
	/** The workspace's file events: a served file written again changes no list, but its diff. */
	readonly fileEvents: Event<readonly FileChangeEvent[]>;
}

/**
 * What moved in a repository the git extension has open. Its state event says only that a
 * status ran (after a write to any file, a secret or an ignored one too), so each one is compared
 * with the last: HEAD and its upstream (history), the index file (written by staging, commits,
 * checkouts; not visible in the lists when a staged file is staged again; one stat, not a walk of
 * the lists) and the served paths of the working-tree lists. A served file's own event is a
 * working-tree change too (its diff moved though no list did); an unserved one's is nothing, so
 * no subscriber hears that a secret or an ignored file was written. `.git` events
 * (HEAD, index, refs) add their own kind to the change of the status they ask for, so a branch
 * made in a terminal, which changes no state the API shows, is not missed, and a commit made
 * there is one change, not one for its `.git` events and another for the status after them.
 */
export class GitStateChanges extends Disposable {
	private readonly changeEmitter = this._register(new Emitter<GitRepositoryChange>());
	readonly onDidChange = this.changeEmitter.event;
	private last: Signatures;
	private readonly indexFile: string;
	/** What `.git` events said moved, kept for the change of the status they asked for. */
	private fromGitDir: Pending | undefined;

	constructor(private readonly api: GitApiRepository, private readonly served: ServedWorkingTree) {
		super();
		const root = api.rootUri.fsPath;
		const gitDir = path.join(root, '.git');
		this.indexFile = path.join(gitDir, 'index');
		this.last = this.signatures(undefined);
		this._register(api.state.onDidChange(() => {
			const next = this.signatures(this.last);
			const history = next.head !== this.last.head;
			// An index that cannot be looked at (a worktree's `.git` is a file) may have changed.
			const index = next.index !== this.last.index || next.index === '';
			const workingTree = next.workingTree !== this.last.workingTree;
			this.last = next;
			const told = this.fromGitDir;
			this.fromGitDir = undefined;
			this.fire({ history: history || told?.history === true, index: index || told?.index === true, workingTree });
		}));
		this._register(served.fileEvents(events => {
			// A deletion of a served file always changes the lists: the state event after it tells.
			if (events.some(e => e.kind !== 'deleted' && isInWorkingTree(root, gitDir, e.path) && isServedFileEvent(e, served.isServedNow))) {
				this.fire({ history: false, index: false, workingTree: true });
			}
		}));
		for (const event of [api.onDidCommit, api.onDidCheckout]) {
			if (event) {
				this._register(event(() => this.fire(EVERYTHING)));
			}
		}
		this.watchGitDir();
	}

	/** A change that names no kind is none: every resource's status would be told of it. */
	private fire(change: GitRepositoryChange): void {
		if (change.history || change.index || change.workingTree) {
			this.changeEmitter.fire(change);
		}
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
					this.fire(change);
					return;
				}
				this.fromGitDir = { history: change.history || this.fromGitDir?.history === true, index: change.index || this.fromGitDir?.index === true, workingTree: false };
				// The status run fires the state event (which takes `fromGitDir`); should it fail
				// before that, what `.git` said is fired on its own.
				void this.api.status().catch(() => undefined).finally(() => {
					const told = this.fromGitDir;
					this.fromGitDir = undefined;
					if (told && !this.isDisposed) {
						this.fire(told);
					}
				});
			}, GIT_DIR_DEBOUNCE_MS);
		};
		this._register(watcher.onDidChange(seen));
		this._register(watcher.onDidCreate(seen));
		this._register(watcher.onDidDelete(seen));
		this._register(toDisposable(() => clearTimeout(timer)));
	}

	/** The state now; `previous`'s judgement of the same lists is kept. */
	private signatures(previous: Signatures | undefined): Signatures {
		const { state } = this.api;
		const head = state.HEAD;
		const entries = [state.workingTreeChanges, state.untrackedChanges ?? [], state.mergeChanges].flatMap((list, i) => list.map(change => {
			const paths = [change.uri.fsPath, change.originalUri.fsPath, change.renameUri?.fsPath];
			return { key: `${i}:${change.status}:${paths.join('\0')}`, paths };
		}));
		const lists = entries.map(e => e.key).join('\n');
		// Judging thousands of paths (a branch switch) holds the loop: only lists that moved are judged.
		const workingTree = previous?.lists === lists
			? previous.workingTree
			: entries.filter(e => e.paths.every(p => p === undefined || this.served.isServedNow(p))).map(e => e.key).join('\n');
		return {
			head: JSON.stringify([head?.name, head?.commit, head?.upstream, head?.ahead, head?.behind]),
			index: indexStamp(this.indexFile),
			lists,
			workingTree,
		};
	}
}

interface Signatures {
	readonly head: string;
	readonly index: string;
	/** Every entry of the working-tree lists (working tree, untracked, merge), with its state. */
	readonly lists: string;
	/** Those of `lists` whose paths are served. */
	readonly workingTree: string;
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
