import { Event } from '../../common/event';
import { Disposable } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { GitCommit, GitFileChange, GitRef, GitRepository, GitRepositoryChange, GitStatus, GitText } from '../../core/git/ports';
import { commitPatch, gitDiff, gitDiffOfPath, pathsChangedBetween } from './gitDiff';
import { GitDirWatcher } from './gitDirWatcher';
import { GitLocation } from './gitLocation';
import { COMMIT_FORMAT, parseCommits, parseRefs, parseStatus, REF_FORMAT } from './gitOutput';
import { GitCli } from './gitProcess';
import { OwnHistory } from './ownHistory';
import { repositoryFilterOverrides } from './repositoryFilters';

/** A repository read through the git CLI, changes from `.git` (and the workspace's files). */
export class GitCliRepository extends Disposable implements GitRepository {
	private readonly watcher: GitDirWatcher;
	private readonly ownHistory: OwnHistory;
	readonly onDidChange: Event<GitRepositoryChange>;
	readonly root: string;

	constructor(readonly location: GitLocation, private readonly cli: GitCli, logger: Logger) {
		super();
		this.root = location.root;
		this.ownHistory = new OwnHistory(cli, location.root, location.commonDir);
		this.watcher = this._register(new GitDirWatcher(location, logger));
		this.onDidChange = this.watcher.onDidChange;
	}

	/** Watches HEAD, the index and refs (fs.watch; no polling). */
	startWatching(): void {
		this.watcher.start();
	}

	/** A working-tree change seen by the workspace's file watcher. */
	notifyWorkingTreeChanged(): void {
		this.watcher.notifyWorkingTreeChanged();
	}

	private git(args: readonly string[], maxBytes?: number) {
		return this.cli.run(this.root, args, maxBytes);
	}

	/** `-c` options for a call that reads the working tree: no content filter the repository names runs. */
	private workingTreeConfig(): Promise<string[]> {
		return repositoryFilterOverrides(this.cli, this.root);
	}

	/**
	 * Untracked files one by one (`-uall`), as the editor's git extension asks for them: a new
	 * folder named whole (`dir/`) is no resource a client can read, and its files would rank for
	 * nothing.
	 */
	async status(): Promise<GitStatus> {
		const { stdout } = await this.git([...await this.workingTreeConfig(), 'status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--ignore-submodules=dirty']);
		return parseStatus(stdout);
	}

	async diff(staged: boolean, maxBytes: number): Promise<GitText> {
		return gitDiff(this.cli, this.root, [...(staged ? ['--cached'] : [])], maxBytes, await this.workingTreeConfig());
	}

	async diffPath(repoPath: string, maxBytes: number): Promise<GitText> {
		const [hasHead, config] = await Promise.all([this.hasHead(), this.workingTreeConfig()]);
		return gitDiffOfPath(this.cli, this.root, repoPath, hasHead, maxBytes, config);
	}

	async log(maxEntries: number): Promise<GitCommit[]> {
		if (!(await this.hasHead())) {
			return [];
		}
		const { stdout } = await this.git(['log', `-n${Math.max(1, Math.floor(maxEntries))}`, `--format=${COMMIT_FORMAT}`, 'HEAD', '--']);
		return parseCommits(stdout);
	}

	async refs(): Promise<GitRef[]> {
		const { stdout } = await this.git(['for-each-ref', `--format=${REF_FORMAT}`, 'refs/heads', 'refs/remotes', 'refs/tags']);
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
		if (!(await this.ownHistory.contains(hash))) {
			return undefined;
		}
		const { stdout } = await this.git(['show', '-s', `--format=${COMMIT_FORMAT}`, hash, '--']);
		return parseCommits(stdout)[0];
	}

	commitPatch(commit: GitCommit, maxBytes: number): Promise<GitText> {
		return commitPatch(this.cli, this.root, commit, maxBytes);
	}

	async headCommit(): Promise<string | undefined> {
		try {
			return (await this.git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).stdout.trim();
		} catch {
			return undefined; // no commit yet
		}
	}

	pathsChangedBetween(from: string, to: string, maxPaths: number): Promise<readonly GitFileChange[] | undefined> {
		return pathsChangedBetween(this.cli, this.root, from, to, maxPaths);
	}

	private async hasHead(): Promise<boolean> {
		return (await this.headCommit()) !== undefined;
	}
}
