// Small Playwright helpers for the VS Code workbench served by code-server.
/* global setTimeout */
import * as assert from 'node:assert/strict';

/** Waits for the workbench shell (status bar) to be on screen. */
export async function waitForWorkbench(page, timeout = 90_000) {
	await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout });
}

/** The quick input widget (command palette, quick picks). */
export function quickInput(page) {
	return page.locator('.quick-input-widget');
}

/** Labels of the rows the visible quick input shows. */
export async function quickInputLabels(page) {
	const rows = quickInput(page).locator('.monaco-list-row');
	await rows.first().waitFor({ state: 'visible', timeout: 10_000 });
	return (await rows.allInnerTexts()).map(t => t.replace(/\s+/g, ' ').trim());
}

export async function closeQuickInput(page) {
	if (await quickInput(page).isVisible()) {
		await page.keyboard.press('Escape');
		await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
	}
}

/** Opens the command palette with F1 and runs the command whose row has exactly `title`. */
export async function runFromPalette(page, title) {
	await closeQuickInput(page);
	await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } }).catch(() => undefined);
	await page.keyboard.press('F1');
	const input = quickInput(page).locator('input');
	await input.waitFor({ state: 'visible', timeout: 10_000 });
	await input.fill(`>${title}`);
	const row = quickInput(page).locator('.monaco-list-row', { hasText: title }).first();
	await row.waitFor({ state: 'visible', timeout: 10_000 });
	const label = (await row.innerText()).replace(/\s+/g, ' ').trim();
	assert.ok(label.startsWith(title), `palette row "${label}" is the command "${title}"`);
	await page.keyboard.press('Enter');
	await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Polls `predicate` until truthy (returned) or throws after `timeout` ms. */
export async function poll(predicate, message, timeout = 15_000, interval = 100) {
	const deadline = Date.now() + timeout;
	let last;
	for (;;) {
		try {
			const value = await predicate();
			if (value) { return value; }
		} catch (err) {
			last = err;
		}
		if (Date.now() > deadline) {
			throw new Error(`Timed out after ${timeout} ms waiting for ${message}${last ? ` (last error: ${last.message})` : ''}`);
		}
		await new Promise(r => setTimeout(r, interval));
	}
}
