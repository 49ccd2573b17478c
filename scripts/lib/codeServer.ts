// Starts code-server (real VS Code, served to a browser) contained in a temp directory:
// HOME, TMPDIR and XDG dirs, user data and extensions all live there and are removed on stop.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { codeServerEntry, node24Bin, node24Env } from './vscodeEnv.js';
import { spawnGroup, type GroupChild } from './processes.js';

/** Settings that keep the workbench quiet and deterministic. */
export const QUIET_SETTINGS = Object.freeze({
	'workbench.startupEditor': 'none',
	'chat.disableAIFeatures': true,
	'workbench.secondarySideBar.defaultVisibility': 'hidden',
	'workbench.tips.enabled': false,
	'workbench.enableExperiments': false,
	'telemetry.telemetryLevel': 'off',
	'update.mode': 'none',
	'extensions.autoCheckUpdates': false,
	'extensions.autoUpdate': false,
	'extensions.ignoreRecommendations': true,
	'git.autofetch': false,
	'git.openRepositoryInParentFolders': 'never',
	'security.workspace.trust.enabled': false,
	// An edit must stay unsaved until a test saves it.
	'files.autoSave': 'off',
	'files.hotExit': 'off',
});

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

function get(url: string, timeoutMs = 2000): Promise<{ status: number | undefined; body: string }> {
	return new Promise((resolve, reject) => {
		const req = http.get(url, { timeout: timeoutMs }, res => {
			let body = '';
			res.on('data', d => { body += d; });
			res.on('end', () => resolve({ status: res.statusCode, body }));
		});
		req.on('timeout', () => req.destroy(new Error('timeout')));
		req.on('error', reject);
	});
}

/** Environment variables that would make the server talk to an outer VS Code, or run as Electron. */
function isOuterEditorVar(name: string): boolean {
	return name.startsWith('VSCODE_') || name === 'ELECTRON_RUN_AS_NODE' || name === 'TERM_PROGRAM' || name === 'TERM_PROGRAM_VERSION';
}

export interface CodeServerOptions {
	/** Folder to open. */
	workspace: string;
	/** Extra environment for the server and its extension host. */
	env?: Record<string, string>;
	/** Pass the caller's environment through (npm start); otherwise a minimal one. */
	inheritEnv?: boolean;
	/** HOME, TMPDIR and XDG dirs inside the temp dir (default true). */
	containHome?: boolean;
	/** .vsix files to install first. */
	installExtensions?: readonly string[];
	/** Fixed port (default: a free one). */
	port?: number;
	/** Copy the server's output to stderr. */
	echo?: boolean;
	/** Extra user settings. */
	settings?: Record<string, unknown>;
	/** Keep workspace trust on, so an unknown folder opens in Restricted Mode. */
	trust?: boolean;
	healthTimeoutMs?: number;
}

export interface CodeServer {
	readonly url: string;
	readonly port: number;
	readonly dir: string;
	readonly userDataDir: string;
	readonly extensionsDir: string;
	readonly logFile: string;
	readonly workspace: string;
	readonly pid: number | undefined;
	/** Workbench URL for the folder, with an optional smoke-test payload ([name, value] pairs). */
	workbenchUrl(payload?: readonly (readonly [string, string])[]): string;
	/** `vscode-remote://` form of an absolute path on this server (for payload entries). */
	remoteUri(absPath: string): string;
	readonly exited: Promise<void>;
	/** Stops the server and its process tree and removes the temp dir; every call awaits the same stop. */
	stop(options?: { keepDir?: boolean }): Promise<void>;
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwr-code-server-'));
	const home = path.join(dir, 'home');
	const tmp = path.join(dir, 'tmp');
	const userDataDir = path.join(dir, 'user-data');
	const extensionsDir = path.join(dir, 'extensions');
	const configFile = path.join(dir, 'config.yaml');
	for (const d of [home, tmp, path.join(userDataDir, 'User'), extensionsDir]) { fs.mkdirSync(d, { recursive: true }); }
	fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'),
		JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, '\t'));
	fs.writeFileSync(configFile, 'auth: none\ncert: false\n');

	const base: NodeJS.ProcessEnv = options.inheritEnv ? { ...process.env } : {
		PATH: process.env.PATH ?? '/usr/bin:/bin',
		LANG: process.env.LANG ?? 'C.UTF-8',
		...(process.env.TZ ? { TZ: process.env.TZ } : {}),
	};
	for (const name of Object.keys(base)) { if (isOuterEditorVar(name)) { delete base[name]; } }
	const contained = options.containHome === false ? {} : {
		HOME: home,
		TMPDIR: tmp,
		XDG_CONFIG_HOME: path.join(home, '.config'),
		XDG_DATA_HOME: path.join(home, '.local', 'share'),
		XDG_CACHE_HOME: path.join(home, '.cache'),
		XDG_RUNTIME_DIR: tmp,
	};
	const env = node24Env({
		...base,
		...contained,
		EXTENSIONS_GALLERY: '{}',
		...options.env,
	});
	const common = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--config', configFile];

	for (const vsix of options.installExtensions ?? []) {
		const r = spawnSync(node24Bin, [codeServerEntry, ...common, '--install-extension', vsix, '--force'], { env, encoding: 'utf8', timeout: 120_000 });
		if (r.status !== 0 || !/successfully installed/i.test(r.stdout + r.stderr)) {
			fs.rmSync(dir, { recursive: true, force: true });
			throw new Error(`code-server --install-extension ${vsix} failed:\n${r.stdout}${r.stderr}`);
		}
	}

	const port = options.port ?? await freePort();
	const logFile = path.join(dir, 'code-server.log');
	const logStream = fs.createWriteStream(logFile);
	const child = spawnGroup(node24Bin, [
		codeServerEntry,
		'--bind-addr', `127.0.0.1:${port}`,
		'--auth', 'none',
		...common,
		'--disable-telemetry',
		'--disable-update-check',
		// Workspace trust is off for the usual runs (no trust prompt); `trust: true` keeps it
		// on, so an unknown folder opens in Restricted Mode.
		...(options.trust ? [] : ['--disable-workspace-trust']),
		'--disable-getting-started-override',
		'--ignore-last-opened',
		'--vscode-option', 'enable-smoke-test-driver',
		options.workspace,
	], { env, cwd: options.workspace, stdio: ['ignore', 'pipe', 'pipe'] });
	for (const stream of [child.stdout, child.stderr]) {
		stream?.on('data', d => {
			logStream.write(d);
			if (options.echo) { process.stderr.write(d); }
		});
	}

	const url = `http://127.0.0.1:${port}`;
	let stopping: Promise<void> | undefined;
	const server: CodeServer = {
		url, port, dir, userDataDir, extensionsDir, logFile, workspace: options.workspace, pid: child.pid,
		workbenchUrl(payload) {
			const params = new URLSearchParams({ folder: options.workspace });
			if (payload) { params.set('payload', JSON.stringify(payload)); }
			return `${url}/?${params}`;
		},
		remoteUri(absPath) {
			return `vscode-remote://127.0.0.1:${port}${absPath.split(path.sep).map(encodeURIComponent).join('/')}`;
		},
		exited: child.exited,
		stop({ keepDir = false } = {}) {
			return stopping ??= (async () => {
				await child.stop();
				logStream.end();
				if (!keepDir) { fs.rmSync(dir, { recursive: true, force: true }); }
			})();
		},
	};

	try {
		await waitForHealthz(url, child, options.healthTimeoutMs ?? 60_000);
	} catch (err) {
		await server.stop({ keepDir: true });
		let log = '';
		try { log = fs.readFileSync(logFile, 'utf8'); } catch { /* none */ }
		fs.rmSync(dir, { recursive: true, force: true });
		throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- code-server output ---\n${log}`);
	}
	return server;
}

async function waitForHealthz(url: string, child: GroupChild, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let exited = false;
	void child.exited.then(() => { exited = true; });
	while (Date.now() < deadline) {
		if (exited) { throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}) before answering /healthz`); }
		try {
			const res = await get(`${url}/healthz`);
			if (res.status === 200) { return; }
		} catch { /* not listening yet */ }
		await new Promise(r => setTimeout(r, 100));
	}
	throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs / 1000}s`);
}

/** Log files VS Code wrote under the user data dir (extension host log, extension output channels). */
export function findLogs(userDataDir: string): string[] {
	const logsDir = path.join(userDataDir, 'logs');
	if (!fs.existsSync(logsDir)) { return []; }
	return fs.readdirSync(logsDir, { recursive: true })
		.map(rel => path.join(logsDir, String(rel)))
		.filter(p => p.endsWith('.log') && fs.statSync(p).isFile());
}
