// A cache folder of its own for each server of ours the scripts start (benches, outside checks):
// the search index's cache then never lands in the user's (~/.cache/mcp-workspace-resources/search),
// and no server reads what an earlier one of the same run left, which would turn its index build
// into a cache read and skew what the run measures. Set as XDG_CACHE_HOME, not --cache-dir:
// previous builds the bench runs beside this one honour the variable and may not know the flag.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { killAtExit } from './processes.js';

export interface PrivateServerCache {
	/** To spread into the server's environment. */
	readonly env: { readonly XDG_CACHE_HOME: string };
	/** Removes the folder (once the server is gone; at this process's exit otherwise). */
	remove(): void;
}

export function privateServerCache(): PrivateServerCache {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwr-server-cache-'));
	const remove = () => rmSync(dir, { recursive: true, force: true });
	const untrack = killAtExit(remove);
	return {
		env: { XDG_CACHE_HOME: dir },
		remove: () => {
			untrack();
			remove();
		},
	};
}
