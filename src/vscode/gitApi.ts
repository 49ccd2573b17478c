// The subset of the built-in git extension's API (`vscode.git`, getAPI(1)) this extension uses,
// declared locally (types only) after extensions/git/src/api/git.d.ts. Members added in later
// VS Code versions are optional and checked before use.
import type { Event, Uri } from 'vscode';

export const enum GitRefType { Head = 0, RemoteHead = 1, Tag = 2 }

export interface GitApiRef {
	readonly type: GitRefType;
	readonly name?: string;
	readonly commit?: string;
	readonly remote?: string;
}

export interface GitApiBranch extends GitApiRef {
	readonly upstream?: { readonly remote: string; readonly name: string };
	readonly ahead?: number;
	readonly behind?: number;
}

export interface GitApiCommit {
	readonly hash: string;
	readonly message: string;
	readonly parents: string[];
	readonly authorDate?: Date;
	readonly authorName?: string;
	readonly authorEmail?: string;
}

export interface GitApiChange {
	readonly uri: Uri;
	readonly originalUri: Uri;
	readonly renameUri: Uri | undefined;
	/** The git extension's `Status` enum (numbers). */
	readonly status: number;
}

export interface GitApiRepositoryState {
	readonly HEAD: GitApiBranch | undefined;
	readonly refs: GitApiRef[];
	readonly mergeChanges: GitApiChange[];
	readonly indexChanges: GitApiChange[];
	readonly workingTreeChanges: GitApiChange[];
	readonly untrackedChanges?: GitApiChange[];
	readonly onDidChange: Event<void>;
}

export interface GitApiRepository {
	readonly rootUri: Uri;
	readonly state: GitApiRepositoryState;
	readonly onDidCommit?: Event<void>;
	readonly onDidCheckout?: Event<void>;
	getCommit(ref: string): Promise<GitApiCommit>;
	log(options?: { maxEntries?: number }): Promise<GitApiCommit[]>;
	getRefs?(query: { pattern?: string | string[] }): Promise<GitApiRef[]>;
	getBranches?(query: { remote?: boolean }): Promise<GitApiRef[]>;
	/** Re-reads the repository state now (fires state.onDidChange when it changed). */
	status?(): Promise<void>;
}

export interface GitApi {
	readonly git: { readonly path: string };
	readonly state?: 'uninitialized' | 'initialized';
	readonly onDidChangeState?: Event<'uninitialized' | 'initialized'>;
	readonly repositories: GitApiRepository[];
	readonly onDidOpenRepository: Event<GitApiRepository>;
	readonly onDidCloseRepository: Event<GitApiRepository>;
}

export interface GitExtension {
	readonly enabled: boolean;
	readonly onDidChangeEnablement: Event<boolean>;
	/** Throws when git is disabled. */
	getAPI(version: 1): GitApi;
}
