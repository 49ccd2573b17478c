import { GitCli, GitCommandError } from './gitProcess';

/** Config scopes that are the user's own choice; any other (the repository's) is the folder's. */
const USER_SCOPES = new Set(['global', 'system']);

/**
 * `-c` options that switch off the content filters a repository's own config defines (its
 * `.git/config`, what that includes, `config.worktree`). Git runs a driver's `clean` or `process`
 * command on a status or a diff of the working tree for every file `.gitattributes` gives that
 * driver, so a folder's `.git` could name a command we would run. Drivers from the user's own
 * config (git-lfs, usually) stay: the user chose them. A driver that cannot be switched off (its
 * name holds `=`, which `-c` cannot express) fails the call rather than run.
 */
export async function repositoryFilterOverrides(cli: GitCli, root: string): Promise<string[]> {
	let stdout: string;
	try {
		({ stdout } = await cli.run(root, ['config', '--show-scope', '-z', '--get-regexp', '^filter\\.']));
	} catch (err) {
		if (err instanceof GitCommandError && err.exitCode === 1) {
			return []; // no filter driver is configured anywhere
		}
		throw err;
	}
	// `-z`: the scope, NUL, then the key, a line break and the value, NUL.
	const fields = stdout.split('\0');
	const drivers = new Set<string>();
	for (let i = 0; i + 1 < fields.length; i += 2) {
		const key = fields[i + 1].split('\n')[0];
		const driver = key.slice('filter.'.length, key.lastIndexOf('.'));
		if (!USER_SCOPES.has(fields[i]) && key.startsWith('filter.') && driver !== '') {
			drivers.add(driver);
		}
	}
	const overrides: string[] = [];
	for (const driver of drivers) {
		if (driver.includes('=')) {
			throw new Error('the repository\'s own config names a content filter that cannot be switched off');
		}
		for (const setting of ['clean=', 'smudge=', 'process=', 'required=false']) {
			overrides.push('-c', `filter.${driver}.${setting}`);
		}
	}
	return overrides;
}
