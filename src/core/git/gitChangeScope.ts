import { GitRepositoryChange } from './ports';

/**
 * Whether a repository's resource can show something different after `change`; `rest` is the
 * URI after `git://{repo}/` (`status`, `diff`, `diff/staged`, `log`, `branches`, `diff/{path}`,
 * `show/{ref}`). What each one compares decides it:
 * - status: branch and upstream (HEAD, refs), staged paths (index), unstaged ones (working tree);
 * - diff, the working tree against the index: either side;
 * - diff/staged, the index against HEAD: either side;
 * - log and branches: HEAD and refs only;
 * - diff/{path}, the working tree against HEAD (before the first commit the index too): any;
 * - show/{ref}: what a ref names moves with refs only.
 */
export function changedBy(change: GitRepositoryChange, rest: string): boolean {
	switch (rest) {
		case 'status': return true;
		case 'diff': return change.workingTree || change.index;
		case 'diff/staged': return change.index || change.history;
		case 'log':
		case 'branches': return change.history;
	}
	if (rest.startsWith('show/')) {
		return change.history;
	}
	return true; // diff/{path}, and anything not named above: say more, never less
}
