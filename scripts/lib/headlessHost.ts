// The one way tests, benches and outside checks start the headless host (`cli.js serve --http`):
// a private lock-file home unless one is given (so it never shows up in the user's
// ~/.mcp-workspace-resources), a private search cache (privateServerCache.ts), the url and token
// read from its first stdout line, its stderr kept.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { Readable } from 'node:stream';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { privateServerCache } from './privateServerCache.js';
import { killPidAtExit } from './processes.js';

export interface HeadlessHostOptions {
	/** The folder served. */
	root: string;
	/** The CLI to run (default: this checkout's dist/cli.js; the bench runs a previous build too). */
	cli?: string;
	/** Node options before the CLI (the benches' `--cpu-prof`, `--import <probe>`). */
	nodeArgs?: readonly string[];
	/** Arguments after `--http` (e.g. `--log-level warn`). */
	args?: readonly string[];
	/**
	 * The environment (default: this process's); MCP_WORKSPACE_RESOURCES_HOME is set to `home`, and
	 * XDG_CACHE_HOME (the search index's cache) to a new folder of this host's, removed by stop(),
	 * unless `env` names one.
	 */
	env?: NodeJS.ProcessEnv;
	/** The lock-file home (default: a new temp folder, removed by stop()). */
	home?: string;
	cwd?: string;
	/** How long to wait for the url line (default 30 s). */
	timeoutMs?: number;
	/** Every stderr chunk as it arrives (the bench reads the index build time from it, and keeps its own tail). */
	onStderr?: (chunk: string) => void;
}

export interface HostExit { code: number | null; signal: NodeJS.Signals | null }

export interface HeadlessHost {
	readonly url: string;
	readonly token: string;
	readonly pid: number;
	readonly exit: Promise<HostExit>;
	/** The last `chars` characters the host wrote to stderr. */
	stderr(chars?: number): string;
	/** SIGTERM, SIGKILL after `graceMs`; says whether it ended on SIGTERM. Every call awaits the same stop. */
	stop(graceMs?: number): Promise<{ exitedCleanly: boolean; exit: HostExit }>;
}

/** Whatever the host wrote to stderr, at most twice `limit` characters kept. */
const STDERR_LIMIT = 64 * 1024;

export async function startHeadlessHost(options: HeadlessHostOptions): Promise<HeadlessHost> {
	const ownHome = options.home === undefined;
	const home = options.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwr-headless-'));
	const cli = options.cli ?? path.join(repoRoot, 'dist', 'cli.js');
	const cache = options.env?.XDG_CACHE_HOME === undefined ? privateServerCache() : undefined;
	const child: ChildProcessByStdio<null, Readable, Readable> = spawn(process.execPath, [...options.nodeArgs ?? [], cli, 'serve', '--root', options.root, '--http', ...options.args ?? []], {
		cwd: options.cwd, env: { ...options.env ?? process.env, ...cache?.env, MCP_WORKSPACE_RESOURCES_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'],
	});
	const untrack = killPidAtExit(child.pid);
	let stderr = '';
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (chunk: string) => {
		stderr += chunk;
		options.onStderr?.(chunk);
		if (stderr.length > STDERR_LIMIT * 2) { stderr = stderr.slice(-STDERR_LIMIT); }
	});
	const exit = new Promise<HostExit>(resolve => child.once('exit', (code, signal) => resolve({ code, signal })));
	const removeFolders = () => {
		cache?.remove();
		if (ownHome) { fs.rmSync(home, { recursive: true, force: true }); }
	};

	const timeoutMs = options.timeoutMs ?? 30_000;
	let first: string;
	try {
		first = await new Promise<string>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`the headless host printed no url within ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
			void exit.then(({ code, signal }) => reject(new Error(`the headless host exited (${code ?? signal}) before printing its url:\n${stderr}`)));
			child.once('error', reject);
			const lines = readline.createInterface({ input: child.stdout });
			lines.once('line', line => {
				clearTimeout(timer);
				lines.close();
				// Keep draining stdout so the pipe never fills.
				child.stdout.resume();
				resolve(line);
			});
		});
	} catch (err) {
		child.kill('SIGKILL');
		untrack();
		removeFolders();
		throw err;
	}
	let info: { url?: unknown; token?: unknown };
	try {
		info = JSON.parse(first) as typeof info;
	} catch {
		info = {};
	}
	if (typeof info.url !== 'string' || typeof info.token !== 'string') {
		child.kill('SIGKILL');
		untrack();
		removeFolders();
		throw new Error(`the headless host's first stdout line has no url and token: ${first.slice(0, 200)}`);
	}

	let stopping: Promise<{ exitedCleanly: boolean; exit: HostExit }> | undefined;
	return {
		url: info.url,
		token: info.token,
		pid: child.pid ?? 0,
		exit,
		stderr: (chars = STDERR_LIMIT) => stderr.slice(-chars),
		stop: (graceMs = 5000) => stopping ??= (async () => {
			let exitedCleanly = false;
			if (child.exitCode === null && child.signalCode === null) {
				child.kill('SIGTERM');
				const ended = await Promise.race([exit, new Promise<undefined>(r => setTimeout(r, graceMs))]);
				if (ended) {
					exitedCleanly = true;
				} else {
					child.kill('SIGKILL');
				}
			}
			const result = { exitedCleanly, exit: await exit };
			untrack();
			removeFolders();
			return result;
		})(),
	};
}
