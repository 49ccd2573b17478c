// Browser checks that a folder's own `mcpResources.servers` (what a cloned repository ships in
// .vscode/settings.json) runs and contacts nothing the user did not allow: in Restricted Mode
// nothing at all, in a trusted folder only after the user clicks Allow in the prompt. Each
// check opens its own code-server window (scripts/run/e2e.ts `inSecondWindow`).
//
// The folder names two servers, as an attacker would: a stdio command that leaves a marker file
// (then serves the folder's docs/ as a real MCP server, so an allowed one shows resources) and a
// URL on a local listener that counts the requests it gets.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import process from 'node:process';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import type { SecondWindowCheck } from './types.js';
import { clickUntil, expand, poll, reloadWindow, runFromPalette, serverRowOf, treeItem } from './workbench.js';
import { repoRoot } from '../../scripts/bootstrap/repoRoot.mjs';
import { keepPicture } from './keepPicture.js';

const cli = path.join(repoRoot, 'dist', 'cli.js');

/** An entry of mcpResources.servers. */
type ServerEntry = { name: string; command: string; args: string[] } | { name: string; url: string; headers?: Record<string, string> };

/** Markers, a request counter and the settings entries that use them; `close()` when done. */
async function bait() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcpwr-bait-'));
	const requests = { folder: 0, user: 0 };
	const listener = http.createServer((req, res) => {
		if (req.url?.startsWith('/user')) { requests.user++; } else { requests.folder++; }
		res.writeHead(404).end();
	});
	await new Promise<void>(resolve => listener.listen(0, '127.0.0.1', resolve));
	const base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
	// What the user's own stdio server serves (their settings exist before the workspace does).
	const userDocs = path.join(dir, 'user-docs');
	fs.mkdirSync(path.join(userDocs, 'guide'), { recursive: true });
	fs.writeFileSync(path.join(userDocs, 'guide', 'mine.md'), '# Mine\n');
	/** A stdio entry: touches `marker`, then is a real MCP server over `root`. */
	const stdio = (name: string, marker: string, root: string) => ({
		name, command: 'sh',
		args: ['-c', 'touch "$1" && exec "$2" "$3" serve --root "$4" --stdio', 'sh', marker, process.execPath, cli, root],
	});
	return {
		dir, requests, userDocs,
		folderMarker: path.join(dir, 'folder-command-ran'),
		userMarker: path.join(dir, 'user-command-ran'),
		folderEntries(workspaceDir: string): ServerEntry[] {
			return [stdio('Folder docs', this.folderMarker, path.join(workspaceDir, 'docs')), { name: 'Folder web', url: `${base}/folder/mcp`, headers: { Authorization: 'Bearer from-the-folder' } }];
		},
		userEntries(): ServerEntry[] {
			return [stdio('My docs', this.userMarker, this.userDocs), { name: 'My web', url: `${base}/user/mcp` }];
		},
		async close() {
			await new Promise(resolve => listener.close(resolve));
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

function writeFolderSettings(workspaceDir: string, servers: ServerEntry[]): void {
	fs.writeFileSync(path.join(workspaceDir, '.vscode', 'settings.json'), JSON.stringify({ 'mcpResources.servers': servers }, null, '\t'));
}

/**
 * Shows the MCP Resources view. A click on the activity bar icon toggles, and after a reload the
 * workbench may be restoring the view as we look, so click only while the sidebar's title is not
 * ours, and check again after each click.
 */
export async function openView(page: Page): Promise<void> {
	const title = page.locator('.part.sidebar .composite.title .title-label', { hasText: /MCP Resources/i });
	await poll(async () => {
		if (await title.isVisible().catch(() => false)) {
			return true;
		}
		await page.locator('.part.activitybar [aria-label^="MCP Resources"]').first().click();
		return title.waitFor({ state: 'visible', timeout: 2_000 }).then(() => true, () => false);
	}, 'the MCP Resources view shown', 30_000, 0);
}

function dialog(page: Page): Locator {
	return page.locator('.monaco-dialog-box');
}

/**
 * The checks, each given `openWindow(serverOptions, body)` (a fresh code-server; `prepare`
 * in serverOptions edits the workspace before it opens) and `screenshot(page, name)`.
 */
export const folderServerChecks: SecondWindowCheck[] = [
	{
		name: 'Restricted Mode: servers in the folder\'s settings neither run nor are contacted when the view opens, the user\'s own do; trusting the folder asks first',
		async run({ openWindow }) {
			const b = await bait();
			try {
				await openWindow({
					trust: true,
					settings: {
						'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'never',
						// The user's own servers, next to the folder's: these must run as they always did.
						'mcpResources.servers': b.userEntries(),
					},
					prepare: workspaceDir => writeFolderSettings(workspaceDir, b.folderEntries(workspaceDir)),
				}, async ({ page }) => {
					await page.locator('[aria-label^="MCP Resources server stopped. Restricted Mode"]').first().waitFor({ state: 'attached', timeout: 60_000 });
					await openView(page);
					await treeItem(page, /^My docs/).waitFor({ state: 'visible', timeout: 30_000 });
					await expand(page, /^My docs/);
					await treeItem(page, /^guide/).waitFor({ state: 'visible', timeout: 30_000 });
					await poll(() => b.requests.user > 0, 'a request to the user\'s URL');
					// Why this wait is enough: the picker starts every server it has from one loop, when
					// the tree first asks for its rows and again whenever its server list changes; the
					// user's command has run and the user's URL has been asked, both through that loop,
					// and a folder entry would have taken the same path at the same time.
					assert.ok(fs.existsSync(b.userMarker), 'the user\'s command ran');
					assert.equal(fs.existsSync(b.folderMarker), false, 'the folder\'s command did not run');
					assert.equal(b.requests.folder, 0, 'the folder\'s URL was not contacted');
					const rows = await page.locator('.part.sidebar [role="treeitem"]').evaluateAll(r => r.map(x => x.getAttribute('aria-label')));
					assert.ok(!rows.some(r => /^Folder /.test(r ?? '')), `no row for the folder's servers: ${rows.join(' | ')}`);

					// Trusting the folder brings its servers in, each held until the user answers.
					await runFromPalette(page, 'Workspaces: Manage Workspace Trust');
					await page.locator('.workspace-trust-editor').getByRole('button', { name: /^Trust$/ }).first().click();
					const prompt = dialog(page).filter({ hasText: 'Allow the MCP server "Folder docs"' });
					await prompt.waitFor({ state: 'visible', timeout: 30_000 });
					await clickUntil(prompt.getByRole('button', { name: 'Cancel', exact: true }), async () => !(await prompt.isVisible()), 'the prompt dismissed');
					await treeItem(page, /^Folder docs, not started: from this folder's settings — click to review/).waitFor({ state: 'visible', timeout: 30_000 });
					assert.equal(fs.existsSync(b.folderMarker), false, 'the folder\'s command did not run after trust without an answer');
				});
			} finally {
				await b.close();
			}
		},
	},
	{
		name: 'a trusted folder\'s servers wait for the user: the view asks first, Allow starts the command, Don\'t Allow keeps the URL off, and the answers are remembered (docs picture)',
		async run({ openWindow, screenshot }) {
			const b = await bait();
			try {
				await openWindow({
					prepare: workspaceDir => writeFolderSettings(workspaceDir, b.folderEntries(workspaceDir)),
				}, async ({ page }) => {
					await openView(page);
					// Each prompt is addressed by its own text: while one dialog closes and the next
					// opens, both are in the page, and a click must not land on the one going away.
					const prompt = dialog(page).filter({ hasText: 'Allow the MCP server "Folder docs"' });
					await prompt.waitFor({ state: 'visible', timeout: 60_000 });
					const text = await prompt.innerText();
					assert.match(text, /from the settings of the folder "fixture-workspace"/, text);
					assert.match(text, /Runs: sh -c 'touch "\$1" && exec/, text);
					// The prompt is up because the picker held the entry: no connection exists for it.
					assert.equal(fs.existsSync(b.folderMarker), false, 'nothing ran before the answer');
					assert.equal(b.requests.folder, 0, 'nothing was contacted before the answer');
					await screenshot(page, 'folder-server-consent');
					await keepPicture('folder-server-consent', 'media/screenshot-folder-server-consent.png');
					// A click landing while the dialog animates in is dropped: click until it closes.
					await clickUntil(prompt.getByRole('button', { name: 'Allow', exact: true }), async () => !(await prompt.isVisible()), 'the Folder docs prompt answered');

					const webPrompt = dialog(page).filter({ hasText: 'Allow the MCP server "Folder web"' });
					await webPrompt.waitFor({ state: 'visible', timeout: 30_000 });
					assert.match(await webPrompt.innerText(), /Contacts http:\/\/127\.0\.0\.1:\d+\nURL: .*\/folder\/mcp\nSends the headers: Authorization/);
					await clickUntil(webPrompt.getByRole('button', { name: 'Don\'t Allow', exact: true }), async () => !(await webPrompt.isVisible()), 'the Folder web prompt answered');

					await poll(() => fs.existsSync(b.folderMarker), 'the allowed command to run', 30_000);
					await serverRowOf(page, /^Folder docs/).waitFor({ state: 'visible', timeout: 30_000 });
					await expand(page, /^Folder docs/);
					await treeItem(page, /^guide/).waitFor({ state: 'visible', timeout: 30_000 });
					await treeItem(page, /^Folder web, off: you chose Don't Allow — click to review/).waitFor({ state: 'visible', timeout: 10_000 });
					assert.equal(b.requests.folder, 0, 'the declined URL was not contacted');

					// A new window on the same folder: the answers hold, nothing is asked again.
					await reloadWindow(page);
					await openView(page);
					await serverRowOf(page, /^Folder docs/).waitFor({ state: 'visible', timeout: 30_000 });
					await expand(page, /^Folder docs/);
					await treeItem(page, /^guide/).waitFor({ state: 'visible', timeout: 30_000 });
					await treeItem(page, /^Folder web, off/).waitFor({ state: 'visible', timeout: 10_000 });
					assert.equal(await dialog(page).isVisible(), false, 'no prompt for answered entries');
					assert.equal(b.requests.folder, 0, 'the declined URL is still not contacted');
				});
			} finally {
				await b.close();
			}
		},
	},
];
