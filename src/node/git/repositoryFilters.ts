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
	const drivers = new Set<string>();
	for (const [scope, key] of await filterKeys(cli, root)) {
		const driver = key.slice('filter.'.length, key.lastIndexOf('.'));
		if (!USER_SCOPES.has(scope) && key.startsWith('filter.') && driver !== '') {
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

/** Each `filter.*` key set in any config, with its scope. */
async function filterKeys(cli: GitCli, root: string): Promise<[scope: string, key: string][]> {
	const query = async (args: string[]) => {
		try {
			return (await cli.run(root, ['config', ...args, '-z', '--get-regexp', '^filter\\.'])).stdout.split('\0');
		} catch (err) {
			if (err instanceof GitCommandError && err.exitCode === 1) {
				return []; // no such key
			}
			throw err;
		}
	};
	// `-z` prints each key, a line break and its value, then NUL; `--show-scope` puts the scope and a NUL first.
	const keyOf = (field: string) => field.split('\n')[0];
	let fields: string[];
	try {
		fields = await query(['--show-scope']);
	} catch {
		// git before 2.26 has no --show-scope: every key the repository's own config holds is its.
		return (await query(['--local', '--includes'])).filter(f => f !== '').map(f => ['local', keyOf(f)]);
	}
	const keys: [string, string][] = [];
	for (let i = 0; i + 1 < fields.length; i += 2) {
		keys.push([fields[i], keyOf(fields[i + 1])]);
	}
	return keys;
}
