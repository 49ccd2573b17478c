import * as path from 'node:path';
import { GitCli } from './gitProcess';

/** Where a repository keeps its state (worktrees have a private and a common git dir). */
export interface GitLocation {
	readonly root: string;
	readonly gitDir: string;
	readonly commonDir: string;
}

/** The repository that contains `folder`, or undefined when there is none (or no git). */
export async function locateRepository(cli: GitCli, folder: string): Promise<GitLocation | undefined> {
	try {
		const { stdout } = await cli.run(folder, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir']);
		const [root, gitDir, commonDir] = stdout.split('\n');
		if (!root || !gitDir || !commonDir) {
			return undefined;
		}
		return { root: path.resolve(root), gitDir: path.resolve(gitDir), commonDir: path.resolve(folder, commonDir) };
	} catch {
		return undefined; // not a repository (or a bare one), or no git
	}
}
