import { GitCommit, GitText } from '../../core/git/ports';
import { GitCli } from './gitProcess';

/** What `git diff` compares a root commit with. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** A patch from `git diff` in `root`, plain (no colour, external diff or text conversion), cut at `maxBytes`. */
export async function gitDiff(cli: GitCli, root: string, args: readonly string[], maxBytes: number): Promise<GitText> {
	const { stdout, truncated } = await cli.run(root, [
		'diff', '--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/', '--submodule=short', ...args,
	], maxBytes);
	return { text: stdout, truncated };
}

/**
 * A commit's whole patch against its first parent (the empty tree for a root commit). Shared by
 * both hosts: the vscode.git API has no call for it, so the editor's adapter runs its git binary too.
 */
export function commitPatch(cli: GitCli, root: string, commit: GitCommit, maxBytes: number): Promise<GitText> {
	const parent = commit.parents[0] ?? EMPTY_TREE;
	return gitDiff(cli, root, ['-M', parent, commit.hash], maxBytes);
}
