import { Event } from '../../common/event';

export type GitFileStatus = 'modified' | 'added' | 'deleted' | 'renamed' | 'copied' | 'typeChanged' | 'untracked' | 'conflicted';

/** One changed path. Paths are relative to the repository root with `/` separators. */
export interface GitFileChange {
	readonly path: string;
	/** The path before a rename or copy. */
	readonly originalPath?: string;
	readonly status: GitFileStatus;
}

export interface GitStatus {
	/** The checked-out branch; undefined when HEAD is detached. */
	readonly branch?: string;
	/** HEAD's commit; undefined before the first commit. */
	readonly commit?: string;
	readonly upstream?: string;
	readonly ahead?: number;
	readonly behind?: number;
	readonly staged: readonly GitFileChange[];
	readonly unstaged: readonly GitFileChange[];
	readonly untracked: readonly GitFileChange[];
	readonly conflicts: readonly GitFileChange[];
}

export interface GitCommit {
	readonly hash: string;
	readonly parents: readonly string[];
	readonly authorName?: string;
	readonly authorEmail?: string;
	/** ISO 8601. */
	readonly authorDate?: string;
	readonly message: string;
}

export interface GitRef {
	/** Short name: `main`, `origin/main`, `v1.0`. */
	readonly name: string;
	readonly kind: 'branch' | 'remote' | 'tag';
	readonly commit?: string;
	readonly upstream?: string;
	readonly ahead?: number;
	readonly behind?: number;
}

/** Output cut at a byte budget. */
export interface GitText {
	readonly text: string;
	readonly truncated: boolean;
}

/** What moved in one change of a repository; at least one is true. */
export interface GitRepositoryChange {
	/** HEAD moved or refs changed: log, branches, status and commits by name may differ. */
	readonly history: boolean;
	/** The index was written (staging, a commit, a checkout): status and both diffs may differ. */
	readonly index: boolean;
	/** Files in the working tree changed: status and the unstaged diff may differ. */
	readonly workingTree: boolean;
}

/**
 * One repository. Every change (working tree, index, HEAD and refs) fires `onDidChange`, saying
 * which of them moved (an adapter that cannot tell says more, never less); reads are made on
 * demand. Errors are thrown as is; the provider decides what a client sees.
 */
export interface GitRepository {
	/** Absolute path of the working tree root. */
	readonly root: string;
	readonly onDidChange: Event<GitRepositoryChange>;
	status(): Promise<GitStatus>;
	/** Unified diff of the working tree against the index, or of the index against HEAD. */
	diff(staged: boolean, maxBytes: number): Promise<GitText>;
	/** Unified diff of one path's uncommitted changes (staged and unstaged) against HEAD. */
	diffPath(path: string, maxBytes: number): Promise<GitText>;
	log(maxEntries: number): Promise<GitCommit[]>;
	refs(): Promise<GitRef[]>;
	/** The commit a ref names, or undefined when it names none. */
	commit(ref: string): Promise<GitCommit | undefined>;
	/** The patch a commit introduces (against its first parent). */
	commitPatch(commit: GitCommit, maxBytes: number): Promise<GitText>;
	/** HEAD's commit hash, or undefined before the first commit. */
	headCommit(): Promise<string | undefined>;
	/**
	 * The paths whose content differs between two commits ('added', 'deleted', 'modified' or
	 * 'typeChanged' in `to`), a rename as a deletion and an addition; undefined when there are
	 * more than `maxPaths`.
	 */
	pathsChangedBetween(from: string, to: string, maxPaths: number): Promise<readonly GitFileChange[] | undefined>;
}

/** The repositories of the workspace; none when git is missing or disabled. */
export interface GitSource {
	/** Resolves once the initial set of repositories is known (or given up on). */
	ready(): Promise<void>;
	repositories(): readonly GitRepository[];
	readonly onDidChangeRepositories: Event<void>;
}
