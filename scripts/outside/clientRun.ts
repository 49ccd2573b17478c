// One real client run: a bounded process tree, an isolated environment, and a scripted
// conversation with a model stand-in whose outcomes become result lines.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnGroup } from '../lib/processes.js';
import type { RecordResult } from './context.js';
import type { OffMachineSink } from './offMachineSink.js';
import { createScript, type Script, type ScriptStep, type StepOutcome } from './script.js';
import type { StandIn } from './standInServer.js';

const RUN_TIMEOUT_MS = 120_000;

export interface BoundedRun { code: number | null; timedOut: boolean; stdout: string; stderr: string }

/** What every real-client check gets (see realClients.ts). */
export interface ClientContext {
	root: string;
	tmp: string;
	fixture: string;
	/** The host's MCP_WORKSPACE_RESOURCES_HOME. */
	home: string;
	record: RecordResult;
	verbose: boolean;
	sink: OffMachineSink;
	/** The name the product's configurations give the server. */
	serverName: string;
	/** The host's lock file. */
	lock: { url: string; token: string };
	/** The client executables (realClientPaths). */
	clients: { claude: string; codex: string; gemini: string; copilot: string };
}

/** The commands each transport is added with (realClients.ts). */
/** Splits one line of POSIX shell words as clientConfigs.ts quotes them (bare or single-quoted). */
export function shellWords(line: string): string[] {
	return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map(m => m[1] !== undefined ? m[1].replace(/'\\''/g, `'`) : m[2]);
}

/**
 * The one line among a product configuration's command lines that `pick` chooses, as the words
 * after `<client> mcp add`; throws when there is none, naming what was looked for.
 */
export function productAddArgs(client: string, lines: readonly string[], what: string, pick: (line: string) => boolean): string[] {
	const line = lines.find(pick);
	if (line === undefined) {
		throw new Error(`the product's ${client} configuration has no \`${client} mcp add\` line for ${what}: ${JSON.stringify(lines)}`);
	}
	const words = shellWords(line);
	if (words[0] !== client || words[1] !== 'mcp' || words[2] !== 'add') {
		throw new Error(`the product's ${client} configuration line for ${what} is not \`${client} mcp add\`: ${line}`);
	}
	return words.slice(3);
}

export interface ClientSetup {
	/** `serve --stdio` argv. */
	stdio: string[];
	/** The bridge argv. */
	bridge: string[];
	/** The command lines of the product's configurations ("Connect a Client..."), by client. */
	configLines: { claude: string[]; codex: string[]; gemini: string[]; copilot: string[] };
}

/** One client x transport conversation (see converse). */
export interface ConversationSpec<S extends StandIn = StandIn> {
	tool: string;
	steps: ScriptStep[];
	startStandIn(script: Script): Promise<S>;
	env(standIn: S): Record<string, string>;
	prepare?(env: NodeJS.ProcessEnv, standIn: S): void;
	add: string[];
	addLabel: string;
	list?: string[];
	listLabel?: string;
	run: string[];
	afterRun?(standIn: S): StepOutcome[];
}

/** Runs a client to completion or RUN_TIMEOUT_MS, then stops its whole process group. */
export async function runBounded([command, ...args]: readonly string[], { cwd, env, verbose = false }: { cwd: string; env: NodeJS.ProcessEnv; verbose?: boolean }): Promise<BoundedRun> {
	if (verbose) {
		console.log(`    $ ${[command, ...args].join(' ')}`);
	}
	const child = spawnGroup(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout?.on('data', (d: Buffer) => { stdout += d; });
	child.stderr?.on('data', (d: Buffer) => { stderr += d; });
	let code: number | null = null;
	let timedOut = false;
	const exited = new Promise<void>(resolve => {
		child.once('exit', c => { code = c; resolve(); });
		child.once('error', err => { stderr += String(err); resolve(); });
	});
	let timer: NodeJS.Timeout | undefined;
	await Promise.race([exited, new Promise<void>(resolve => { timer = setTimeout(() => { timedOut = true; resolve(); }, RUN_TIMEOUT_MS); })]);
	clearTimeout(timer);
	// The servers the client started (stdio host, bridge) are in its group: they stop with it.
	await child.stop(2000);
	return { code: timedOut ? null : code, timedOut, stdout, stderr };
}

/**
 * An environment for one client run: its own HOME and XDG folders, nothing inherited but PATH
 * and locale, HTTP(S)_PROXY set to the sink (offMachineSink.ts). The host's discovery folder
 * appears at the default place in that HOME (~/.mcp-workspace-resources, a symlink), so the
 * bridge finds the host the way it does on a user's machine, with no variable.
 */
function isolatedEnv(dir: string, { home: discoveryHome, sink }: ClientContext, extra: Record<string, string>): NodeJS.ProcessEnv {
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

/**
 * What each conversation asks for: list, a file, git status, a template URI. Without `templates`
 * (a client that reads only listed URIs), a listed git resource instead of the template.
 */
export function conversationSteps(fixture: string, { templates = true }: { templates?: boolean } = {}): ScriptStep[] {
	const repo = path.basename(fixture);
	const last: ScriptStep = templates
		? { label: `reads template git://${repo}/show/HEAD`, kind: 'read', uri: `git://${repo}/show/HEAD`, expect: ['Outside checks fixture', 'export const answer = 42'] }
		: { label: `reads git://${repo}/diff`, kind: 'read', uri: `git://${repo}/diff`, expect: ['+export const answer = 43'] };
	return [
		{ label: 'lists resources', kind: 'list', expect: ['README.md', `git://${repo}/status`] },
		{ label: 'reads a file', kind: 'read', uri: pathToFileURL(path.join(fixture, 'README.md')).href, expect: ['# Outside checks'] },
		{ label: `reads git://${repo}/status`, kind: 'read', uri: `git://${repo}/status`, expect: ['unstaged', 'src/index.ts'] },
		last,
	];
}

/**
 * What each conversation asks of our server's own tools (for the clients whose models call them
 * by the names the client gives them): a page of one family, a file, the relevance ranking and a
 * secret. Each `expect` holds words only our server's answer has (a listed entry's name, a
 * ranking's reason, the refusal), so a passing step shows the call reached the server and its
 * answer reached the model, in whatever form the client gives it (Claude Code 2.1.330 passes
 * `structuredContent` as JSON in place of the text blocks, and resource links as text; Codex
 * 0.169 passes `structuredContent`; Gemini CLI 0.61 the text blocks and each link's title and URI).
 */
export function toolSteps(fixture: string): ScriptStep[] {
	const repo = path.basename(fixture);
	const file = (rel: string) => pathToFileURL(path.join(fixture, rel)).href;
	return [
		{ label: 'calls list_resources: the server\'s page reaches the model', kind: 'tool', tool: 'list_resources', args: { prefix: 'git:' }, expect: [`git://${repo}/status`, `Git status (${repo})`], forbid: ['README.md'] },
		{ label: 'calls read_resource: the file reaches the model', kind: 'tool', tool: 'read_resource', args: { uri: file('src/index.ts') }, expect: ['export const answer = 43'] },
		{ label: 'calls relevant_files: the ranking reaches the model', kind: 'tool', tool: 'relevant_files', args: {}, expect: ['src/index.ts', 'changed in the working tree'] },
		{ label: 'calls read_resource on .env: refused, and the model is told why', kind: 'tool', tool: 'read_resource', args: { uri: file('.env') }, expect: ['Not served:', 'secret'], forbid: ['never-served'] },
	];
}

export function tail(text: string, lines = 4): string {
	return text.trim().split('\n').slice(-lines).join(' | ').slice(0, 600);
}

function exitProblem(result: BoundedRun): string {
	if (result.code === 0) {
		return '';
	}
	return `${result.timedOut ? `timed out after ${RUN_TIMEOUT_MS} ms` : `exit ${result.code}`}: ${tail(result.stderr || result.stdout)}`;
}

/**
 * One client x transport: add the server with the client's own command, optionally check the
 * client's health listing, then hold the scripted conversation and record its outcomes.
 */
export async function converse<S extends StandIn>(ctx: ClientContext, spec: ConversationSpec<S>): Promise<void> {
	const dir = path.join(ctx.tmp, spec.tool.replace(/\W+/g, '-'));
	ctx.sink.setLabel(spec.tool);
	const script = createScript(spec.steps);
	const standIn = await spec.startStandIn(script);
	try {
		const env = isolatedEnv(dir, ctx, spec.env(standIn));
		spec.prepare?.(env, standIn);
		const options = { cwd: dir, env, verbose: ctx.verbose };
		const add = await runBounded(spec.add, options);
		ctx.record(spec.tool, `${spec.addLabel} exits 0`, add.code === 0, exitProblem(add));
		if (add.code !== 0) {
			return;
		}
		if (spec.list) {
			const list = await runBounded(spec.list, options);
			const line = (list.stdout + list.stderr).split('\n').find(l => l.includes(`${ctx.serverName}:`)) ?? '';
			const ok = list.code === 0 && /\bConnected\b/.test(line);
			ctx.record(spec.tool, `${spec.listLabel} shows it connected`, ok, ok ? '' : `exit ${list.code}: ${tail(list.stdout + list.stderr)}`);
		}
		const result = await runBounded(spec.run, options);
		// Kept with MCP_OUTSIDE_KEEP_TMP=1 for a closer look.
		writeFileSync(path.join(dir, 'conversation.log'), [...standIn.log, '--- stdout', result.stdout, '--- stderr', result.stderr].join('\n'));
		for (const outcome of [...(spec.afterRun?.(standIn) ?? []), ...script.outcomes]) {
			ctx.record(spec.tool, outcome.label, outcome.ok, outcome.detail);
		}
		ctx.record(spec.tool, 'exits 0', result.code === 0, exitProblem(result));
		if (ctx.verbose || result.code !== 0 || script.outcomes.some(o => !o.ok)) {
			console.log(`    ${spec.tool} stand-in requests:\n      ${standIn.log.join('\n      ')}`);
			console.log(`    ${spec.tool} output: ${tail(result.stdout + result.stderr, 12)}`);
		}
	} finally {
		standIn.close();
	}
}
