import * as path from 'node:path';
import { StreamLogger } from '../common/logger';
import { ServerRunner } from '../mcp/serverRunner';
import { serveStdioEras } from '../mcp/stdioHost';
import { StdioWire } from '../mcp/stdioWire';
import { createHeadlessRegistry } from '../node/headless';
import { ServeArgs } from './serveArgs';

/**
 * `serve`: the headless host on the given folders, over stdio or HTTP (then with a lock file, so
 * the bridge finds it). Runs until a signal, or until stdin closes on stdio.
 */
export async function serve(args: ServeArgs): Promise<void> {
	const log = new StreamLogger(line => process.stderr.write(line), args.logLevel);
	const { registry } = createHeadlessRegistry({ ...args, log });
	const cleanups: (() => Promise<void> | void)[] = [];
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) {
			return;
		}
		stopping = true;
		for (const cleanup of cleanups.reverse()) {
			try {
				await cleanup();
			} catch (err) {
				log.error('shutdown step failed', err);
			}
		}
		registry.dispose();
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));

	if (args.mode === 'stdio') {
		const wire = new StdioWire(process.stdin, process.stdout);
		process.stdin.on('end', () => void stop(0));
		const stdio = serveStdioEras({ registry, log }, wire);
		cleanups.push(() => stdio.close());
		log.info(`serving ${args.roots.join(', ')} over stdio`);
		return;
	}

	const runner = new ServerRunner({
		registry, log, hostKind: 'headless',
		port: () => args.port,
		workspaceFolders: () => args.roots.map(r => path.resolve(r)),
	});
	cleanups.push(() => runner.dispose());
	cleanups.push(() => runner.stop());
	await runner.start();
	const state = runner.state;
	if (state.kind !== 'running') {
		// The runner has logged the cause; the caller prints this and exits 1.
		throw new Error(state.kind === 'error' ? state.message : 'the server did not start');
	}
	process.stdout.write(JSON.stringify({ url: state.info.url, token: state.info.token }) + '\n');
}
