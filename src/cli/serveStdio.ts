import { serveStdioConnection } from '../mcp/stdio/serveStdioConnection';
import { StdioTransport } from '../mcp/stdio/stdioTransport';
import { fixedToolSwitch } from '../mcp/tools/toolSwitch';
import { startHeadlessProcess } from './headlessProcess';
import { ServeArgs } from './serveArgs';

/**
 * `serve --stdio`: the headless host over stdin/stdout until a signal or until stdin closes.
 * Required by src/cli.ts only for `serve --stdio`, and evaluated with what it imports alone (see
 * esbuild.mjs), so a stdio server never loads the HTTP stack or the bridge's client.
 */
export function serveStdio(args: ServeArgs): void {
	const host = startHeadlessProcess(args);
	const wire = new StdioTransport(process.stdin, process.stdout);
	// Once stdin has ended and what was asked before is answered (or the wire failed).
	void wire.whenClosed().then(() => host.stop(0));
	const stdio = serveStdioConnection({ registry: host.registry, log: host.log, tools: fixedToolSwitch(args.tools) }, wire);
	host.onStop(() => stdio.close());
	host.log.info(`serving ${args.roots.join(', ')} over stdio`);
}
