import { GitCommit, GitFileChange, GitText } from '../../core/git/ports';
import { GitCli } from './gitProcess';

/** What `git diff` compares a root commit with. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * A patch from `git diff` in `root`, plain (no colour, external diff or text conversion), cut at
 * `maxBytes`; `config` is `-c` options for this call (see `repositoryFilterOverrides`). A
 * submodule shows only a moved commit, as in status: looking into its working tree would run git
 * there, under the submodule's own config, which our options do not reach.
 */
export async function gitDiff(cli: GitCli, root: string, args: readonly string[], maxBytes: number, config: readonly string[] = []): Promise<GitText> {
	const { stdout, truncated } = await cli.run(root, [
		...config, 'diff', '--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/', '--submodule=short', '--ignore-submodules=dirty', ...args,
	], maxBytes);
	return { text: stdout, truncated };
}

/**
 * One path's uncommitted changes (staged and unstaged) against HEAD; before the first commit
 * (`hasHead` false), the staged changes (against the empty tree), then the unstaged ones.
 */
export async function gitDiffOfPath(cli: GitCli, root: string, repoPath: string, hasHead: boolean, maxBytes: number, config: readonly string[] = []): Promise<GitText> {
	const spec = ['--', `:(literal)${repoPath}`];
	if (hasHead) {
		return gitDiff(cli, root, ['HEAD', ...spec], maxBytes, config);
	}
	const staged = await gitDiff(cli, root, ['--cached', ...spec], maxBytes, config);
	const unstaged = await gitDiff(cli, root, spec, maxBytes, config);
	return { text: staged.text + unstaged.text, truncated: staged.truncated || unstaged.truncated };
}

/**
 * A commit's whole patch against its first parent (the empty tree for a root commit). Shared by
 * both hosts: the vscode.git API has no call for it, so the editor's adapter runs its git binary too.
 */
export function commitPatch(cli: GitCli, root: string, commit: GitCommit, maxBytes: number): Promise<GitText> {
	const parent = commit.parents[0] ?? EMPTY_TREE;
	return gitDiff(cli, root, ['-M', parent, commit.hash], maxBytes);
}

/** Bytes allowed per path of `pathsChangedBetween`'s output: long paths fit, a runaway list is cut. */
const BYTES_PER_CHANGED_PATH = 256;

/**
 * The paths that differ between two commits, with `git diff --name-status` in `root`; undefined
 * when there are more than `maxPaths`. Renames are not detected: a rename's old path is deleted.
 */
export async function pathsChangedBetween(cli: GitCli, root: string, from: string, to: string, maxPaths: number): Promise<readonly GitFileChange[] | undefined> {
	for (const commit of [from, to]) {
		if (!/^[0-9a-f]{40,64}$/.test(commit)) {
			throw new Error('pathsChangedBetween takes commit hashes');
		}
	}
	const { stdout, truncated } = await cli.run(root, [
		'diff', '--name-status', '--no-renames', '--no-relative', '--no-ext-diff', '-z', from, to, '--',
	], maxPaths * BYTES_PER_CHANGED_PATH);
	if (truncated) {
		return undefined;
	}
	// `-z` output: a status letter, then the path, each ended by NUL.
	const fields = stdout.split('\0');
	const changes: GitFileChange[] = [];
	for (let i = 0; i + 1 < fields.length && changes.length <= maxPaths; i += 2) {
		changes.push({ path: fields[i + 1], status: NAME_STATUS[fields[i]] ?? 'modified' });
	}
	return changes.length > maxPaths ? undefined : changes;
}

const NAME_STATUS: Record<string, GitFileChange['status'] | undefined> = { A: 'added', D: 'deleted', M: 'modified', T: 'typeChanged' };
