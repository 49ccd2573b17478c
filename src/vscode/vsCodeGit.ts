import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { Disposable, DisposableStore, toDisposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { GitRepository, GitSource } from '../core/git/ports';
import { GitCli } from '../node/git/gitProcess';
import { GitApi, GitApiRepository, GitExtension } from './gitApi';
import { ServedWorkingTree } from './gitStateChanges';
import { VsCodeGitRepository } from './vsCodeGitRepository';

/** How long `ready()` waits for the git extension to find the workspace's repositories. */
const INITIALIZE_TIMEOUT_MS = 3000;

/**
 * The repositories the built-in git extension has open. Follows it as repositories open and
 * close and as git is enabled or disabled; without it (missing, disabled) there are none.
 * Nothing happens until `ready()`: the git extension is not touched on the activation path.
 */
export class VsCodeGit extends Disposable implements GitSource {
	private readonly changeEmitter = this._register(new Emitter<void>());
	readonly onDidChangeRepositories = this.changeEmitter.event;
	/**
	 * By root path: the git extension's API hands out a new wrapper object for the same
	 * repository from different calls, so keying by object listed one repository twice.
	 */
	private readonly repos = new Map<string, VsCodeGitRepository>();
	private readonly apiListeners = this._register(new DisposableStore());
	private initializing: Promise<void> | undefined;

	/** `served` decides which working-tree events are changes (see GitStateChanges). */
	constructor(private readonly log: Logger, private readonly served: ServedWorkingTree) {
		super();
		this._register(toDisposable(() => this.detach()));
	}

	ready(): Promise<void> {
		this.initializing ??= this.initialize().catch(err => this.log.warn(`git extension unavailable: ${String(err)}`));
		return this.initializing;
	}

	repositories(): readonly GitRepository[] {
		return [...this.repos.values()];
	}

	private async initialize(): Promise<void> {
		const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
		if (!extension) {
			this.log.info('git: the vscode.git extension is not installed; no git resources');
			return;
		}
		const exports = extension.isActive ? extension.exports : await extension.activate();
		if (this.isDisposed || !exports) {
			return;
		}
		this._register(exports.onDidChangeEnablement(enabled => {
			if (enabled) {
				void this.attach(exports);
			} else {
				this.detach();
				this.changeEmitter.fire();
			}
		}));
		if (exports.enabled) {
			await this.attach(exports);
		} else {
			this.log.info('git: git is disabled (git.enabled); no git resources');
		}
	}

	private async attach(exports: GitExtension): Promise<void> {
		let api: GitApi;
		try {
			api = exports.getAPI(1);
		} catch (err) {
			this.log.warn(`git: no API: ${String(err)}`);
			return;
		}
		this.detach();
		const cli = new GitCli(api.git.path);
		const add = (repo: GitApiRepository) => {
			if (repo.rootUri.scheme === 'file' && !this.repos.has(repo.rootUri.fsPath)) {
				this.repos.set(repo.rootUri.fsPath, new VsCodeGitRepository(repo, cli, this.served));
				this.changeEmitter.fire();
			}
		};
		this.apiListeners.add(api.onDidOpenRepository(add));
		this.apiListeners.add(api.onDidCloseRepository(repo => {
			const known = this.repos.get(repo.rootUri.fsPath);
			if (known) {
				this.repos.delete(repo.rootUri.fsPath);
				known.dispose();
				this.changeEmitter.fire();
			}
		}));
		api.repositories.forEach(add);
		if (api.state === 'uninitialized' && api.onDidChangeState) {
			// The extension is still scanning the workspace; wait a little, not forever.
			await new Promise<void>(resolve => {
				const timer = setTimeout(done, INITIALIZE_TIMEOUT_MS);
				const listener = api.onDidChangeState!(state => state === 'initialized' && done());
				function done() {
					clearTimeout(timer);
					listener.dispose();
					resolve();
				}
			});
			api.repositories.forEach(add);
		}
	}

	private detach(): void {
		this.apiListeners.clear();
		for (const repo of this.repos.values()) {
			repo.dispose();
		}
		this.repos.clear();
	}
}
