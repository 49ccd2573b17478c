// Browser checks of the packaged extension's UI in code-server. Each check is a plain async
// function that throws (assert or timeout) to fail; scripts/run/e2e.ts runs them in order
// against one workbench page and writes screenshots to test-results/screenshots/.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { clipboardAfter, closeQuickInput, poll, quickInput, quickInputLabels, runFromPalette } from './workbench.js';
import type { E2ECheck } from './types.js';

function port(url: string): string {
	return new URL(url).port;
}

/** The extension's status bar item (found by its text, `MCP`). */
function statusItem(page: Page): Locator {
	return page.locator('.part.statusbar .statusbar-item', { hasText: /\bMCP\b/ }).first();
}

export const checks: E2ECheck[] = [
	{
		name: 'the status bar item shows MCP and the server port',
		async run({ page, lock, screenshot }) {
			const { url } = await lock();
			const item = statusItem(page);
			await item.waitFor({ state: 'visible', timeout: 30_000 });
			await poll(async () => (await item.innerText()).includes(port(url)),
				`status bar text with port ${port(url)}`);
			const text = (await item.innerText()).trim();
			assert.match(text, /MCP/);
			const aria = await item.getAttribute('aria-label') ?? await item.locator('[aria-label]').first().getAttribute('aria-label');
			assert.ok(aria && aria.length > 0, 'the item has an aria-label');
			await screenshot('status-bar');
		},
	},
	{
		name: 'clicking the status bar item shows the server actions',
		async run({ page, screenshot }) {
			await closeQuickInput(page);
			await statusItem(page).click();
			await quickInput(page).waitFor({ state: 'visible', timeout: 10_000 });
			const labels = await quickInputLabels(page);
			for (const action of ['Restart Server', 'Copy Connection Info', 'Show Log']) {
				assert.ok(labels.some(l => l.includes(action)), `quick pick offers "${action}" (has: ${labels.join(' | ')})`);
			}
			await screenshot('quick-pick');
			await closeQuickInput(page);
		},
	},
	{
		name: 'the command palette runs "MCP Resources: Copy Connection Info" and the clipboard has the url',
		async run({ page, lock }) {
			const { url, token } = await lock();
			const text = await clipboardAfter(page, () => runFromPalette(page, 'MCP Resources: Copy Connection Info'));
			assert.ok(text.includes('http://127.0.0.1:'), `clipboard has a loopback url: ${text.slice(0, 200)}`);
			assert.ok(text.includes(url), `clipboard has the server url ${url}`);
			assert.ok(text.includes(token), 'clipboard has the token');
		},
	},
	{
		name: 'the command palette runs "MCP Resources: Show Log" and the "MCP Resources" output is shown',
		async run({ page, screenshot }) {
			await runFromPalette(page, 'MCP Resources: Show Log');
			const panel = page.locator('.part.panel');
			await panel.waitFor({ state: 'visible', timeout: 10_000 });
			// The output view names the selected channel (a select box in the view's title bar).
			await poll(async () => {
				const names = await panel.locator('select, .monaco-select-box, [aria-label*="Output"]').evaluateAll(
					els => els.map(e => (e instanceof HTMLSelectElement ? e.options[e.selectedIndex]?.text : '') || e.getAttribute('title') || e.textContent || ''));
				return names.some(n => n.includes('MCP Resources'));
			}, 'the output view to show the "MCP Resources" channel');
			await poll(async () => (await panel.locator('.view-lines').allInnerTexts()).join('\n').replace(/\u00a0/g, ' ').includes('MCP server listening'),
				'the log text "MCP server listening" in the output view');
			await screenshot('log');
		},
	},
	{
		name: 'the palette offers all MCP Resources commands',
		async run({ page }) {
			await closeQuickInput(page);
			await page.keyboard.press('F1');
			const input = quickInput(page).locator('input');
			await input.waitFor({ state: 'visible', timeout: 10_000 });
			// One search per command: the palette renders only the rows that fit on screen.
			for (const title of ['Restart Server', 'Copy Connection Info', 'Show Log', 'Pick Resources...', 'Attach Selected', 'Add Server...', 'Remove Server...', 'Fill Template...']) {
				await input.fill(`>MCP Resources: ${title}`);
				await poll(async () => (await quickInputLabels(page)).some(l => l.startsWith(`MCP Resources: ${title}`)), `palette has "MCP Resources: ${title}"`);
			}
			await closeQuickInput(page);
		},
	},
	{
		name: 'choosing "Rotate Token" in the status bar quick pick restarts with a new token, shown in the status bar',
		async run({ page, lock }) {
			const before = await lock();
			await closeQuickInput(page);
			await statusItem(page).click();
			const row = quickInput(page).locator('.monaco-list-row', { hasText: 'Rotate Token' }).first();
			await row.waitFor({ state: 'visible', timeout: 10_000 });
			await row.click();
			const after = await poll(async () => {
				const current = await lock();
				return current.token !== before.token ? current : undefined;
			}, 'a lock file with a new token');
			await poll(async () => (await statusItem(page).innerText()).includes(port(after.url)),
				`status bar showing the port ${port(after.url)} after the restart`);
		},
	},
];
