#!/usr/bin/env node
// `npm run test:electron`: the same in-host suite (test/vscode) in desktop VS Code, through
// @vscode/test-electron. It downloads VS Code from Microsoft (cached in .vscode-test/), so it
// is for desktops and CI with internet; machines that reach only the npm registry use
// `npm run test:vscode` (code-server) instead. On Linux without a display, run it under
// `xvfb-run -a`.
//
// Env: MCP_VSCODE_VERSION (default: stable; e.g. 1.101.0 for the lowest supported engine),
// MCP_VSCODE_TEST_GREP (mocha grep), MCP_VSCODE_KEEP=1 (keep temp dirs).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { QUIET_SETTINGS } from '../lib/codeServer.js';
import { errorText } from '../lib/errorText.js';
import { buildExtension, compileTests, makeFixtureWorkspace, makeMcpHome, step, summaryLine } from '../lib/project.js';

const startedAt = Date.now();
const keep = process.env.MCP_VSCODE_KEEP === '1';

async function main() {
	await buildExtension();
	const testsIndex = await compileTests();

	const workspace = await makeFixtureWorkspace();
	const mcpHome = makeMcpHome();
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwr-electron-'));
	const userDataDir = path.join(profile, 'user-data');
	fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
	fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(QUIET_SETTINGS, null, '\t'));
	const resultsFile = path.join(profile, 'results.json');

	let code = 1;
	try {
		step(`workspace ${workspace.dir}`);
		step(`MCP_WORKSPACE_RESOURCES_HOME=${mcpHome.dir}`);
		code = await runTests({
			version: process.env.MCP_VSCODE_VERSION || 'stable',
			extensionDevelopmentPath: repoRoot,
			extensionTestsPath: testsIndex,
			extensionTestsEnv: {
				MCP_WORKSPACE_RESOURCES_HOME: mcpHome.dir,
				// Headless hosts the tests start keep their search index here, not in the user's cache.
				XDG_CACHE_HOME: path.join(profile, 'cache'),
				MCP_VSCODE_TEST_RESULTS: resultsFile,
				...(process.env.MCP_VSCODE_TEST_GREP ? { MCP_VSCODE_TEST_GREP: process.env.MCP_VSCODE_TEST_GREP } : {}),
			},
			launchArgs: [
				workspace.dir,
				'--user-data-dir', userDataDir,
				'--extensions-dir', path.join(profile, 'extensions'),
				'--disable-extensions',
				'--disable-workspace-trust',
				'--disable-telemetry',
				'--disable-updates',
				'--skip-welcome',
				'--skip-release-notes',
				'--disable-gpu',
			],
		}).catch(err => {
			console.error(`[harness] FAILED: ${err?.message ?? err}`);
			return 1;
		});
		let passing = 0;
		let failing = 0;
		if (fs.existsSync(resultsFile)) {
			({ passes: passing, failures: failing } = JSON.parse(fs.readFileSync(resultsFile, 'utf8')));
		}
		if (code === 0 && passing === 0) { code = 1; }
		if (code !== 0 && failing === 0) { failing = 1; }
		return { code, passing, failing };
	} finally {
		if (!keep) {
			workspace.remove();
			mcpHome.remove();
			fs.rmSync(profile, { recursive: true, force: true });
		}
	}
}

let result: { code: number; passing: number; failing: number };
try {
	result = await main();
} catch (err) {
	console.error(`[harness] FAILED: ${errorText(err)}`);
	result = { code: 1, passing: 0, failing: 1 };
}
console.log(summaryLine('electron', result.passing, result.failing, startedAt));
process.exit(result.code);
