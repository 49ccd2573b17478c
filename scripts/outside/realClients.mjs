// Real AI clients from npm (pinned) list and read the headless host's resources, each driven by a
// local stand-in for its model API (see script.mjs): over stdio (`serve --stdio`), over Streamable
// HTTP with the bearer token, and through the bridge, configured with the commands that
// "Connect a Client..." generates (src/mcp/clientConfigs.ts, bundled here from the source).
//
// Isolation: each client run gets its own HOME and XDG folders, an environment that carries none
// of the caller's variables but PATH and the locale, every base URL on 127.0.0.1, telemetry and
// auto-update off, and HTTP(S)_PROXY set to a closed loopback port, so anything the client tries
// to reach off the machine fails at once instead of leaving it. Every run is bounded and its
// whole process tree (the client and the servers it started) is stopped at the end.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnGroup } from '../lib/processes.mjs';
import { startAnthropicStandIn } from './anthropicStandIn.mjs';
import { createScript } from './script.mjs';

export const REAL_CLIENT_VERSIONS = {
	'@anthropic-ai/claude-code': '2.1.330',
	'@openai/codex': '0.169.0',
	'@google/gemini-cli': '0.61.0',
};

const RUN_TIMEOUT_MS = 180_000;
const CLOSED_PORT_PROXY = 'http://127.0.0.1:9';

/** The client executables inside the tools folder (the npm packages' platform binaries). */
export function realClientPaths(cache) {
	const modules = path.join(cache, 'node_modules');
	return {
		// The package's bin/claude.exe is a placeholder its postinstall replaces; the binary is here.
		claude: path.join(modules, '@anthropic-ai', 'claude-code-linux-x64', 'claude'),
	};
}

/** Runs a client to completion or `timeoutMs`, then stops its whole process group. */
async function runBounded(command, args, { cwd, env, timeoutMs = RUN_TIMEOUT_MS, input }) {
	const child = spawnGroup(command, args, { cwd, env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', d => { stdout += d; });
	child.stderr.on('data', d => { stderr += d; });
	if (input !== undefined) {
		child.stdin.end(input);
	}
	let code = null;
	let timedOut = false;
	const exited = new Promise(resolve => {
		child.once('exit', c => { code = c; resolve(); });
		child.once('error', err => { stderr += String(err); resolve(); });
	});
	let timer;
	await Promise.race([exited, new Promise(resolve => { timer = setTimeout(() => { timedOut = true; resolve(); }, timeoutMs); })]);
	clearTimeout(timer);
	await child.stop(2000);
	return { code: timedOut ? null : code, timedOut, stdout, stderr };
}

/** An environment for one client run: its own HOME, nothing inherited but PATH and locale. */
function isolatedEnv(dir, extra) {
	const home = path.join(dir, 'home');
	const env = {
		PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
		LANG: process.env.LANG ?? 'C.UTF-8',
		TERM: 'dumb',
		NO_COLOR: '1',
		HOME: home,
		XDG_CONFIG_HOME: path.join(home, '.config'),
		XDG_DATA_HOME: path.join(home, '.local', 'share'),
		XDG_STATE_HOME: path.join(home, '.local', 'state'),
		XDG_CACHE_HOME: path.join(home, '.cache'),
		TMPDIR: path.join(dir, 'tmp'),
		HTTP_PROXY: CLOSED_PORT_PROXY,
		HTTPS_PROXY: CLOSED_PORT_PROXY,
		http_proxy: CLOSED_PORT_PROXY,
		https_proxy: CLOSED_PORT_PROXY,
		NO_PROXY: '127.0.0.1,localhost',
		no_proxy: '127.0.0.1,localhost',
		...extra,
	};
	for (const folder of [env.XDG_CONFIG_HOME, env.XDG_DATA_HOME, env.XDG_STATE_HOME, env.XDG_CACHE_HOME, env.TMPDIR]) {
		mkdirSync(folder, { recursive: true });
	}
	return env;
}

/** Splits one line of POSIX shell words as clientConfigs.ts quotes them (bare or single-quoted). */
function shellWords(line) {
	return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map(m => m[1] !== undefined ? m[1].replace(/'\\''/g, `'`) : m[2]);
}

/** The product's own client configurations, bundled from src/mcp/clientConfigs.ts. */
async function loadClientConfigs(root, tmp) {
	const { build } = await import('esbuild');
	const outfile = path.join(tmp, 'clientConfigs.mjs');
	await build({ entryPoints: [path.join(root, 'src', 'mcp', 'clientConfigs.ts')], bundle: true, format: 'esm', platform: 'node', outfile, logLevel: 'silent' });
	return import(pathToFileURL(outfile).href);
}

/** The running host's URL and token, read from its lock file as a client's setup would. */
function lockFileOf(home, pid) {
	const file = path.join(home, 'servers', `${pid}.json`);
	if (!existsSync(file)) {
		throw new Error(`no lock file for the host (pid ${pid}) in ${path.join(home, 'servers')}: ${readdirSync(path.join(home, 'servers')).join(', ')}`);
	}
	return JSON.parse(readFileSync(file, 'utf8'));
}

/** What each conversation asks for: list, a file, git status, a template URI. */
function conversationSteps(fixture) {
	const repo = path.basename(fixture);
	return [
		{ label: 'lists resources', kind: 'list', expect: ['README.md', `git://${repo}/status`] },
		{ label: 'reads a file', kind: 'read', uri: pathToFileURL(path.join(fixture, 'README.md')).href, expect: ['# Outside checks'] },
		{ label: `reads git://${repo}/status`, kind: 'read', uri: `git://${repo}/status`, expect: ['unstaged', 'src/index.ts'] },
		{ label: `reads template git://${repo}/show/HEAD`, kind: 'read', uri: `git://${repo}/show/HEAD`, expect: ['Outside checks fixture', 'export const answer = 42'] },
	];
}

function tail(text, lines = 4) {
	return text.trim().split('\n').slice(-lines).join(' | ').slice(0, 600);
}

/** Records the stand-in's outcomes and the client's exit for one client x transport. */
function recordConversation(ctx, tool, script, result, standIn) {
	for (const outcome of script.outcomes) {
		ctx.record(tool, outcome.label, outcome.ok, outcome.detail);
	}
	const exitOk = result.code === 0;
	ctx.record(tool, 'exits 0', exitOk, exitOk ? '' : result.timedOut ? `timed out after ${RUN_TIMEOUT_MS} ms: ${tail(result.stderr || result.stdout)}` : `exit ${result.code}: ${tail(result.stderr || result.stdout)}`);
	if (ctx.verbose || !exitOk || script.outcomes.some(o => !o.ok)) {
		console.log(`    ${tool} stand-in requests:\n      ${standIn.log.join('\n      ')}`);
		console.log(`    ${tool} output: ${tail(result.stdout + result.stderr, 12)}`);
	}
}

// ---- Claude Code ----

const CLAUDE_ENV = {
	ANTHROPIC_API_KEY: 'sk-ant-outside-checks-dummy',
	DISABLE_AUTOUPDATER: '1',
	DISABLE_TELEMETRY: '1',
	DISABLE_ERROR_REPORTING: '1',
	DISABLE_BUG_COMMAND: '1',
	CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
	// In -p runs, wait for MCP servers to connect before the first model request.
	MCP_CONNECTION_NONBLOCKING: 'false',
};

async function claudeConversation(ctx, transport, addLine, { healthCheck = false } = {}) {
	const tool = `claude-code ${transport}`;
	const dir = path.join(ctx.tmp, `claude-${transport}`);
	const script = createScript(conversationSteps(ctx.fixture));
	const standIn = await startAnthropicStandIn(script, ctx.serverName);
	try {
		const env = isolatedEnv(dir, { ...CLAUDE_ENV, ANTHROPIC_BASE_URL: standIn.url, MCP_WORKSPACE_RESOURCES_HOME: ctx.home });
		const [, ...addArgs] = shellWords(addLine);
		const add = await runBounded(ctx.clients.claude, addArgs, { cwd: dir, env });
		ctx.record(tool, `${addLine.split(' -- ')[0].replace(/--header .*/, '--header …')} exits 0`, add.code === 0, add.code === 0 ? '' : `exit ${add.code}: ${tail(add.stderr || add.stdout)}`);
		if (add.code !== 0) {
			return;
		}
		if (healthCheck) {
			const list = await runBounded(ctx.clients.claude, ['mcp', 'list'], { cwd: dir, env });
			const line = list.stdout.split('\n').find(l => l.startsWith(`${ctx.serverName}:`)) ?? '';
			const ok = list.code === 0 && /Connected/.test(line);
			ctx.record(tool, 'claude mcp list shows it connected', ok, ok ? '' : `exit ${list.code}: ${tail(list.stdout + list.stderr)}`);
		}
		const result = await runBounded(ctx.clients.claude, ['-p', 'List the workspace resources and read them.', '--allowedTools', 'ListMcpResourcesTool,ReadMcpResourceTool,ToolSearch'], { cwd: dir, env });
		recordConversation(ctx, tool, script, result, standIn);
	} finally {
		standIn.close();
	}
}

/**
 * Runs the real-client checks. `ctx`: { root, cache, tmp, fixture, home, hostPid, record, verbose }.
 */
export async function realClientChecks(ctx) {
	const { buildClientConfig, DEFAULT_SERVER_NAME } = await loadClientConfigs(ctx.root, ctx.tmp);
	const lock = lockFileOf(ctx.home, ctx.hostPid);
	const cliPath = path.join(ctx.root, 'dist', 'cli.js');
	const config = buildClientConfig('claudeCode', { cliPath, workspaceFolder: ctx.fixture, url: lock.url, token: lock.token });
	const lines = config.copy.split('\n').filter(line => line.startsWith('claude mcp add'));
	const bridgeLine = lines.find(line => line.includes(' bridge '));
	const httpLine = lines.find(line => line.includes('--transport http'));
	const stdioLine = `claude mcp add --scope user ${DEFAULT_SERVER_NAME} -- ${process.execPath} ${cliPath} serve --root ${ctx.fixture} --stdio`;
	const c = { ...ctx, serverName: DEFAULT_SERVER_NAME, clients: realClientPaths(ctx.cache) };
	writeFileSync(path.join(ctx.tmp, 'claude-commands.txt'), [stdioLine, httpLine, bridgeLine].join('\n') + '\n');
	await claudeConversation(c, 'stdio', stdioLine);
	await claudeConversation(c, 'http', httpLine);
	await claudeConversation(c, 'bridge', bridgeLine, { healthCheck: true });
}
