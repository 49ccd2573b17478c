import { realpathSync } from 'node:fs';
import { Emitter, Event } from '../../common/event';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { GitRepository, GitSource } from '../../core/git/ports';
import { FileChangeEvent, WorkspaceFoldersSource } from '../../core/ports';
import { isInsideFolder } from '../../common/pathContainment';
import { GitCliRepository } from './gitCliRepository';
import { GitLocation, locateRepository } from './gitLocation';
import { GitCli } from './gitProcess';
import { isInWorkingTree, isServedFileEvent, ServedByName } from './servedFileEvent';

function realFolder(folder: string): string {
	try {
		return realpathSync.native(folder);
	} catch {
		return folder;
	}
}

export interface GitCliSourceOptions {
	readonly folders: WorkspaceFoldersSource;
	readonly log: Logger;
	/** The workspace's file events, so working-tree edits refresh status and diffs. */
	readonly fileEvents?: Event<readonly FileChangeEvent[]>;
	/**
	 * Whether a path is served (the files provider's rule, by name): only events on such paths
	 * count. Status and diffs leave out what is not served, so a write to a secret or an ignored
	 * file changes nothing they show, and notifying it would tell a subscriber that it happened.
	 */
	readonly isServedNow?: ServedByName;
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
		const found = (await Promise.all(folders.map(f => locateRepository(this.cli, f.path, this.options.log))))
			.map((location, i) => location && isInsideFolder(realFolder(folders[i].path), location.root) ? location : undefined);
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
		const served = this.options.isServedNow;
		for (const repo of this.repos) {
			const gitDir = repo.location.gitDir;
			// The first served file decides: a branch switch's thousands of events are not all looked at.
			if (events.some(e => isInWorkingTree(repo.root, gitDir, e.path) && (!served || isServedFileEvent(e, served)))) {
				repo.notifyWorkingTreeChanged();
			}
		}
	}
}
