import { readFile, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { Logger } from '../../common/logger';
import { isInsideFolder } from '../../common/pathContainment';
import { GitCli } from './gitProcess';

/** Where a repository keeps its state (worktrees have a private and a common git dir). */
export interface GitLocation {
	readonly root: string;
	readonly gitDir: string;
	readonly commonDir: string;
}

/**
 * The repository that contains `folder`, or undefined when there is none (or no git), or when
 * its git directory is not its own (see `belongsToWorkTree`).
 */
export async function locateRepository(cli: GitCli, folder: string, log?: Logger): Promise<GitLocation | undefined> {
	let location: GitLocation;
	try {
		const { stdout } = await cli.run(folder, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir']);
		const [root, gitDir, commonDir] = stdout.split('\n');
		if (!root || !gitDir || !commonDir) {
			return undefined;
		}
		location = { root: path.resolve(root), gitDir: path.resolve(gitDir), commonDir: path.resolve(folder, commonDir) };
	} catch {
		return undefined; // not a repository (or a bare one), or no git
	}
	if (!(await belongsToWorkTree(cli, location))) {
		log?.warn(`git: ${path.basename(location.root)}/.git names a git directory outside it that does not name it back; its git state is not served`);
		return undefined;
	}
	return location;
}

/**
 * Whether a git directory belongs to the work tree git found it from. A folder's `.git` file (or
 * link, or a `.git` directory whose `commondir` points out) can name any repository's git
 * directory on the machine, and git would then show that repository's history as the folder's.
 * Kept: a repository whose state is all inside the work tree; a linked worktree's git directory,
 * whose `gitdir` file names the work tree back; a submodule's in its superproject, whose
 * `core.worktree` is how git found the work tree. What names the work tree back must lie
 * outside it, where the folder cannot write. (A repository made with `--separate-git-dir` names
 * nothing back, and is not served.)
 */
async function belongsToWorkTree(cli: GitCli, location: GitLocation): Promise<boolean> {
	let root: string;
	let gitDir: string;
	let commonDir: string;
	try {
		[root, gitDir, commonDir] = await Promise.all([location.root, location.gitDir, location.commonDir].map(p => realpath(p)));
	} catch {
		return false;
	}
	if (isInsideFolder(root, commonDir)) {
		return true;
	}
	if (isInsideFolder(root, gitDir)) {
		return false; // the folder's own git directory, sharing another repository's refs and objects
	}
	try {
		const backLink = (await readFile(path.join(gitDir, 'gitdir'), 'utf8')).trim();
		if (await realpath(path.dirname(path.resolve(gitDir, backLink))) === root) {
			return true;
		}
	} catch {
		// not a linked worktree's git directory
	}
	try {
		await cli.run(root, ['config', '--local', '--get', 'core.worktree']);
		return true;
	} catch {
		return false; // unset (exit 1), or unreadable
	}
}
