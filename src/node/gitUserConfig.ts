import * as os from 'node:os';
import * as path from 'node:path';
import { GitUserConfig } from '../core/ports';

/**
 * Where git reads its user-level configuration on this machine, by git's own rules: the system
 * file (`GIT_CONFIG_SYSTEM`, or /etc/gitconfig; none with `GIT_CONFIG_NOSYSTEM`; on Windows its
 * place depends on the install and it is not read), then the global files (`GIT_CONFIG_GLOBAL`,
 * or `$XDG_CONFIG_HOME/git/config` then `~/.gitconfig`). Undefined without a home directory.
 */
export function gitUserConfig(env: NodeJS.ProcessEnv = process.env, home = os.homedir(), platform: NodeJS.Platform = process.platform): GitUserConfig | undefined {
	if (!home) {
		return undefined;
	}
	const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
	const noSystem = env.GIT_CONFIG_NOSYSTEM !== undefined && !/^(|0|false|no|off)$/i.test(env.GIT_CONFIG_NOSYSTEM);
	const system = noSystem ? [] : env.GIT_CONFIG_SYSTEM ? [env.GIT_CONFIG_SYSTEM] : platform === 'win32' ? [] : ['/etc/gitconfig'];
	const global = env.GIT_CONFIG_GLOBAL ? [env.GIT_CONFIG_GLOBAL] : [path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')];
	return { configFiles: [...system, ...global], home, defaultExcludesFile: path.join(xdg, 'git', 'ignore') };
}
