import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { LogLevel, StreamLogger } from '../common/logger';
import { Bridge, NoServerError } from '../node/bridge/bridge';
import { installWarningFilter, RateLimitedLogger } from '../node/bridge/terminalLog';
import { parseLogLevel } from './serveArgs';
import { USAGE } from './usage';

/** `bridge`: a stdio server relaying to the window that serves a folder (see src/node/bridge/bridge.ts). */
export async function bridgeCommand(args: string[]): Promise<number | undefined> {
	if (args.includes('-h') || args.includes('--help')) {
		process.stdout.write(USAGE);
		return 0;
	}
	let values;
	try {
		values = parseArgs({ args, strict: true, allowPositionals: false, options: { workspace: { type: 'string' }, 'log-level': { type: 'string' } } }).values;
	} catch (err) {
		process.stderr.write(`error: ${(err as Error).message}\n\n${USAGE}`);
		return 2;
	}
	let logLevel: LogLevel;
	try {
		logLevel = parseLogLevel(values['log-level']);
	} catch (err) {
		process.stderr.write(`error: ${(err as Error).message}\n\n${USAGE}`);
		return 2;
	}
	const log = new RateLimitedLogger(new StreamLogger(line => process.stderr.write(`bridge: ${line}`), logLevel));
	installWarningFilter(log);
	const bridge = new Bridge({ workspace: path.resolve(values.workspace ?? process.cwd()), log });
	try {
		await bridge.start();
	} catch (err) {
		if (err instanceof NoServerError) {
			process.stderr.write(`mcp-workspace-resources bridge: ${err.message}\n`);
			return 1;
		}
		throw err;
	}
	const stop = () => void bridge.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	// Stdin ending closes the bridge once what was asked before is answered (see StdioTransport).
	void bridge.whenClosed().then(() => process.exit(0));
	return undefined;
}
