#!/usr/bin/env node
// `npm run test:vscode`: runs test/vscode (mocha) inside a real VS Code extension host.
// code-server (VS Code 1.139, from npm) serves the workbench; headless Debian chromium opens it
// with a smoke-test payload that loads the extension from source (extensionDevelopmentPath) and
// the compiled suite (extensionTestsPath). The page reports the suite's exit code through
// window.codeAutomationExit and streams the extension host console through codeAutomationLog.
//
// Env: MCP_VSCODE_TEST_GREP (mocha grep), MCP_VSCODE_TEST_OVERALL_TIMEOUT (ms, default 600000),
// MCP_VSCODE_KEEP=1 (keep temp dirs for inspection), MCP_VSCODE_HEADED=1 (needs a display).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as util from 'node:util';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { ensureProvisioned } from '../lib/vscodeEnv.js';
import { startCodeServer, findLogs } from '../lib/codeServer.js';
import { launchBrowser, newWorkbenchPage } from '../lib/browser.js';
import { cleanupStack, interruption } from '../lib/processes.js';
import { buildExtension, compileTests, makeFixtureWorkspace, makeMcpHome, step, finishRun, type RunResult } from '../lib/project.js';

const startedAt = Date.now();
const overallTimeoutMs = Number(process.env.MCP_VSCODE_TEST_OVERALL_TIMEOUT ?? 600_000);
const keep = process.env.MCP_VSCODE_KEEP === '1';

const cleanups = cleanupStack();
const cleanup = cleanups.run;

function logSection(title: string, text: string): void {
	console.log(`\n----- ${title} -----\n${text.trimEnd()}\n----- end of ${title} -----`);
}

/** Turns the extension host's console arguments (as the page forwards them) into a line. */
function formatLogArgs(args: unknown): string {
	return util.format(...(Array.isArray(args) ? args : [args]));
}

async function main(): Promise<RunResult> {
	await ensureProvisioned();
	await buildExtension();
	const testsIndex = await compileTests();

	const workspace = await makeFixtureWorkspace();
	if (!keep) { cleanups.push(() => workspace.remove()); }
	const mcpHome = makeMcpHome();
	if (!keep) { cleanups.push(() => mcpHome.remove()); }
	const resultsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwr-results-')), 'results.json');
	cleanups.push(() => fs.rmSync(path.dirname(resultsFile), { recursive: true, force: true }));

	step(`workspace ${workspace.dir}`);
	step(`MCP_WORKSPACE_RESOURCES_HOME=${mcpHome.dir}`);
	const server = await startCodeServer({
		workspace: workspace.dir,
		env: {
			MCP_WORKSPACE_RESOURCES_HOME: mcpHome.dir,
			MCP_VSCODE_TEST_RESULTS: resultsFile,
			...(process.env.MCP_VSCODE_TEST_GREP ? { MCP_VSCODE_TEST_GREP: process.env.MCP_VSCODE_TEST_GREP } : {}),
		},
	});
	cleanups.push(() => server.stop({ keepDir: keep }));
	step(`code-server ${server.url} (pid ${server.pid}, dir ${server.dir})`);

	const browser = await launchBrowser({ headless: process.env.MCP_VSCODE_HEADED !== '1' });
	cleanups.push(() => browser.close());
	const { page } = await newWorkbenchPage(browser.browser, { origin: server.url, clipboard: true });

	let reportExit: (code: number) => void = () => undefined;
	const exitCode = new Promise<number>(resolve => { reportExit = resolve; });
	const hostLog: string[] = [];
	await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
		const line = formatLogArgs(args);
		hostLog.push(line);
		const stream = type === 'error' || type === 'warn' ? process.stderr : process.stdout;
		stream.write(`${line}\n`);
	});
	await page.exposeFunction('codeAutomationExit', (code: unknown) => { reportExit(Number(code)); });
	page.on('pageerror', err => console.error(`[browser] page error: ${err.message}`));

	const payload: [string, string][] = [
		['extensionDevelopmentPath', server.remoteUri(repoRoot)],
		['extensionTestsPath', server.remoteUri(testsIndex)],
	];
	const url = server.workbenchUrl(payload);
	step(`opening ${url}`);
	await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });

	let timer: NodeJS.Timeout | undefined;
	const timedOut = new Promise<'timeout'>(resolve => { timer = setTimeout(() => resolve('timeout'), overallTimeoutMs); });
	const hostDied = server.exited.then(() => 'server-exited' as const);
	const outcome = await Promise.race([exitCode, timedOut, hostDied]);
	clearTimeout(timer);
	if (interruption()) { return { code: 130, passing: 0, failing: 0 }; }

	let code: number;
	if (outcome === 'timeout') {
		console.error(`[harness] FAILED: the extension host never reported a result within ${overallTimeoutMs / 1000}s ` +
			'(did the workbench load? is the payload right? see the logs below)');
		fs.mkdirSync(path.join(repoRoot, 'test-results'), { recursive: true });
		await page.screenshot({ path: path.join(repoRoot, 'test-results', 'vscode-timeout.png') }).catch(() => undefined);
		code = 2;
	} else if (outcome === 'server-exited') {
		console.error('[harness] FAILED: code-server exited before the suite reported');
		code = 2;
	} else {
		code = outcome;
		step(`the extension host reported exit code ${code}`);
	}

	// The extension host log and the extension's own output channel, from the server's logs dir.
	for (const file of findLogs(server.userDataDir)) {
		const name = path.basename(file);
		const rel = path.relative(server.userDataDir, file);
		if (name.startsWith('remoteexthost') || name.startsWith('exthost') || /MCP Resources/i.test(rel)) {
			logSection(rel, fs.readFileSync(file, 'utf8'));
		}
	}
	if (code !== 0 && outcome !== 0) {
		logSection('code-server output', fs.readFileSync(server.logFile, 'utf8'));
	}

	let passing = 0;
	let failing = 0;
	if (fs.existsSync(resultsFile)) {
		const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as { passes: number; failures: number };
		passing = results.passes;
		failing = results.failures;
	} else {
		const marker = hostLog.map(l => /MCP_VSCODE_TEST_RESULTS (\{.*\})/.exec(l)).find(Boolean);
		if (marker) { ({ passes: passing, failures: failing } = JSON.parse(marker[1]) as { passes: number; failures: number }); }
	}
	if (code === 0 && passing === 0) {
		console.error('[harness] FAILED: the suite reported success but no test passed');
		code = 1;
	}
	if (code !== 0 && failing === 0) { failing = 1; }
	return { code, passing, failing };
}

await finishRun({ label: 'vscode', main, cleanup, startedAt });
