// The picker section with --ui: the packaged extension in code-server on the picker's
// workspace, driven by headless Chromium. Per run (a fresh code-server, so a cold extension
// host): once the window's server has indexed the folder, the time from clicking the activity
// bar icon to the first tree level (This workspace expanded: Files and its folders) on screen,
// and the time from the last keystroke of a query to its first match on screen, in the view's
// Filter and in Pick Resources.... Times are taken in the page (performance.now()) from the
// input event to the frame where the row exists, so the browser driver's latency is not in them.
// Needs `npm run provision`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { ensureProvisioned } from '../lib/vscodeEnv.js';
import { findLogs, startCodeServer } from '../lib/codeServer.js';
import { launchBrowser, newWorkbenchPage } from '../lib/browser.js';
import { cleanupStack } from '../lib/processes.js';
import { makeMcpHome, packageExtension } from '../lib/project.js';
import { poll, quickInput, waitForWorkbench } from '../../test/e2e/workbench.js';
import type { Browser, Page } from 'playwright-core';
import { median } from './measurement.js';
import { fmt, renderTable } from './report.js';
import type { SectionReport } from './section.js';

/** The page's time of the last mousedown or keydown (set by markInputs). */
type BenchWindow = { __benchSince: number };

const FILTERS = [
	{ query: 'entry-4999', row: 'entry-4999.txt' },
	{ query: 'file042', row: 'file042.ts' },
	{ query: 'pkg000 mod3 file099', row: 'file099.ts' },
];

/**
 * Resolves, in the page, with the ms from the last `since` event (a mousedown or keydown seen
 * by a capture listener) to the first animation frame in which a visible element matching
 * `selector` has `text` at the start of its aria-label or anywhere in its text.
 */
function timeUntilRow(page: Page, selector: string, text: string, timeout = 60_000): Promise<number> {
	return page.evaluate(({ selector, text, timeout }) => new Promise<number>((resolve, reject) => {
		const deadline = performance.now() + timeout;
		const check = () => {
			const hit = [...document.querySelectorAll(selector)].some(el => el.getClientRects().length > 0
				&& ((el.getAttribute('aria-label') ?? '').trim().startsWith(text) || (el.textContent ?? '').includes(text)));
			if (hit) {
				resolve(performance.now() - (window as unknown as BenchWindow).__benchSince);
			} else if (performance.now() > deadline) {
				reject(new Error(`no "${text}" row within ${timeout} ms`));
			} else {
				requestAnimationFrame(check);
			}
		};
		check();
	}), { selector, text, timeout });
}

async function markInputs(page: Page): Promise<void> {
	await page.evaluate(() => {
		for (const type of ['mousedown', 'keydown']) {
			document.addEventListener(type, () => { (window as unknown as BenchWindow).__benchSince = performance.now(); }, true);
		}
	});
}

interface PickerUiRun { logLine: string; viewMs: number; firstLevelMs: number; filterMs: number[]; pickMs: number[] }

async function oneRun(browser: { browser: Browser }, vsix: string, workspace: string): Promise<PickerUiRun> {
	const mcpHome = makeMcpHome();
	const cleanups = cleanupStack();
	let pageForFailure: Page | undefined;
	try {
		const server = await startCodeServer({ workspace, env: { MCP_WORKSPACE_RESOURCES_HOME: mcpHome.dir }, installExtensions: [vsix] });
		cleanups.push(() => server.stop({}));
		const { page, context } = await newWorkbenchPage(browser.browser, { origin: server.url });
		pageForFailure = page;
		cleanups.push(() => context.close());
		await page.goto(server.workbenchUrl(), { waitUntil: 'domcontentloaded', timeout: 60_000 });
		await waitForWorkbench(page);
		// The window's server is up and its status bar says how many files it indexed.
		const serversDir = path.join(mcpHome.dir, 'servers');
		await poll(() => fs.existsSync(serversDir) && fs.readdirSync(serversDir).some(f => f.endsWith('.json')), 'the lock file', 120_000);
		const logLine = await poll(async () => {
			const logs = findLogs(server.userDataDir).find(f => f.endsWith('MCP Resources.log'));
			const text = logs ? fs.readFileSync(logs, 'utf8') : '';
			return /indexed [\d,]+ files in [\d,]+ ms/.exec(text)?.[0];
		}, 'the index to be built', 120_000, 250);
		await markInputs(page);

		const tree = '.part.sidebar .monaco-list-row[role="treeitem"]';
		await page.locator('.part.activitybar [aria-label^="MCP Resources"]').first().click();
		const viewMs = await timeUntilRow(page, tree, 'This workspace');
		await page.locator(tree, { hasText: 'This workspace' }).first().click();
		const firstLevelMs = await timeUntilRow(page, tree, 'big');
		// Searches are timed once every page is in (the server row then counts the resources).
		await page.locator(tree, { hasText: /\d resources/ }).first().waitFor({ timeout: 120_000 });

		const filterMs: number[] = [];
		let previous = '';
		for (const { query, row } of FILTERS) {
			// Now and then the palette, closing, takes the just-opened filter box with it and the
			// typed query is lost (a workbench race, not a slow filter); such attempts are retried.
			for (let attempt = 1; ; attempt++) {
				await page.keyboard.press('F1');
				const input = quickInput(page).locator('input');
				await input.fill('>MCP Resources: Filter Resources...');
				await quickInput(page).locator('.monaco-list-row', { hasText: 'Filter Resources...' }).first().waitFor();
				await page.keyboard.press('Enter');
				// The box opens holding the last query; typing over it replaces it, as a user would.
				await poll(async () => /Part of a name/.test(await input.getAttribute('placeholder') ?? '') && await input.inputValue() === previous, 'the filter input');
				await input.press('Control+A');
				await input.pressSequentially(query);
				const ms = await timeUntilRow(page, tree, row, 10_000).catch(async (err: unknown) => {
					if (attempt < 3 && !(await quickInput(page).isVisible())) {
						console.error(`filter "${query}": the box closed before the query applied; retrying`);
						return undefined;
					}
					throw err;
				});
				if (ms !== undefined) {
					filterMs.push(ms);
					previous = query;
					await page.keyboard.press('Escape');
					break;
				}
			}
		}

		const pickMs: number[] = [];
		for (const { query, row } of FILTERS) {
			await page.keyboard.press('Control+Alt+M');
			const input = quickInput(page).locator('input');
			await poll(async () => /Search [\d,]+ resources/.test(await input.getAttribute('placeholder') ?? ''), 'Pick Resources');
			await input.pressSequentially(query);
			pickMs.push(await timeUntilRow(page, '.quick-input-list .monaco-list-row', row));
			await page.keyboard.press('Escape');
		}
		return { logLine, viewMs, firstLevelMs, filterMs, pickMs };
	} catch (err) {
		await pageForFailure?.screenshot({ path: path.join(repoRoot, 'test-results', 'bench-picker-ui-failed.png') }).catch(() => undefined);
		throw err;
	} finally {
		await cleanups.run();
		mcpHome.remove();
	}
}

/** The picker in the real UI on `workspace`: `runs` cold windows, medians. */
export async function measurePickerUi(workspace: string, files: number, runs: number, log: (message: string) => void): Promise<SectionReport> {
	await ensureProvisioned();
	const vsix = await packageExtension();
	const browser = await launchBrowser();
	const results: PickerUiRun[] = [];
	try {
		for (let i = 0; i < runs; i++) {
			results.push(await oneRun(browser, vsix, workspace));
			log(`run ${i + 1}: ${JSON.stringify(results[i])}`);
		}
	} finally {
		await browser.close();
	}
	const mid = (pick: (r: PickerUiRun) => number) => fmt(median(results.map(pick)));
	const rows = [
		['click on the activity bar icon to "This workspace" on screen (ms)', mid(r => r.viewMs), ''],
		['click on "This workspace" to Files and its folders on screen (ms)', mid(r => r.firstLevelMs), ''],
		...FILTERS.map(({ query }, i) => [`"${query}": last keystroke to first match (ms)`, mid(r => r.filterMs[i]), mid(r => r.pickMs[i])]),
	];
	return {
		results: { files, runs: results },
		text: [`the picker in the real UI (code-server, headless Chromium): ${files.toLocaleString('en-US')} files, median of ${runs} cold windows; ${results[results.length - 1]?.logLine}`,
			renderTable(['', 'view / Filter', 'Pick Resources'], rows)].join('\n'),
	};
}
