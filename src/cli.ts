import { statSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { StreamLogger } from './common/logger';
import { DEFAULT_MAX_FILE_SIZE } from './core/ports';
import { ServerRunner } from './mcp/serverRunner';
import { serveStdioEras } from './mcp/stdioHost';
import { answerInvalidLines } from './mcp/stdioFraming';
import { Bridge, NoServerError } from './node/bridge/bridge';
import { installWarningFilter, RateLimitedLogger } from './node/bridge/terminalLog';
import { createHeadlessRegistry } from './node/headless';
import { VERSION } from './version';

const USAGE = `mcp-workspace-resources ${VERSION}

Usage:
  node dist/cli.js serve --root DIR [--root DIR ...] (--stdio | --http [--port N]) [options]

Serves the files under each DIR as MCP resources, without an editor.

  --root DIR            a folder to serve (repeat for several)
  --stdio               speak MCP on stdin/stdout (for clients that start the server)
  --http                serve Streamable HTTP on 127.0.0.1; prints {"url","token"} as the first stdout line
  --port N              port for --http (default: a free port chosen by the OS)
  --exclude GLOB        also hide paths matching GLOB, relative to each root (repeatable)
  --secret PATTERN      add a .gitignore-style pattern to the secrets deny-list (repeatable)
  --no-gitignore        serve files that .gitignore ignores (secrets stay hidden)
  --max-file-size BYTES largest file resources/read returns (default ${DEFAULT_MAX_FILE_SIZE})
  --log-level LEVEL     debug | info | warn | error (default info; logs go to stderr)
  -h, --help            show this help
  -v, --version         print the version

  node dist/cli.js bridge [--workspace DIR] [--log-level LEVEL]

Speaks MCP on stdin/stdout and relays to the running VS Code window (or headless --http server)
whose workspace contains DIR (default: the current directory), found through the lock files in
$MCP_WORKSPACE_RESOURCES_HOME (default ~/.mcp-workspace-resources). For clients that only start
stdio servers (Claude Desktop, ...). Follows the window across restarts. Exits 1 when no window
serves DIR.
`;

class UsageError extends Error {}

interface ServeArgs {
	roots: string[];
	mode: 'stdio' | 'http';
	port: number;
	exclude: string[];
	secrets: string[];
	respectGitignore: boolean;
	maxFileSize: number;
	logLevel: 'debug' | 'info' | 'warn' | 'error';
}

function parseInteger(value: string, name: string, min: number, max: number): number {
	if (!/^\d+$/.test(value)) {
		throw new UsageError(`${name} must be a whole number, got "${value}"`);
	}
	const n = Number(value);
	if (n < min || n > max) {
		throw new UsageError(`${name} must be between ${min} and ${max}`);
	}
	return n;
}

function parseServeArgs(args: string[]): ServeArgs {
	let parsed;
	try {
		parsed = parseArgs({
			args,
			strict: true,
			allowPositionals: false,
			options: {
				root: { type: 'string', multiple: true },
				stdio: { type: 'boolean' },
				http: { type: 'boolean' },
				port: { type: 'string' },
				exclude: { type: 'string', multiple: true },
				secret: { type: 'string', multiple: true },
				'no-gitignore': { type: 'boolean' },
				'max-file-size': { type: 'string' },
				'log-level': { type: 'string' },
			},
		});
	} catch (err) {
		throw new UsageError((err as Error).message);
	}
	const v = parsed.values;
	const roots = v.root ?? [];
	if (roots.length === 0) {
		throw new UsageError('at least one --root DIR is required');
	}
	for (const root of roots) {
		let isDir = false;
		try {
			isDir = statSync(root).isDirectory();
		} catch {
			// reported below
		}
		if (!isDir) {
			throw new UsageError(`--root ${root}: not a directory`);
		}
	}
	if (!!v.stdio === !!v.http) {
		throw new UsageError('choose exactly one of --stdio and --http');
	}
	if (v.port !== undefined && !v.http) {
		throw new UsageError('--port needs --http');
	}
	const logLevel = v['log-level'] ?? 'info';
	if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
		throw new UsageError('--log-level must be debug, info, warn or error');
	}
	return {
		roots,
		mode: v.stdio ? 'stdio' : 'http',
		port: v.port === undefined ? 0 : parseInteger(v.port, '--port', 0, 65535),
		exclude: v.exclude ?? [],
		secrets: v.secret ?? [],
		respectGitignore: !v['no-gitignore'],
		maxFileSize: v['max-file-size'] === undefined ? DEFAULT_MAX_FILE_SIZE : parseInteger(v['max-file-size'], '--max-file-size', 1, Number.MAX_SAFE_INTEGER),
		logLevel: logLevel as ServeArgs['logLevel'],
	};
}

async function serve(args: ServeArgs): Promise<void> {
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
		const wire = new StdioServerTransport(answerInvalidLines(process.stdin, process.stdout), process.stdout);
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

/** `bridge`: a stdio server relaying to the window that serves a folder (see src/node/bridge.ts). */
async function bridgeCommand(args: string[]): Promise<number | undefined> {
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
	const logLevel = values['log-level'] ?? 'info';
	if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
		process.stderr.write(`error: --log-level must be debug, info, warn or error\n\n${USAGE}`);
		return 2;
	}
	const log = new RateLimitedLogger(new StreamLogger(line => process.stderr.write(`bridge: ${line}`), logLevel as ServeArgs['logLevel']));
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
	process.stdin.on('end', stop);
	void bridge.whenClosed().then(() => process.exit(0));
	return undefined;
}

export async function main(argv: string[]): Promise<number | undefined> {
	const [command, ...rest] = argv;
	if (command === '-h' || command === '--help' || command === 'help') {
		process.stdout.write(USAGE);
		return 0;
	}
	if (command === '-v' || command === '--version') {
		process.stdout.write(`${VERSION}\n`);
		return 0;
	}
	if (command === 'bridge') {
		return bridgeCommand(rest);
	}
	if (command !== 'serve') {
		process.stderr.write(`${command ? `unknown command "${command}"` : 'no command given'}\n\n${USAGE}`);
		return 2;
	}
	if (rest.includes('-h') || rest.includes('--help')) {
		process.stdout.write(USAGE);
		return 0;
	}
	let args: ServeArgs;
	try {
		args = parseServeArgs(rest);
	} catch (err) {
		if (err instanceof UsageError) {
			process.stderr.write(`error: ${err.message}\n\n${USAGE}`);
			return 2;
		}
		throw err;
	}
	await serve(args);
	return undefined; // keeps running until a signal or stdin closes
}

if (require.main === module) {
	main(process.argv.slice(2)).then(
		code => {
			if (code !== undefined) {
				process.exitCode = code;
			}
		},
		err => {
			process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
			process.exit(1);
		},
	);
}
