// Browser check of the picker against a hostile server (test/e2e/hostileMcpServer.ts) in the
// user's settings: its data: PNG icons show on its rows, its remote icons and the images and
// links in its descriptions are never fetched, and its repeated cursor ends the listing with
// a row that says so.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { HostileMcpServer } from './hostileMcpServer.js';
import { collapseAll, expand, openPicker, poll, treeItem } from './workbench.js';

/** The background image of a tree row's icon ('' for a codicon). */
function rowIcon(row: Locator): Promise<string> {
	return row.locator('.custom-view-tree-node-item-icon').first().evaluate(el => (el as HTMLElement).style.backgroundImage);
}

export async function hostileServerCheck({ page, screenshot, hostile }: { page: Page; screenshot(name: string): Promise<void>; hostile: HostileMcpServer }): Promise<void> {
	await openPicker(page);
	await collapseAll(page);
	const server = treeItem(page, /^Hostile/);
	await server.waitFor({ state: 'visible', timeout: 30_000 });
	await poll(async () => (await rowIcon(server)).includes(hostile.serverPng), 'the server row showing its data: icon');
	await expand(page, /^Hostile/);
	await treeItem(page, /^Stopped at 3 resources: the server sent the same page cursor twice/).waitFor({ state: 'visible', timeout: 20_000 });
	await expand(page, /^Other\b/);
	const signed = treeItem(page, /^Signed doc/);
	await signed.waitFor({ state: 'visible', timeout: 10_000 });
	assert.ok((await rowIcon(signed)).includes(hostile.png), 'the resource row shows its data: PNG icon');
	const tracked = treeItem(page, /^Tracked doc/);
	assert.equal(await rowIcon(tracked), '', 'a remote icon is not used: the row keeps its codicon');
	await expand(page, /^Templates\b/);
	assert.equal(await rowIcon(treeItem(page, /^by id/)), '', 'nor on a template');

	// The description's image, link, HTML and bare URL show as text in the tooltip.
	// A redraw of the tree under the pointer (the server's rows relisted) cancels a hover before it
	// shows, as it would a user's: point at the row again until its tooltip is up.
	const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'Looks harmless' }).first();
	await poll(async () => {
		await page.mouse.move(700, 300);
		await tracked.hover();
		return hover.waitFor({ state: 'visible', timeout: 2_000 }).then(() => true, () => false);
	}, 'the tooltip of the tracked row', 20_000, 0);
	const rendered = await hover.evaluate(el => ({ images: el.querySelectorAll('img').length, links: [...el.querySelectorAll('a')].map(a => a.getAttribute('href') ?? a.textContent) }));
	assert.deepEqual(rendered, { images: 0, links: [] }, JSON.stringify(rendered));
	assert.match(await hover.innerText(), /!\[pixel\]\(http:\/\/127\.0\.0\.1:\d+\/tooltip\.png\)/);
	await screenshot('picker-hostile');
	await page.mouse.move(700, 300);
	assert.deepEqual(hostile.hits, [], 'nothing was fetched from the tracker');
}
