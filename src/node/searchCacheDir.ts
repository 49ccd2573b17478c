import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Where the headless host keeps the search index of these folders unless told: under the user's
 * cache directory (`$XDG_CACHE_HOME`, else `~/.cache`), one folder per set of roots, named by a
 * hash of their sorted real paths so that two spellings of the same folders share it.
 */
export function defaultSearchCacheDir(roots: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
	const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
	const real = roots.map(root => {
		try {
			return realpathSync(root);
		} catch {
			return path.resolve(root);
		}
	}).sort();
	const hash = createHash('sha256').update(real.join('\0')).digest('hex').slice(0, 16);
	return path.join(base, 'mcp-workspace-resources', 'search', hash);
}
