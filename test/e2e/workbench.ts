// Small Playwright helpers for the VS Code workbench served by code-server.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';

/** Waits for the workbench shell (status bar) to be on screen. */
export async function waitForWorkbench(page: Page, timeout = 90_000): Promise<void> {
	await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout });
}

/** The quick input widget (command palette, quick picks). */
export function quickInput(page: Page): Locator {
	return page.locator('.quick-input-widget');
}

/** Labels of the rows the visible quick input shows. */
export async function quickInputLabels(page: Page): Promise<string[]> {
	const rows = quickInput(page).locator('.monaco-list-row');
	await rows.first().waitFor({ state: 'visible', timeout: 10_000 });
	return (await rows.allInnerTexts()).map(t => t.replace(/\s+/g, ' ').trim());
}

export async function closeQuickInput(page: Page): Promise<void> {
	if (await quickInput(page).isVisible()) {
		await page.keyboard.press('Escape');
		await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
	}
}

/** Opens the command palette with F1 and runs the command whose row has exactly `title`. */
export async function runFromPalette(page: Page, title: string): Promise<void> {
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

/**
 * Reloads the window as a user does, with Developer: Reload Window: the workbench shuts down
 * first, which writes pending state (an extension's workspaceState) to the browser's storage.
 * `page.reload()` skips that: an answer saved just before could be lost and asked for again.
 * Resolves once the new window's status bar is up.
 */
export async function reloadWindow(page: Page): Promise<void> {
	const loaded = page.waitForEvent('domcontentloaded', { timeout: 90_000 });
	await runFromPalette(page, 'Developer: Reload Window');
	await loaded;
	await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 90_000 });
}

/** Polls `predicate` until truthy (returned) or throws after `timeout` ms. */
export async function poll<T>(predicate: () => T | Promise<T>, message: string, timeout = 15_000, interval = 100): Promise<NonNullable<T>> {
	const deadline = Date.now() + timeout;
	let last: unknown;
	for (;;) {
		try {
			const value = await predicate();
			if (value) { return value as NonNullable<T>; }
		} catch (err) {
			last = err;
		}
		if (Date.now() > deadline) {
			throw new Error(`Timed out after ${timeout} ms waiting for ${message}${last ? ` (last error: ${last instanceof Error ? last.message : String(last)})` : ''}`);
		}
		await new Promise(r => setTimeout(r, interval));
	}
}

/** A row of the sidebar's tree view, by its accessible name. */
export function treeItem(page: Page, name: string | RegExp): Locator {
	return page.locator('.part.sidebar').getByRole('treeitem', { name }).first();
}

/** The number on the MCP Resources activity bar icon ('' when there is none). */
export function selectionBadge(page: Page): Promise<string> {
	return page.evaluate(() => {
		const label = [...document.querySelectorAll('.part.activitybar [aria-label^="MCP Resources"]')][0];
		return label?.closest('li.action-item')?.querySelector('.badge-content')?.textContent?.trim() ?? '';
	});
}

/**
 * Clicks `target` until `done()` holds, at most 3 times. When the tree redraws (the workspace
 * or a server's state changing under it), a click that lands mid-redraw can be dropped by the
 * workbench. `done` is checked before every click, so a click that took effect late is never
 * undone by the next one (which would untick a row or collapse it again).
 */
export async function clickUntil(target: Locator, done: () => Promise<boolean>, what: string): Promise<void> {
	for (let clicks = 0; !(await done()); clicks++) {
		if (clicks === 3) {
			throw new Error(`no ${what} after ${clicks} clicks`);
		}
		await target.click();
		await poll(done, what, 3_000).catch(() => undefined);
	}
}

/** Ticks a tree row's checkbox. */
export async function tick(row: Locator, what: string | RegExp): Promise<void> {
	await row.waitFor({ state: 'visible', timeout: 15_000 });
	await clickUntil(row.locator('.custom-view-tree-node-item-checkbox, .monaco-checkbox, [role="checkbox"]').first(),
		async () => /selected/.test(await row.getAttribute('aria-label') ?? ''), `${what} checked`);
}

/**
 * A server's own row, not the held row that stands for it until the user answers (clicking that
 * one asks again): the held row's description ends "click to review".
 */
export function serverRowOf(page: Page, name: string | RegExp): Locator {
	return page.locator('.part.sidebar').getByRole('treeitem', { name }).filter({ hasNotText: 'click to review' }).first();
}

/** Expands a tree row, by its accessible name. */
export async function expand(page: Page, name: string | RegExp): Promise<void> {
	const row = treeItem(page, name);
	await row.waitFor({ state: 'visible', timeout: 15_000 });
	await clickUntil(row, async () => await row.getAttribute('aria-expanded') === 'true', `${name} expanded`);
}

/**
 * Drags with real mouse events in small steps: VS Code's lists start a drag only after the
 * pointer moves with the button held, and its drop targets need dragover events on the way.
 */
export async function drag(page: Page, source: Locator, target: Locator): Promise<void> {
	const from = await source.boundingBox();
	const to = await target.boundingBox();
	assert.ok(from && to, 'drag source and target are on screen');
	const [sx, sy] = [from.x + Math.min(80, from.width / 2), from.y + from.height / 2];
	const [tx, ty] = [to.x + to.width / 2, to.y + to.height / 2];
	await page.mouse.move(sx, sy);
	await page.mouse.down();
	for (let i = 1; i <= 20; i++) {
		await page.mouse.move(sx + (tx - sx) * i / 20, sy + (ty - sy) * i / 20);
	}
	await page.mouse.up();
}

/**
 * Drags `source` onto `target` until `done` holds, at most three times, as `clickUntil` clicks:
 * a drag that starts while the tree redraws its rows (a notification, a refresh) is dropped by
 * the workbench, and nothing then happens.
 */
export async function dragUntil(page: Page, source: Locator, target: Locator, done: () => Promise<boolean>, what: string): Promise<void> {
	for (let drags = 0; !(await done()); drags++) {
		if (drags === 3) {
			throw new Error(`no ${what} after ${drags} drags`);
		}
		await drag(page, source, target);
		await poll(done, what, 5_000).catch(() => undefined);
	}
}

/** Runs `action` and resolves with the clipboard text it left (a sentinel tells it changed). */
export async function clipboardAfter(page: Page, action: () => Promise<void>): Promise<string> {
	const sentinel = `sentinel ${Date.now()}`;
	await page.evaluate(s => navigator.clipboard.writeText(s), sentinel);
	await action();
	return poll(async () => {
		const current = await page.evaluate(() => navigator.clipboard.readText());
		return current !== sentinel ? current : undefined;
	}, 'the clipboard to change');
}

/** An action in the sidebar view's title bar, by its label. */
export function viewTitleAction(page: Page, label: string): Locator {
	return page.locator(`.part.sidebar .title-actions .action-label[aria-label="${label}"]`).first();
}

/**
 * Collapses the picker's tree with its "Collapse All" title action. The tree only renders the
 * rows in view, so a check that expands something new starts from a short tree.
 */
export async function collapseAll(page: Page): Promise<void> {
	await viewTitleAction(page, 'Collapse All').click();
	await poll(async () => await treeItem(page, /^This workspace/).getAttribute('aria-expanded') === 'false', 'the tree collapsed');
}

/**
 * Runs `action` with the picker's tree narrowed by its "Filter Resources..." box to `query`, and
 * clears the filter afterwards (also when `action` throws), waiting for README.md again as the
 * later checks expect the tree they found. The filter brings a row into the view whatever the
 * tree's height: the tree renders only the rows in view, so a row under tall groups has no element.
 */
export async function withFilter<T>(page: Page, query: string, action: () => Promise<T>): Promise<T> {
	await openPicker(page);
	await viewTitleAction(page, 'Filter Resources...').click();
	try {
		const input = quickInput(page).locator('input');
		await poll(async () => /Part of a name/.test(await input.getAttribute('placeholder') ?? ''), 'the filter box');
		await input.fill(query);
		await page.keyboard.press('Enter');
		await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
		return await action();
	} finally {
		await closeQuickInput(page);
		if (await viewTitleAction(page, 'Clear Filter').isVisible()) {
			await viewTitleAction(page, 'Clear Filter').click();
		}
		await treeItem(page, /^README\.md/).waitFor({ state: 'visible', timeout: 15_000 });
	}
}

/** The tree rows the sidebar shows (for a failed check's report). */
export function visibleTreeRows(page: Page): Promise<string[]> {
	return page.locator('.part.sidebar [role="treeitem"]').evaluateAll(rows => rows.map(r =>
		`${'  '.repeat(Math.max(0, Number(r.getAttribute('aria-level') ?? 1) - 1))}${r.getAttribute('aria-expanded') === 'true' ? 'v ' : r.getAttribute('aria-expanded') === 'false' ? '> ' : '  '}${r.getAttribute('aria-label')}`));
}

/** Opens the picker view with "This workspace" expanded. */
export async function openPicker(page: Page): Promise<void> {
	await closeQuickInput(page);
	const icon = page.locator('.part.activitybar [aria-label^="MCP Resources"]').first();
	if (!(await treeItem(page, /^This workspace/).isVisible().catch(() => false))) {
		await icon.click();
	}
	await treeItem(page, /^This workspace/).waitFor({ state: 'visible', timeout: 20_000 });
	await expand(page, /^This workspace/);
	await treeItem(page, /^README\.md/).waitFor({ state: 'visible', timeout: 30_000 });
}

/**
 * Runs a palette command that opens a quick input of its own, and leaves that open; with
 * `placeholderPattern`, waits for its placeholder. Resolves with the input box.
 */
export async function openPalettePick(page: Page, title: string, placeholderPattern?: RegExp): Promise<Locator> {
	await closeQuickInput(page);
	await page.keyboard.press('F1');
	const input = quickInput(page).locator('input');
	await input.waitFor({ state: 'visible', timeout: 10_000 });
	await input.fill(`>${title}`);
	await quickInput(page).locator('.monaco-list-row', { hasText: title }).first().waitFor({ state: 'visible', timeout: 10_000 });
	await page.keyboard.press('Enter');
	if (placeholderPattern) {
		await poll(async () => placeholderPattern.test(await input.getAttribute('placeholder') ?? ''), `the quick input of "${title}"`);
	}
	return input;
}

/** A row of the open quick input, by its text. */
export function quickRow(page: Page, text: string): Locator {
	return quickInput(page).locator('.monaco-list-row', { hasText: text }).first();
}

/** Opens a workspace file by path with Quick Open (the palette without its `>`). */
export async function quickOpen(page: Page, relPath: string): Promise<void> {
	await closeQuickInput(page);
	await page.keyboard.press('F1');
	const input = quickInput(page).locator('input');
	await input.waitFor({ state: 'visible', timeout: 10_000 });
	await input.fill(relPath);
	const name = relPath.split('/').pop() ?? relPath;
	await quickInput(page).locator('.monaco-list-row', { hasText: name }).first().waitFor({ state: 'visible', timeout: 15_000 });
	await page.keyboard.press('Enter');
	await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
	await poll(async () => (await activeTabText(page)).includes(name), `the ${name} tab active`);
}

/** The text of the active group's active tab. */
export async function activeTabText(page: Page): Promise<string> {
	const tabs = await page.locator('.part.editor .editor-group-container.active .tabs-container .tab').evaluateAll(els =>
		els.map(el => ({ active: el.classList.contains('active'), text: el.textContent ?? '' })));
	return tabs.find(t => t.active)?.text ?? '';
}

/** The text of the active editor's visible lines. */
export async function activeEditorText(page: Page): Promise<string> {
	const text = await page.locator('.part.editor .editor-group-container.active .editor-instance .view-lines').first().innerText();
	return text.replace(/\u00a0/g, ' ');
}

/** Moves the pointer off the tree and waits for hovers to go, so none is in the picture. */
export async function noHover(page: Page): Promise<void> {
	await page.mouse.move(700, 880);
	await poll(async () => !(await page.locator('.monaco-hover, .workbench-hover').first().isVisible().catch(() => false)), 'hovers to close');
}

/** Hides the bottom panel if an earlier check left it open (the Output of Show Log), for room. */
export async function hidePanel(page: Page): Promise<void> {
	if (await page.locator('.part.panel').isVisible()) {
		await runFromPalette(page, 'View: Toggle Panel Visibility');
		await page.locator('.part.panel').waitFor({ state: 'hidden', timeout: 10_000 });
	}
}
