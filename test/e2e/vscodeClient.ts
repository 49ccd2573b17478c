// VS Code's own MCP client across our Restart Server. A restart ends every session; VS Code's
// client, left alone, would stay "Running" with no session (or "Stopped", when the restart also
// changed the token), and an open `mcp-resource:` editor would stop hearing about changes. The
// check: a resource opened from MCP: Browse Resources updates when its file changes, and still
// does after Restart Server, with nobody starting VS Code's client again by hand.
// Needs AI features on (VS Code hides its MCP commands otherwise).
//
// How VS Code refreshes that editor (code-server 1.139, workbench.js): its MCP resource file
// system subscribes to the URI and, on `notifications/resources/updated`, fires a change; the
// text file model then reloads only when the file's etag changed, and that file system's stat
// is `{ mtime: 0, size: <bytes of the read> }`. So the etag is the length: every change here
// changes the length (a same-length change is never shown, whatever the server sends).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { openBrowseResources } from './mcpIcons.js';
import type { LockFile, WindowCheckContext } from './types.js';
import { closeQuickInput, openPicker, poll, quickInput, runFromPalette } from './workbench.js';

/** The workspace file the check opens as `mcp-resource:` and changes. */
const LIVE_FILE = 'live-edit.txt';
/** Three versions, each of a different length (see above: the length is the etag). */
const VERSIONS = ['first version\n', 'second version, a little longer\n', 'third version, after Restart Server, the longest\n'];

/**
 * VS Code's MCP file system answers every stat and read of a URI from one read for 3 s after
 * it started (`_momentaryCache`, `hRr=3e3` in workbench.js). A change notified inside that
 * window is checked against the cached read, finds the same etag and is dropped for good. The
 * read that showed a version started before the editor showed it, so 3 s after that moment no
 * cached read is left: there is nothing in the page to poll for instead.
 */
const VSCODE_READ_CACHE_MS = 3_000;

/** Writes `version` only once VS Code can no longer answer from a read made before `shownAt`. */
async function changeFileAfterReadCache(workspaceDir: string, shownAt: number, version: string): Promise<void> {
	const wait = shownAt + VSCODE_READ_CACHE_MS - Date.now();
	if (wait > 0) {
		await new Promise(resolve => setTimeout(resolve, wait));
	}
	fs.writeFileSync(path.join(workspaceDir, LIVE_FILE), version);
}

/** The number of connected clients the status bar shows (`MCP :PORT · N`). */
async function connectedClients(page: Page): Promise<number> {
	const text = await page.locator('.statusbar-item', { hasText: /MCP :\d+/ }).first().innerText();
	return Number(/·\s*(\d+)/.exec(text)?.[1] ?? 0);
}

/** The active editor tab. */
function activeTab(page: Page): Locator {
	return page.locator('.part.editor .editor-group-container.active .tab.active').first();
}

/** The text the active editor shows (the rendered lines, as a user sees them). */
async function editorText(page: Page): Promise<string> {
	const lines = page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first();
	return (await lines.innerText()).replace(/\u00a0/g, ' ');
}

/** Polls until the open editor shows `version`; resolves with the time it did. */
async function editorShows(page: Page, version: string, what: string): Promise<number> {
	await poll(async () => (await editorText(page)).trim() === version.trim(), `${what}: the editor shows "${version.trim()}"`, 30_000);
	return Date.now();
}

/** The discovery lock file's content (one per window; rewritten on every start). */
export function readLock(mcpHome: { dir: string }): (LockFile & { startedAt?: string }) | undefined {
	const dir = path.join(mcpHome.dir, 'servers');
	const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => /^\d+\.json$/.test(f)) : [];
	return files.length === 1 ? JSON.parse(fs.readFileSync(path.join(dir, files[0]), 'utf8')) as LockFile & { startedAt?: string } : undefined;
}

/** Prepares the workspace: the file the check opens, in its first version. */
export function prepareVscodeClientWorkspace(workspaceDir: string): void {
	fs.writeFileSync(path.join(workspaceDir, LIVE_FILE), VERSIONS[0]);
}

export async function vscodeClientRestartCheck({ page, mcpHome, workspaceDir, screenshot }: WindowCheckContext & { mcpHome: { dir: string }; workspaceDir: string }): Promise<void> {
	// Open the file's resource the way a user does: MCP: Browse Resources, pick the row. This
	// also starts VS Code's client (a provided server starts when something needs it).
	const input = await openBrowseResources(page);
	await input.fill(`mcpr ${LIVE_FILE}`);
	const row = quickInput(page).locator('.monaco-list-row', { hasText: LIVE_FILE }).first();
	await row.waitFor({ state: 'visible', timeout: 30_000 });
	await row.click();
	await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
	await closeQuickInput(page);
	let shownAt = await editorShows(page, VERSIONS[0], 'opened from Browse Resources');
	// The tab's hover names the document: the mcp-resource: URI's path (`/file/<authority>/<path>`),
	// where the workspace file's own editor would show the file's path.
	// A hover can be dropped while the workbench settles: point again until it shows.
	const hover = await poll(async () => {
		const text = (await page.locator('.workbench-hover').allInnerTexts()).join(' ').trim();
		if (!text) {
			await page.mouse.move(0, 0);
			await activeTab(page).hover();
		}
		return text;
	}, 'the tab\'s hover', 30_000, 1_000);
	assert.ok(hover.startsWith('/file/') && hover.includes(`${workspaceDir}/${LIVE_FILE}`),
		`the editor is VS Code's mcp-resource: document of ${LIVE_FILE}, not the file (hover: ${hover})`);
	await page.mouse.move(0, 0);
	// The picker connects when something needs it (its view, shown once here), not when the
	// window starts; the sidebar then goes back to the Explorer, as the screenshot shows it.
	await openPicker(page);
	await runFromPalette(page, 'View: Show Explorer');
	await poll(async () => await connectedClients(page) === 2, 'VS Code\'s client and the picker connected', 30_000);

	// A change on disk reaches the open editor.
	await changeFileAfterReadCache(workspaceDir, shownAt, VERSIONS[1]);
	shownAt = await editorShows(page, VERSIONS[1], 'after a change on disk');

	// Restart Server: once the restarted server wrote its lock file, VS Code's client is
	// connected to it again by itself, and the open editor hears the next change.
	const before = readLock(mcpHome);
	assert.ok(before, 'a lock file before the restart');
	await runFromPalette(page, 'MCP Resources: Restart Server');
	const after = await poll(() => {
		const current = readLock(mcpHome);
		return current && current.startedAt !== before.startedAt ? current : undefined;
	}, 'the restarted server\'s lock file', 30_000);
	assert.equal(after.url, before.url, 'the restart kept the address');
	assert.equal(after.token, before.token, 'the restart kept the token');
	await poll(async () => await connectedClients(page) === 2, 'VS Code\'s client connected again to the restarted server, with nobody starting it by hand', 30_000);
	await changeFileAfterReadCache(workspaceDir, shownAt, VERSIONS[2]);
	await editorShows(page, VERSIONS[2], 'after Restart Server and a change on disk');
	await screenshot('vscode-client-after-restart');
}
