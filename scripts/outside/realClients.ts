// Real AI clients from npm (pinned) list and read the headless host's resources, each driven by a
// local stand-in for its model API (script.ts, *StandIn.ts): over stdio (`serve --stdio`), over
// Streamable HTTP with the bearer token, and through the bridge, configured with each client's own
// `mcp add` command: for the HTTP and bridge runs, the very lines "Connect a Client..." generates
// (src/vscode/clientConfigs.ts, bundled here from the source).
//
// Isolation (clientRun.ts): each client run gets its own HOME and XDG folders, an environment
// that carries none of the caller's variables but PATH and the locale, every base URL on
// 127.0.0.1, telemetry and auto-update off, and HTTP(S)_PROXY set to a loopback sink that refuses
// everything (offMachineSink.ts), so anything a client tries to reach off the machine fails at
// once instead of leaving it, and the run lists what was tried. Every run is bounded and its whole
// process tree (the client and the servers it started) is stopped at the end.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkClaudeCode } from './claudeCode.js';
import type { ClientContext, ClientSetup } from './clientRun.js';
import type { RecordResult } from './context.js';
import { checkCodex } from './codexCli.js';
import { checkCopilot } from './copilotCli.js';
import { checkGemini } from './geminiCli.js';
import { startOffMachineSink } from './offMachineSink.js';

export const REAL_CLIENT_VERSIONS = {
	'@anthropic-ai/claude-code': '2.1.330',
	'@openai/codex': '0.169.0',
	'@google/gemini-cli': '0.61.0',
	'@github/copilot': '1.0.102',
};

/** The client executables inside the tools folder (the npm packages' platform binaries). */
export function realClientPaths(cache: string): ClientContext['clients'] {
	const modules = path.join(cache, 'node_modules');
	return {
		// The package's bin/claude.exe is a placeholder its postinstall replaces; the binary is here.
		claude: path.join(modules, '@anthropic-ai', 'claude-code-linux-x64', 'claude'),
		// The launcher finds its platform binary and puts its helpers (rg) on the PATH.
		codex: path.join(modules, '@openai', 'codex', 'bin', 'codex.js'),
		gemini: path.join(modules, '@google', 'gemini-cli', 'bundle', 'gemini.js'),
		// The package's npm-loader.js only finds and runs this platform binary.
		copilot: path.join(modules, '@github', 'copilot-linux-x64', 'copilot'),
	};
}

/** The product's own client configurations, bundled from src/vscode/clientConfigs.ts. */
async function loadClientConfigs(root: string, tmp: string): Promise<typeof import('../../src/vscode/clientConfigs.js')> {
	const { build } = await import('esbuild');
	const outfile = path.join(tmp, 'clientConfigs.mjs');
	await build({ entryPoints: [path.join(root, 'src', 'vscode', 'clientConfigs.ts')], bundle: true, format: 'esm', platform: 'node', outfile, logLevel: 'silent' });
	return import(pathToFileURL(outfile).href) as Promise<typeof import('../../src/vscode/clientConfigs.js')>;
}

/** The running host's URL and token, read from its lock file as a client's setup would. */
function lockFileOf(home: string, pid: number): { url: string; token: string } {
	const file = path.join(home, 'servers', `${pid}.json`);
	if (!existsSync(file)) {
		throw new Error(`no lock file for the host (pid ${pid}) in ${path.join(home, 'servers')}: ${readdirSync(path.join(home, 'servers')).join(', ')}`);
	}
	return JSON.parse(readFileSync(file, 'utf8')) as { url: string; token: string };
}

/** What the runner hands the real-client stage. */
export interface RealClientsContext {
	root: string;
	/** The outside tools folder. */
	cache: string;
	tmp: string;
	fixture: string;
	/** The host's MCP_WORKSPACE_RESOURCES_HOME. */
	home: string;
	hostPid: number;
	record: RecordResult;
	verbose: boolean;
	/** One client name (claude, codex, gemini), or all. */
	only?: string;
}

/** Runs the real-client checks, one client at a time. */
export async function realClientChecks(ctx: RealClientsContext): Promise<void> {
	const { bridgeCommand, buildClientConfig, DEFAULT_SERVER_NAME } = await loadClientConfigs(ctx.root, ctx.tmp);
	const lock = lockFileOf(ctx.home, ctx.hostPid);
	const cliPath = path.join(ctx.root, 'dist', 'cli.js');
	const { command, args } = bridgeCommand({ cliPath, workspaceFolder: ctx.fixture });
	const commandLines = (kind: 'claudeCode' | 'codex' | 'gemini' | 'copilotCli') =>
		buildClientConfig(kind, { cliPath, workspaceFolder: ctx.fixture, url: lock.url, token: lock.token }).copy.split('\n').filter(line => line !== '' && !line.startsWith('#'));
	const setup: ClientSetup = {
		stdio: [process.execPath, cliPath, 'serve', '--root', ctx.fixture, '--stdio'],
		bridge: [command, ...args],
		configLines: { claude: commandLines('claudeCode'), codex: commandLines('codex'), gemini: commandLines('gemini'), copilot: commandLines('copilotCli') },
	};
	const sink = await startOffMachineSink();
	const c: ClientContext = { ...ctx, lock, sink, serverName: DEFAULT_SERVER_NAME, clients: realClientPaths(ctx.cache) };
	const clients = { claude: checkClaudeCode, codex: checkCodex, gemini: checkGemini, copilot: checkCopilot };
	try {
		for (const [client, check] of Object.entries(clients)) {
			if (!ctx.only || ctx.only === client) {
				await check(c, setup);
			}
		}
	} finally {
		sink.close();
	}
	for (const [target, labels] of sink.attempts) {
		console.log(`outside: refused a connection off the machine: ${target} (${[...labels].join(', ')})`);
	}
}
