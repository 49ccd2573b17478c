import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { answerInvalidLines } from '../mcp/stdioFraming';
import { serveStdioEras } from '../mcp/stdioHost';
import { startHeadlessProcess } from './headlessProcess';
import { ServeArgs } from './serveArgs';

/**
 * `serve --stdio`: the headless host over stdin/stdout until a signal or until stdin closes. Its
 * own bundle (dist/cli/serveStdio.js, see esbuild.mjs), so a stdio server never loads the HTTP
 * stack or the bridge's client.
 */
export function serveStdio(args: ServeArgs): void {
	const host = startHeadlessProcess(args);
	const wire = new StdioServerTransport(answerInvalidLines(process.stdin, process.stdout), process.stdout);
	process.stdin.on('end', () => void host.stop(0));
	const stdio = serveStdioEras({ registry: host.registry, log: host.log }, wire);
	host.onStop(() => stdio.close());
	host.log.info(`serving ${args.roots.join(', ')} over stdio`);
}
