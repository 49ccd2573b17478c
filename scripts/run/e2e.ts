#!/usr/bin/env node
// `npm run test:e2e`: browser checks of the PACKAGED extension in code-server. Packages the
// .vsix, installs it into a private code-server, opens the workbench in headless chromium and
// runs test/e2e/checks.ts. Screenshots: test-results/screenshots/*.png.
//
// Env: MCP_E2E_GREP (substring of check names; `picture` runs every check that makes a picture
// the README, docs or walkthrough show), MCP_VSCODE_KEEP=1 (keep temp dirs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { ensureProvisioned } from '../lib/vscodeEnv.js';
import { startCodeServer, findLogs } from '../lib/codeServer.js';
import { launchBrowser, newWorkbenchPage } from '../lib/browser.js';
import { cleanupStack } from '../lib/processes.js';
import { makeFixtureWorkspace, makeMcpHome, packageExtension, step, finishRun } from '../lib/project.js';
import { checks } from '../../test/e2e/checks.js';
import { pickerChecks } from '../../test/e2e/picker.js';
import { folderServerChecks } from '../../test/e2e/folderServers.js';
import { welcomeViewChecks } from '../../test/e2e/welcomeViews.js';
import { chatCheck, pickerFlowChecks } from '../../test/e2e/pickerFlows.js';
import { startHostileMcpServer } from '../../test/e2e/hostileMcpServer.js';
import { hostileServerCheck } from '../../test/e2e/pickerHostile.js';
import { mcpIconsCheck } from '../../test/e2e/mcpIcons.js';
import { contextShotChecks } from '../../test/e2e/contextShots.js';
import { prepareVscodeClientWorkspace, vscodeClientRestartCheck } from '../../test/e2e/vscodeClient.js';
import { vscodeToolsCheck } from '../../test/e2e/vscodeTools.js';
import { unsavedTextCheck } from '../../test/e2e/unsavedText.js';
import { connectClientChecks } from '../../test/e2e/connectClient.js';
import type { LockFile, OpenWindow, SecondWindowOptions } from '../../test/e2e/types.js';
import { poll, visibleTreeRows, waitForWorkbench } from '../../test/e2e/workbench.js';
import type { Browser, Page } from 'playwright-core';
import { errorText } from '../lib/errorText.js';
import type { RunResult } from '../lib/project.js';

const startedAt = Date.now();
const keep = process.env.MCP_VSCODE_KEEP === '1';
const screenshotsDir = path.join(repoRoot, 'test-results', 'screenshots');

const cleanups = cleanupStack();
const cleanup = cleanups.run;

async function main(): Promise<RunResult> {
	await ensureProvisioned();
	const vsix = await packageExtension();
	fs.rmSync(screenshotsDir, { recursive: true, force: true });
	fs.mkdirSync(screenshotsDir, { recursive: true });

	const workspace = await makeFixtureWorkspace();
	if (!keep) { cleanups.push(() => workspace.remove()); }
	const mcpHome = makeMcpHome();
	if (!keep) { cleanups.push(() => mcpHome.remove()); }

	const server = await startCodeServer({
		workspace: workspace.dir,
		env: { MCP_WORKSPACE_RESOURCES_HOME: mcpHome.dir },
		installExtensions: [vsix],
		// bash, for the terminal check: VS Code injects shell integration into it.
		settings: { 'terminal.integrated.defaultProfile.linux': 'bash' },
	});
	cleanups.push(() => server.stop({ keepDir: keep }));
	step(`code-server ${server.url} with ${path.relative(repoRoot, vsix)} installed`);

	const browser = await launchBrowser();
	cleanups.push(() => browser.close());
	const { page } = await newWorkbenchPage(browser.browser, { origin: server.url, clipboard: true });
	page.on('pageerror', err => console.error(`[browser] page error: ${err.message}`));

	const serversDir = path.join(mcpHome.dir, 'servers');
	const lock = () => poll(() => {
		const files = fs.existsSync(serversDir) ? fs.readdirSync(serversDir).filter(f => /^\d+\.json$/.test(f)) : [];
		if (files.length !== 1) { return undefined; }
		return JSON.parse(fs.readFileSync(path.join(serversDir, files[0]), 'utf8')) as LockFile;
	}, `one lock file in ${serversDir}`, 60_000);
	const screenshot = async (name: string) => {
		const file = path.join(screenshotsDir, `${name}.png`);
		await page.screenshot({ path: file });
		console.log(`      screenshot ${path.relative(repoRoot, file)}`);
	};

	await page.goto(server.workbenchUrl(), { waitUntil: 'domcontentloaded', timeout: 60_000 });
	await waitForWorkbench(page);
	// The extension activates on startup finished; checks start once its server is up.
	await lock();
	step('workbench loaded, extension server up; running checks');

	let passing = 0;
	let failing = 0;
	const grep = process.env.MCP_E2E_GREP;
	for (const [index, check] of [...checks, ...pickerChecks, ...pickerFlowChecks, ...contextShotChecks, ...connectClientChecks].entries()) {
		if (grep && !check.name.includes(grep)) { continue; }
		const t0 = Date.now();
		try {
			await check.run({ page, lock, screenshot, workspaceDir: workspace.dir });
			passing++;
			console.log(`  ✔ ${check.name} (${Date.now() - t0} ms)`);
		} catch (err) {
			failing++;
			console.log(`  ✘ ${check.name}\n      ${errorText(err).split('\n').join('\n      ')}`);
			await reportFailure(page, `failed-${index + 1}`);
		}
	}

	// Checks that need a window of their own (other settings), each in a fresh code-server.
	const windowChecks = [
		{ name: 'restricted mode serves nothing: no server, no lock file, a shield in the status bar, and the view says why', run: () => restrictedModeCheck(browser, vsix) },
		{
			name: 'with AI features on, Attach Selected to Chat and drag and drop put the resources in the chat input (README and walkthrough picture)',
			run: () => inSecondWindow(browser, vsix, { settings: { 'chat.disableAIFeatures': false } },
				({ page }) => chatCheck({ page, screenshot: name => saveScreenshot(page, name) })),
		},
		...[...folderServerChecks, ...welcomeViewChecks].map(check => ({
			name: check.name,
			run: () => check.run({
				openWindow: (serverOptions, body) => inSecondWindow(browser, vsix, serverOptions, body),
				screenshot: saveScreenshot,
			}),
		})),
		{
			name: 'a hostile server in the settings: its data: icons show, nothing is fetched, its repeated cursor ends the list with a row',
			run: async () => {
				const hostile = await startHostileMcpServer();
				try {
					await inSecondWindow(browser, vsix, { settings: { 'mcpResources.servers': [{ name: 'Hostile', url: hostile.url }] } },
						({ page }) => hostileServerCheck({ page, hostile, screenshot: name => saveScreenshot(page, name) }));
				} finally {
					await hostile.stop();
				}
			},
		},
		{
			name: 'VS Code\'s MCP: Browse Resources shows our icon on each template and non-file resource, none on files (docs picture)',
			run: () => inSecondWindow(browser, vsix, { settings: { 'chat.disableAIFeatures': false } },
				({ page }) => mcpIconsCheck({ page, screenshot: name => saveScreenshot(page, name) })),
		},
		{
			name: 'VS Code\'s own MCP client: an open mcp-resource: editor keeps updating across Restart Server',
			run: () => inSecondWindow(browser, vsix, { settings: { 'chat.disableAIFeatures': false }, prepare: prepareVscodeClientWorkspace },
				({ page, mcpHome, workspaceDir }) => vscodeClientRestartCheck({ page, mcpHome, workspaceDir, screenshot: name => saveScreenshot(page, name) })),
		},
		{
			name: 'VS Code\'s own MCP client: chat\'s Configure Tools lists our server with its icon and every tool, and its log says "Discovered N tools" (README picture)',
			run: () => inSecondWindow(browser, vsix, { settings: { 'chat.disableAIFeatures': false } },
				({ page, mcpHome }) => vscodeToolsCheck({ page, mcpHome, screenshot: name => saveScreenshot(page, name) })),
		},
		{
			name: 'VS Code\'s own MCP client reads a line typed a moment ago and not saved (README picture)',
			run: () => inSecondWindow(browser, vsix, { settings: { 'chat.disableAIFeatures': false } },
				({ page, workspaceDir }) => unsavedTextCheck({ page, workspaceDir, screenshot: name => saveScreenshot(page, name) })),
		},
	];
	for (const check of windowChecks) {
		if (grep && !check.name.includes(grep)) { continue; }
		const t0 = Date.now();
		try {
			await check.run();
			passing++;
			console.log(`  ✔ ${check.name} (${Date.now() - t0} ms)`);
		} catch (err) {
			failing++;
			console.log(`  ✘ ${check.name}\n      ${errorText(err).split('\n').join('\n      ')}`);
		}
	}

	if (failing > 0) {
		for (const file of findLogs(server.userDataDir)) {
			const rel = path.relative(server.userDataDir, file);
			if (/MCP Resources|remoteexthost/i.test(rel)) {
				console.log(`\n----- ${rel} -----\n${fs.readFileSync(file, 'utf8').trimEnd()}\n----- end -----`);
			}
		}
	}
	return { passing, failing };
}

/** Saves a second window's screenshot in test-results/screenshots/, as the main window's `screenshot` does. */
async function saveScreenshot(page: Page, name: string): Promise<void> {
	await page.screenshot({ path: path.join(screenshotsDir, `${name}.png`) });
}

/** What a failed check leaves to look at: a screenshot, and the tree rows the sidebar renders. */
async function reportFailure(page: Page, name: string): Promise<void> {
	await page.screenshot({ path: path.join(screenshotsDir, `${name}.png`) }).catch(() => undefined);
	console.log(`      screenshot test-results/screenshots/${name}.png`);
	const rows = await visibleTreeRows(page).catch((): string[] => []);
	if (rows.length > 0) {
		console.log(`      sidebar tree rows:\n        ${rows.join('\n        ')}`);
	}
}

/**
 * Runs `body` against a workbench page of a fresh code-server with the fixture workspace;
 * `prepare(workspaceDir)` changes the workspace before the server opens it.
 */
async function inSecondWindow(browser: { browser: Browser }, vsix: string, { prepare, emptyWindow, ...serverOptions }: SecondWindowOptions, body: Parameters<OpenWindow>[1]): Promise<void> {
	const workspace = await makeFixtureWorkspace();
	prepare?.(workspace.dir);
	const mcpHome = makeMcpHome();
	const server = await startCodeServer({
		workspace: workspace.dir,
		env: { MCP_WORKSPACE_RESOURCES_HOME: mcpHome.dir },
		installExtensions: [vsix],
		...serverOptions,
	});
	try {
		const { page, context } = await newWorkbenchPage(browser.browser, { origin: server.url, clipboard: true });
		// code-server's `ew` opens an empty window instead of the folder it was started on.
		await page.goto(emptyWindow ? `${server.url}/?ew=true` : server.workbenchUrl(), { waitUntil: 'domcontentloaded', timeout: 60_000 });
		await waitForWorkbench(page);
		try {
			await body({ page, mcpHome, server, workspaceDir: workspace.dir });
		} catch (err) {
			await reportFailure(page, 'failed-second-window');
			throw err;
		} finally {
			await context.close();
		}
	} finally {
		await server.stop({ keepDir: keep });
		workspace.remove();
		mcpHome.remove();
	}
}

/**
 * Workspace trust on: the fixture folder is not trusted, so it opens in Restricted Mode,
 * where the extension must serve nothing.
 */
function restrictedModeCheck(browser: { browser: Browser }, vsix: string): Promise<void> {
	return inSecondWindow(browser, vsix, {
		trust: true,
		settings: { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'never' },
	}, async ({ page, mcpHome }) => {
		// The extension activates (limited support in untrusted workspaces) and says why it waits.
		const item = page.locator('[aria-label^="MCP Resources server stopped. Restricted Mode"]').first();
		await item.waitFor({ state: 'attached', timeout: 60_000 });
		const serversDir = path.join(mcpHome.dir, 'servers');
		const locks = fs.existsSync(serversDir) ? fs.readdirSync(serversDir).filter(f => f.endsWith('.json')) : [];
		if (locks.length !== 0) {
			throw new Error(`a server started in Restricted Mode: ${locks.join(', ')}`);
		}
		// With no server of the user's the view is empty, and its welcome text says what still works.
		await page.locator('.part.activitybar [aria-label^="MCP Resources"]').first().click();
		const welcome = page.locator('.part.sidebar .welcome-view-content');
		await poll(async () => await welcome.isVisible() && /named in this folder's settings are ignored until you trust it[\s\S]*Servers from your user settings can still be browsed/.test(await welcome.innerText()),
			'the Restricted Mode welcome text in the MCP Resources view');
		await page.screenshot({ path: path.join(screenshotsDir, 'restricted-mode.png') });
	});
}

await finishRun({ label: 'e2e', main, cleanup, startedAt });
