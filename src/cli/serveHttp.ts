import * as path from 'node:path';
import { ServerRunner } from '../mcp/serverRunner';
import { fixedToolSwitch } from '../mcp/tools/toolSwitch';
import { startHeadlessProcess } from './headlessProcess';
import { ServeArgs } from './serveArgs';

/**
 * `serve --http`: the headless host on loopback HTTP, with a lock file so the bridge finds it,
 * until a signal. Prints `{url, token}` as the first stdout line. Required by src/cli.ts only
 * for `serve --http` (see esbuild.mjs).
 */
export async function serveHttp(args: ServeArgs): Promise<void> {
	const host = startHeadlessProcess(args);
	const runner = new ServerRunner({
		registry: host.registry, log: host.log, hostKind: 'headless', tools: fixedToolSwitch(args.tools),
		port: () => args.port,
		workspaceFolders: () => args.roots.map(r => path.resolve(r)),
	});
	host.onStop(() => runner.dispose());
	host.onStop(() => runner.stop());
	await runner.start();
	const state = runner.state;
	if (state.kind !== 'running') {
		// The runner has logged the cause; the caller prints this and exits 1.
		throw new Error(state.kind === 'error' ? state.message : 'the server did not start');
	}
	process.stdout.write(JSON.stringify({ url: state.info.url, token: state.info.token }) + '\n');
}
