import { Emitter } from '../../src/common/event';
import { GitCommit, GitFileChange, GitRef, GitRepository, GitRepositoryChange, GitSource, GitStatus, GitText } from '../../src/core/git/ports';

/** A repository with canned answers; `change` fires as a state change would. */
export class FakeGitRepository implements GitRepository {
	private readonly emitter = new Emitter<GitRepositoryChange>();
	readonly onDidChange = this.emitter.event;
	statusValue: GitStatus = { staged: [], unstaged: [], untracked: [], conflicts: [] };
	diffText = '';
	stagedText = '';
	commits: GitCommit[] = [];
	refList: GitRef[] = [];
	/** Other names of commits (`HEAD^0~0`, a branch): name to hash. */
	readonly aliases = new Map<string, string>();
	patchText = '';
	statusCalls = 0;
	diffCalls = 0;
	patchCalls = 0;
	/** Times a ref was resolved to a commit (a `git` call in the real hosts). */
	commitCalls = 0;
	/** HEAD's commit. */
	head: string | undefined;
	/** `from..to` to the paths that differ between the two commits. */
	readonly changedPaths = new Map<string, readonly GitFileChange[]>();

	constructor(readonly root: string) {}

	/** The working tree and the index changed, and HEAD or refs too when `history`. */
	change(history = false): void {
		this.emitter.fire({ history, index: true, workingTree: true });
	}

	/** Exactly the kinds given changed. */
	changeOnly(kinds: Partial<GitRepositoryChange>): void {
		this.emitter.fire({ history: false, index: false, workingTree: false, ...kinds });
	}

	async status(): Promise<GitStatus> {
		this.statusCalls++;
		return this.statusValue;
	}
	async diff(staged: boolean, maxBytes: number): Promise<GitText> {
		this.diffCalls++;
		const text = staged ? this.stagedText : this.diffText;
		return { text: text.slice(0, maxBytes), truncated: text.length > maxBytes };
	}
	async diffPath(): Promise<GitText> {
		return { text: '', truncated: false };
	}
	async log(maxEntries: number): Promise<GitCommit[]> {
		return this.commits.slice(0, maxEntries);
	}
	async refs(): Promise<GitRef[]> {
		return this.refList;
	}
	async commit(ref: string): Promise<GitCommit | undefined> {
		this.commitCalls++;
		const hash = this.aliases.get(ref) ?? ref;
		return this.commits.find(c => c.hash.startsWith(hash));
	}
	async commitPatch(_commit: GitCommit, maxBytes: number): Promise<GitText> {
		this.patchCalls++;
		return { text: this.patchText.slice(0, maxBytes), truncated: this.patchText.length > maxBytes };
	}
	async headCommit(): Promise<string | undefined> {
		return this.head;
	}
	async pathsChangedBetween(from: string, to: string, maxPaths: number): Promise<readonly GitFileChange[] | undefined> {
		const changes = this.changedPaths.get(`${from}..${to}`) ?? [];
		return changes.length > maxPaths ? undefined : changes;
	}
}

/** Repositories the test opens and closes. */
export class FakeGitSource implements GitSource {
	private readonly emitter = new Emitter<void>();
	readonly onDidChangeRepositories = this.emitter.event;
	repos: GitRepository[] = [];

	async ready(): Promise<void> {}

	repositories(): readonly GitRepository[] {
		return this.repos;
	}

	open(repo: GitRepository): void {
		this.repos = [...this.repos, repo];
		this.emitter.fire();
	}

	close(repo: GitRepository): void {
		this.repos = this.repos.filter(r => r !== repo);
		this.emitter.fire();
	}
}
