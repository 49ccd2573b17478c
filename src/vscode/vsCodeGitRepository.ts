import * as path from 'node:path';
import * as vscode from 'vscode';
import { Event } from '../common/event';
import { Disposable } from '../common/lifecycle';
import { withoutTrailing } from '../core/trailing';
import {
	GitCommit, GitFileChange, GitFileStatus, GitRef, GitRepository, GitRepositoryChange, GitStatus, GitText,
} from '../core/git/ports';
import { commitPatch, gitDiff, gitDiffOfPath, pathsChangedBetween } from '../node/git/gitDiff';
import { GitCli } from '../node/git/gitProcess';
import { OwnHistory } from '../node/git/ownHistory';
import { GitApiChange, GitApiCommit, GitApiRepository, GitRefType } from './gitApi';
import { GitStateChanges, ServedWorkingTree } from './gitStateChanges';

/** One repository through the git extension; commit patches through the git binary it uses. */
export class VsCodeGitRepository extends Disposable implements GitRepository {
	readonly onDidChange: Event<GitRepositoryChange>;
	readonly root: string;
	/** The root with a separator after it: what every path under it starts with. */
	private readonly rootPrefix: string;
	private readonly ownHistory: OwnHistory;

	constructor(readonly api: GitApiRepository, private readonly cli: GitCli, served: ServedWorkingTree) {
		super();
		this.root = api.rootUri.fsPath;
		this.rootPrefix = this.root.endsWith(path.sep) ? this.root : this.root + path.sep;
		this.ownHistory = new OwnHistory(cli, this.root);
		const changes = this._register(new GitStateChanges(api, served));
		this.onDidChange = changes.onDidChange;
	}

	async status(): Promise<GitStatus> {
		const { state } = this.api;
		const head = state.HEAD;
		const staged: GitFileChange[] = [];
		const unstaged: GitFileChange[] = [];
		const untracked: GitFileChange[] = [];
		const conflicts: GitFileChange[] = [];
		for (const change of state.indexChanges) {
			this.push(change, staged);
		}
		for (const change of [...state.workingTreeChanges, ...(state.untrackedChanges ?? [])]) {
			this.push(change, change.status === 7 ? untracked : unstaged);
		}
		for (const change of state.mergeChanges) {
			conflicts.push({ path: this.rel(change.uri), status: 'conflicted' });
		}
		return {
			branch: head?.name,
			commit: head?.commit,
			upstream: head?.upstream ? `${head.upstream.remote}/${head.upstream.name}` : undefined,
			ahead: head?.ahead,
			behind: head?.behind,
			staged, unstaged, untracked, conflicts,
		};
	}

	private push(change: GitApiChange, into: GitFileChange[]): void {
		const status = STATUS[change.status];
		if (!status) {
			return; // ignored files
		}
		const renamed = status === 'renamed' || status === 'copied';
		into.push({
			path: this.rel(renamed && change.renameUri ? change.renameUri : change.uri),
			status,
			...(renamed ? { originalPath: this.rel(change.originalUri) } : {}),
		});
	}

	private rel(uri: vscode.Uri): string {
		const fsPath = uri.fsPath;
		// Git's changes lie under the root: the prefix is cut instead of asking `path.relative`,
		// which was most of translating a status of a branch switch's thousands of changes.
		const relative = fsPath.startsWith(this.rootPrefix) ? fsPath.slice(this.rootPrefix.length) : path.relative(this.root, fsPath);
		return path.sep === '/' ? relative : relative.split(path.sep).join('/');
	}

	/*
	 * Diffs through the extension's git binary, as the headless host makes them: the API's diffs
	 * run plain `git diff` under the user's config, so an external diff tool (`diff.external`, a
	 * `.gitattributes` driver's command) or colours made output no filter can read, with secret
	 * files' changes inside it.
	 */
	diff(staged: boolean, maxBytes: number): Promise<GitText> {
		return gitDiff(this.cli, this.root, staged ? ['--cached'] : [], maxBytes);
	}

	diffPath(repoPath: string, maxBytes: number): Promise<GitText> {
		return gitDiffOfPath(this.cli, this.root, repoPath, this.api.state.HEAD?.commit !== undefined, maxBytes);
	}

	async log(maxEntries: number): Promise<GitCommit[]> {
		if (!this.api.state.HEAD?.commit) {
			return [];
		}
		return (await this.api.log({ maxEntries })).map(toCommit);
	}

	async refs(): Promise<GitRef[]> {
		const refs = this.api.getRefs ? await this.api.getRefs({}) : this.api.state.refs;
		const head = this.api.state.HEAD;
		const out: GitRef[] = [];
		for (const ref of refs) {
			if (!ref.name || ref.name.endsWith('/HEAD')) {
				continue;
			}
			const kind = ref.type === GitRefType.Head ? 'branch' : ref.type === GitRefType.RemoteHead ? 'remote' : 'tag';
			const isHead = kind === 'branch' && ref.name === head?.name;
			out.push({
				name: ref.name,
				kind,
				...(ref.commit ? { commit: ref.commit } : {}),
				...(isHead && head?.upstream ? { upstream: `${head.upstream.remote}/${head.upstream.name}` } : {}),
				...(isHead && head?.ahead !== undefined ? { ahead: head.ahead } : {}),
				...(isHead && head?.behind !== undefined ? { behind: head.behind } : {}),
			});
		}
		return out;
	}

	async commit(ref: string): Promise<GitCommit | undefined> {
		if (ref.startsWith('-')) {
			return undefined;
		}
		let commit: GitCommit;
		try {
			commit = toCommit(await this.api.getCommit(ref));
		} catch {
			return undefined;
		}
		// The extension's git resolves through a clone's alternates like any git.
		return (await this.ownHistory.contains(commit.hash)) ? commit : undefined;
	}

	commitPatch(commit: GitCommit, maxBytes: number): Promise<GitText> {
		// API 1 has no call for a commit's whole patch; the extension's own git binary does it.
		return commitPatch(this.cli, this.root, commit, maxBytes);
	}

	async headCommit(): Promise<string | undefined> {
		return this.api.state.HEAD?.commit;
	}

	pathsChangedBetween(from: string, to: string, maxPaths: number): Promise<readonly GitFileChange[] | undefined> {
		// The API's diffBetween builds a Uri and a status per change; only the names are needed.
		return pathsChangedBetween(this.cli, this.root, from, to, maxPaths);
	}
}

const STATUS: Record<number, GitFileStatus | undefined> = {
	0: 'modified', 1: 'added', 2: 'deleted', 3: 'renamed', 4: 'copied',
	5: 'modified', 6: 'deleted', 7: 'untracked', 9: 'added', 10: 'renamed', 11: 'typeChanged',
	12: 'conflicted', 13: 'conflicted', 14: 'conflicted', 15: 'conflicted', 16: 'conflicted', 17: 'conflicted', 18: 'conflicted',
};

function toCommit(c: GitApiCommit): GitCommit {
	return {
		hash: c.hash,
		parents: c.parents,
		...(c.authorName !== undefined ? { authorName: c.authorName } : {}),
		...(c.authorEmail !== undefined ? { authorEmail: c.authorEmail } : {}),
		...(c.authorDate ? { authorDate: new Date(c.authorDate).toISOString() } : {}),
		message: withoutTrailing(c.message, '\n'),
	};
}
