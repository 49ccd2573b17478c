// Real AI clients from npm (pinned) list and read the headless host's resources, each driven by a
// local stand-in for its model API (see script.mjs): over stdio (`serve --stdio`), over Streamable
// HTTP with the bearer token, and through the bridge, configured with the commands that
// "Connect a Client..." generates (src/mcp/clientConfigs.ts, bundled here from the source).
//
// Isolation: each client run gets its own HOME and XDG folders, an environment that carries none
// of the caller's variables but PATH and the locale, every base URL on 127.0.0.1, telemetry and
// auto-update off, and HTTP(S)_PROXY set to a loopback sink that refuses everything
// (offMachineSink.mjs), so anything a client tries to reach off the machine fails at once instead
// of leaving it, and the run lists what was tried. Every run is bounded and its
// whole process tree (the client and the servers it started) is stopped at the end.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnGroup } from '../lib/processes.mjs';
import { startAnthropicStandIn } from './anthropicStandIn.mjs';
import { startGeminiStandIn } from './geminiStandIn.mjs';
import { startOffMachineSink } from './offMachineSink.mjs';
import { startOpenAiStandIn } from './openaiStandIn.mjs';
import { createScript } from './script.mjs';

export const REAL_CLIENT_VERSIONS = {
	'@anthropic-ai/claude-code': '2.1.330',
	'@openai/codex': '0.169.0',
	'@google/gemini-cli': '0.61.0',
};

const RUN_TIMEOUT_MS = 180_000;

/** The client executables inside the tools folder (the npm packages' platform binaries). */
export function realClientPaths(cache) {
	const modules = path.join(cache, 'node_modules');
	return {
		// The package's bin/claude.exe is a placeholder its postinstall replaces; the binary is here.
		claude: path.join(modules, '@anthropic-ai', 'claude-code-linux-x64', 'claude'),
		// The launcher finds its platform binary and puts its helpers (rg) on the PATH.
		codex: path.join(modules, '@openai', 'codex', 'bin', 'codex.js'),
		gemini: path.join(modules, '@google', 'gemini-cli', 'bundle', 'gemini.js'),
	};
}

/** Runs a client to completion or `timeoutMs`, then stops its whole process group. */
async function runBounded(command, args, { cwd, env, timeoutMs = RUN_TIMEOUT_MS, input, verbose = false }) {
	if (verbose) {
		console.log(`    $ ${[command, ...args].join(' ')}`);
	}
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

/**
 * An environment for one client run: its own HOME, nothing inherited but PATH and locale. The
 * host's discovery folder appears at the default place in that HOME (~/.mcp-workspace-resources,
 * a symlink), so the bridge finds the host the way it does on a user's machine, with no variable.
 */
function isolatedEnv(dir, { home: discoveryHome, sink }, extra) {
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
		HTTP_PROXY: sink.url,
		HTTPS_PROXY: sink.url,
		http_proxy: sink.url,
		https_proxy: sink.url,
		NO_PROXY: '127.0.0.1,localhost',
		no_proxy: '127.0.0.1,localhost',
		...extra,
	};
	for (const folder of [env.XDG_CONFIG_HOME, env.XDG_DATA_HOME, env.XDG_STATE_HOME, env.XDG_CACHE_HOME, env.TMPDIR]) {
		mkdirSync(folder, { recursive: true });
	}
	symlinkSync(discoveryHome, path.join(home, '.mcp-workspace-resources'));
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

/**
 * What each conversation asks for: list, a file, git status, a template URI. Without `templates`
 * (a client that reads only listed URIs), a listed git resource instead of the template.
 */
function conversationSteps(fixture, { templates = true } = {}) {
	const repo = path.basename(fixture);
	const last = templates
		? { label: `reads template git://${repo}/show/HEAD`, kind: 'read', uri: `git://${repo}/show/HEAD`, expect: ['Outside checks fixture', 'export const answer = 42'] }
		: { label: `reads git://${repo}/diff`, kind: 'read', uri: `git://${repo}/diff`, expect: ['+export const answer = 43'] };
	return [
		{ label: 'lists resources', kind: 'list', expect: ['README.md', `git://${repo}/status`] },
		{ label: 'reads a file', kind: 'read', uri: pathToFileURL(path.join(fixture, 'README.md')).href, expect: ['# Outside checks'] },
		{ label: `reads git://${repo}/status`, kind: 'read', uri: `git://${repo}/status`, expect: ['unstaged', 'src/index.ts'] },
		last,
	];
}

function tail(text, lines = 4) {
	return text.trim().split('\n').slice(-lines).join(' | ').slice(0, 600);
}

/** Records the stand-in's outcomes and the client's exit for one client x transport. */
function recordConversation(ctx, tool, script, result, standIn) {
	// Kept with MCP_OUTSIDE_KEEP_TMP=1 for a closer look.
	writeFileSync(path.join(ctx.tmp, `${tool.replace(/\W+/g, '-')}.log`), [...standIn.log, '--- stdout', result.stdout, '--- stderr', result.stderr].join('\n'));
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
	ctx.sink.setLabel(tool);
	const script = createScript(conversationSteps(ctx.fixture));
	const standIn = await startAnthropicStandIn(script, ctx.serverName);
	try {
		const env = isolatedEnv(dir, ctx, { ...CLAUDE_ENV, ANTHROPIC_BASE_URL: standIn.url });
		const [, ...addArgs] = shellWords(addLine);
		const add = await runBounded(ctx.clients.claude, addArgs, { cwd: dir, env, verbose: ctx.verbose });
		ctx.record(tool, `${addLine.split(' -- ')[0].replace(/--header .*/, '--header …')} exits 0`, add.code === 0, add.code === 0 ? '' : `exit ${add.code}: ${tail(add.stderr || add.stdout)}`);
		if (add.code !== 0) {
			return;
		}
		if (healthCheck) {
			const list = await runBounded(ctx.clients.claude, ['mcp', 'list'], { cwd: dir, env, verbose: ctx.verbose });
			const line = list.stdout.split('\n').find(l => l.startsWith(`${ctx.serverName}:`)) ?? '';
			const ok = list.code === 0 && /Connected/.test(line);
			ctx.record(tool, 'claude mcp list shows it connected', ok, ok ? '' : `exit ${list.code}: ${tail(list.stdout + list.stderr)}`);
		}
		const result = await runBounded(ctx.clients.claude, ['-p', 'List the workspace resources and read them.', '--allowedTools', 'ListMcpResourcesTool,ReadMcpResourceTool,ToolSearch'], { cwd: dir, env, verbose: ctx.verbose });
		recordConversation(ctx, tool, script, result, standIn);
	} finally {
		standIn.close();
	}
}

// ---- Codex CLI ----

const CODEX_TOKEN_VARIABLE = 'MCP_WORKSPACE_RESOURCES_TOKEN';

/** config.toml: the stand-in as the model provider; analytics, feedback, update checks and online features off. */
function codexConfig(baseUrl) {
	return [
		'model = "gpt-5-codex"',
		'model_provider = "outside-stand-in"',
		'check_for_update_on_startup = false',
		'',
		'[model_providers.outside-stand-in]',
		'name = "Outside checks stand-in"',
		`base_url = "${baseUrl}/v1"`,
		'wire_api = "responses"',
		'env_key = "OUTSIDE_STAND_IN_KEY"',
		'',
		'[analytics]',
		'enabled = false',
		'',
		'[feedback]',
		'enabled = false',
		'',
		'[otel]',
		'exporter = "none"',
		'',
		'[history]',
		'persistence = "none"',
		'',
		// Plugins sync from github.com, apps and plugin sharing talk to chatgpt.com: none is needed.
		'[features]',
		'apps = false',
		'plugins = false',
		'remote_plugin = false',
		'plugin_sharing = false',
		'',
	].join('\n');
}

async function codexConversation(ctx, transport, addArgs) {
	const tool = `codex ${transport}`;
	const dir = path.join(ctx.tmp, `codex-${transport}`);
	ctx.sink.setLabel(tool);
	const script = createScript(conversationSteps(ctx.fixture));
	const standIn = await startOpenAiStandIn(script, ctx.serverName);
	try {
		const env = isolatedEnv(dir, ctx, { OUTSIDE_STAND_IN_KEY: 'sk-outside-checks-dummy', [CODEX_TOKEN_VARIABLE]: ctx.lock.token });
		mkdirSync(path.join(env.HOME, '.codex'), { recursive: true });
		writeFileSync(path.join(env.HOME, '.codex', 'config.toml'), codexConfig(standIn.url));
		const add = await runBounded(process.execPath, [ctx.clients.codex, 'mcp', 'add', ...addArgs], { cwd: dir, env, verbose: ctx.verbose });
		ctx.record(tool, `codex mcp add ${addArgs.join(' ').split(' -- ')[0]} exits 0`, add.code === 0, add.code === 0 ? '' : `exit ${add.code}: ${tail(add.stderr || add.stdout)}`);
		if (add.code !== 0) {
			return;
		}
		const result = await runBounded(process.execPath, [ctx.clients.codex, 'exec', '--skip-git-repo-check', 'List the workspace resources and read them.'], { cwd: dir, env, verbose: ctx.verbose });
		recordConversation(ctx, tool, script, result, standIn);
	} finally {
		standIn.close();
	}
}

// ---- Gemini CLI ----

/** settings.json: API-key auth (so the stand-in URL is used), telemetry, statistics and updates off. */
const GEMINI_SETTINGS = {
	security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
	telemetry: { enabled: false },
	privacy: { usageStatisticsEnabled: false },
	general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

async function geminiConversation(ctx, transport, addArgs, { healthCheck = false } = {}) {
	const tool = `gemini ${transport}`;
	const dir = path.join(ctx.tmp, `gemini-${transport}`);
	ctx.sink.setLabel(tool);
	// Gemini CLI reads only the URIs it listed: template URIs are "not found" in the client itself.
	const script = createScript(conversationSteps(ctx.fixture, { templates: false }));
	const standIn = await startGeminiStandIn(script, step => step.kind === 'list' ? { serverName: ctx.serverName } : { serverName: ctx.serverName, uri: step.uri });
	try {
		const env = isolatedEnv(dir, ctx, { GEMINI_API_KEY: 'outside-checks-dummy', GOOGLE_GEMINI_BASE_URL: standIn.url, GEMINI_SANDBOX: 'false' });
		mkdirSync(path.join(env.HOME, '.gemini'), { recursive: true });
		writeFileSync(path.join(env.HOME, '.gemini', 'settings.json'), JSON.stringify(GEMINI_SETTINGS, null, 2));
		const add = await runBounded(process.execPath, [ctx.clients.gemini, 'mcp', 'add', ...addArgs], { cwd: dir, env, verbose: ctx.verbose });
		ctx.record(tool, `gemini mcp add ${addArgs.slice(0, addArgs.indexOf(ctx.serverName) + 1).join(' ')} exits 0`, add.code === 0, add.code === 0 ? '' : `exit ${add.code}: ${tail(add.stderr || add.stdout)}`);
		if (add.code !== 0) {
			return;
		}
		if (healthCheck) {
			const list = await runBounded(process.execPath, [ctx.clients.gemini, 'mcp', 'list'], { cwd: dir, env, verbose: ctx.verbose });
			const line = (list.stdout + list.stderr).split('\n').find(l => l.includes(`${ctx.serverName}:`)) ?? '';
			const ok = list.code === 0 && /Connected/.test(line);
			ctx.record(tool, 'gemini mcp list shows it connected', ok, ok ? '' : `exit ${list.code}: ${tail(list.stdout + list.stderr)}`);
		}
		// An @server:uri mention: the client reads the resource and puts it into the prompt.
		const mention = `@${ctx.serverName}:${pathToFileURL(path.join(ctx.fixture, 'docs', 'guide.md')).href}`;
		const result = await runBounded(process.execPath, [ctx.clients.gemini, '-p', `Read ${mention}, then list the workspace resources and read them.`], { cwd: dir, env, verbose: ctx.verbose });
		const expanded = standIn.userTexts.some(text => text.includes('## Guide'));
		ctx.record(tool, `expands ${mention.replace(ctx.fixture, '…')} into the prompt`, expanded, expanded ? '' : `the prompt the model got: ${JSON.stringify((standIn.userTexts[0] ?? '').slice(0, 300))}`);
		recordConversation(ctx, tool, script, result, standIn);
	} finally {
		standIn.close();
	}
}

/**
 * Runs the real-client checks. `ctx`: { root, cache, tmp, fixture, home, hostPid, record, verbose }.
 */
export async function realClientChecks(ctx) {
	const { bridgeCommand, buildClientConfig, DEFAULT_SERVER_NAME } = await loadClientConfigs(ctx.root, ctx.tmp);
	const lock = lockFileOf(ctx.home, ctx.hostPid);
	const cliPath = path.join(ctx.root, 'dist', 'cli.js');
	const sink = await startOffMachineSink();
	const c = { ...ctx, lock, sink, serverName: DEFAULT_SERVER_NAME, clients: realClientPaths(ctx.cache) };
	const { command, args } = bridgeCommand({ cliPath, workspaceFolder: ctx.fixture });
	const bridge = [command, ...args];
	const stdio = [process.execPath, cliPath, 'serve', '--root', ctx.fixture, '--stdio'];
	const name = DEFAULT_SERVER_NAME;
	const clients = {
		claude: async () => {
			// Claude Code: the exact lines "Connect a Client..." shows (HTTP and bridge), and the same
			// form for the server started over stdio.
			const config = buildClientConfig('claudeCode', { cliPath, workspaceFolder: ctx.fixture, url: lock.url, token: lock.token });
			const lines = config.copy.split('\n').filter(line => line.startsWith('claude mcp add'));
			await claudeConversation(c, 'stdio', `claude mcp add --scope user ${name} -- ${stdio.join(' ')}`);
			await claudeConversation(c, 'http', lines.find(line => line.includes('--transport http')));
			await claudeConversation(c, 'bridge', lines.find(line => line.includes(' bridge ')), { healthCheck: true });
		},
		codex: async () => {
			await codexConversation(c, 'stdio', [name, '--', ...stdio]);
			await codexConversation(c, 'http', [name, '--url', lock.url, '--bearer-token-env-var', CODEX_TOKEN_VARIABLE]);
			await codexConversation(c, 'bridge', [name, '--', ...bridge]);
		},
		gemini: async () => {
			await geminiConversation(c, 'stdio', ['--scope', 'user', name, ...stdio]);
			await geminiConversation(c, 'http', ['--scope', 'user', '--transport', 'http', name, lock.url, '--header', `Authorization: Bearer ${lock.token}`]);
			await geminiConversation(c, 'bridge', ['--scope', 'user', name, ...bridge], { healthCheck: true });
		},
	};
	try {
		for (const [client, checks] of Object.entries(clients)) {
			if (!ctx.only || ctx.only === client) {
				await checks();
			}
		}
	} finally {
		sink.close();
	}
	for (const [target, labels] of sink.attempts) {
		console.log(`outside: refused a connection off the machine: ${target} (${[...labels].join(', ')})`);
	}
}
