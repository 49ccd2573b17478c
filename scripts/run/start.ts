#!/usr/bin/env node
// `npm start [FOLDER] [-- --port N]`: try the extension in a real VS Code without installing one.
// Builds and packages the extension, provisions code-server if needed, installs the .vsix into
// a private code-server on 127.0.0.1 and opens FOLDER (default: the directory npm was run from).
// Your environment reaches the extension host; MCP lock files go to the usual discovery home so
// local MCP clients find the server. Ctrl-C stops everything this started. The npm script
// installs the project's packages first (scripts/bootstrap/ensureDependencies.mjs).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureProvisioned } from '../lib/vscodeEnv.js';
import { startCodeServer, type CodeServer } from '../lib/codeServer.js';
import { failureText } from '../lib/errorText.js';
import { descendants, isAlive, onInterrupt } from '../lib/processes.js';
import { packageExtension } from '../lib/project.js';

const USAGE = 'usage: npm start [FOLDER] [-- --port N]';

/** A command line `npm start` cannot run: said in one line with the usage, not a stack trace. */
class StartUsageError extends Error {}

/** A step of `npm start` that failed after showing its own output: one line says what to do next. */
class StartStepError extends Error {}

function parseArgs(argv: readonly string[]): { folder?: string; port?: number } {
	const options: { folder?: string; port?: number } = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--port') {
			options.port = Number(argv[++i]);
		} else if (arg.startsWith('--port=')) {
			options.port = Number(arg.slice('--port='.length));
		} else if (arg === '-h' || arg === '--help') {
			console.log(USAGE);
			process.exit(0);
		} else if (!options.folder) {
			options.folder = arg;
		} else {
			throw new StartUsageError(`unexpected argument ${arg}`);
		}
	}
	if (options.port !== undefined && !(Number.isInteger(options.port) && options.port > 0 && options.port < 65536)) {
		throw new StartUsageError('--port needs a number between 1 and 65535');
	}
	return options;
}

async function main(): Promise<number> {
	const options = parseArgs(process.argv.slice(2));
	const callerCwd = process.env.INIT_CWD || process.cwd();
	const asked = path.resolve(callerCwd, options.folder ?? '.');
	const folder = fs.existsSync(asked) ? fs.realpathSync(asked) : undefined;
	if (!folder || !fs.statSync(folder).isDirectory()) { throw new StartUsageError(`${asked} is not a folder`); }

	await ensureProvisioned();
	let vsix: string;
	try {
		vsix = await packageExtension();
	} catch {
		throw new StartStepError('building or packaging the extension failed; its output is above. Fix what it says, then run npm start again.');
	}

	const discoveryHome = process.env.MCP_WORKSPACE_RESOURCES_HOME
		? path.resolve(process.env.MCP_WORKSPACE_RESOURCES_HOME)
		: path.join(os.homedir(), '.mcp-workspace-resources');

	// The extension host is killed with code-server and cannot remove its lock file: remember the
	// pids of our process tree and remove their lock files (and only theirs) once they are gone.
	const ourPids = new Set<number>();
	const removeOurLockFiles = () => {
		for (const pid of ourPids) {
			const file = path.join(discoveryHome, 'servers', `${pid}.json`);
			if (fs.existsSync(file) && !isAlive(pid)) { fs.rmSync(file, { force: true }); }
		}
	};
	// Set once started; `stop` (on an interrupt) may run before that.
	let server: CodeServer | undefined = undefined;
	let stopping = false;
	const stop = async () => {
		stopping = true;
		if (server?.pid !== undefined) { for (const pid of descendants(server.pid)) { ourPids.add(pid); } }
		await server?.stop();
		removeOurLockFiles();
	};
	onInterrupt(stop);
	try {
		server = await startCodeServer({
			workspace: folder,
			port: options.port,
			inheritEnv: true,
			containHome: false,
			env: { MCP_WORKSPACE_RESOURCES_HOME: discoveryHome },
			installExtensions: [vsix],
		});
	} catch (err) {
		// The first line says what failed; the rest is code-server's own output, shown before the advice.
		const [first, ...details] = failureText(err).split('\n');
		if (details.some(line => line.trim() !== '')) { console.error(details.join('\n').trimEnd()); }
		const port = options.port === undefined ? '' : ` Is port ${options.port} taken? Pick another with -- --port N.`;
		throw new StartStepError(`code-server did not start (${first}).${port} If it keeps failing, reinstall it with npm run provision -- --force, then run npm start again.`);
	}

	console.log([
		'',
		'MCP Workspace Resources is running in code-server (VS Code in your browser).',
		`  Open:        ${server.workbenchUrl()}`,
		`  Folder:      ${folder}`,
		`  Lock file:   ${path.join(discoveryHome, 'servers')}${path.sep}<extension host pid>.json` +
			` (${process.env.MCP_WORKSPACE_RESOURCES_HOME ? '$MCP_WORKSPACE_RESOURCES_HOME' : 'default; set MCP_WORKSPACE_RESOURCES_HOME to move it'}),` +
			' written once the page is open',
		`  Server log:  ${server.logFile}`,
		'Press Ctrl-C to stop.',
		'',
	].join('\n'));

	const serverPid = server.pid;
	const watcher = setInterval(() => { if (serverPid !== undefined) { for (const pid of descendants(serverPid)) { ourPids.add(pid); } } }, 2000);
	await server.exited;
	clearInterval(watcher);
	if (stopping) { return new Promise<never>(() => { /* the interrupt handler exits */ }); }
	console.error('code-server exited on its own.');
	await stop();
	return 1;
}

try {
	process.exitCode = await main();
} catch (err) {
	if (err instanceof StartUsageError) {
		console.error(`[start] ${err.message}\n${USAGE}`);
		process.exitCode = 2;
	} else {
		console.error(`[start] FAILED: ${failureText(err)}`);
		process.exitCode = 1;
	}
}
