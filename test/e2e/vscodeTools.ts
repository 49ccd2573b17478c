// VS Code's own MCP client finds our tools: chat's Configure Tools... lists this window's server,
// with the icon the server sends, and under it every tool `tools/list` answers; the server's own
// output channel in VS Code ("MCP: <label>") says "Discovered N tools" with the same N.
// Nothing here signs in: the picker is chat's own, offered in agent mode once AI features are on
// (`chat.disableAIFeatures: false`), so the check runs in a window of its own.
//
// How the workbench (code-server 1.139) shows it: `workbench.action.chat.configureTools` is the
// "Configure Tools..." button of the chat input in agent mode; a provided server that has not
// started yet is a row with one child, "Update Tools", which starts it; its tools then replace
// that child. The server's log line is `Discovered ${tools.length} tools`, before validation.
import * as assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Locator, Page } from 'playwright-core';
import type { LockFile, WindowCheckContext } from './types.js';
import { closeQuickInput, poll, quickInput } from './workbench.js';
import { keepPicture } from './keepPicture.js';
import { readLock } from './vscodeClient.js';

/** The label the extension gives its server in VS Code's registry (src/vscode/mcpDefinitionProvider.ts). */
const SERVER_LABEL = 'MCP Workspace Resources';

/** What our server says about itself and its tools, asked through the SDK's client. */
interface Served { tools: string[]; icon: string | undefined }

async function served({ url, token }: LockFile): Promise<Served> {
	const client = new Client({ name: 'e2e-tools', version: '1' });
	await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
	try {
		const { tools } = await client.listTools();
		return { tools: tools.map(t => t.name).sort(), icon: client.getServerVersion()?.icons?.[0]?.src };
	} finally {
		await client.close();
	}
}

/** A row of the Configure Tools tree. */
interface ToolRow { label: string; level: number; icon: string | undefined }

function treeRows(page: Page): Promise<ToolRow[]> {
	return quickInput(page).locator('.monaco-list-row').evaluateAll(rows => rows.map(row => {
		const image = row.querySelector<HTMLElement>('.quick-input-tree-icon')?.style.backgroundImage ?? '';
		return {
			label: row.querySelector('.label-name')?.textContent?.trim() ?? '',
			level: Number(row.getAttribute('aria-level') ?? 0),
			icon: /^url\("(.*)"\)$/.exec(image)?.[1],
		};
	}));
}

/** The rows under our server's row (the next rows one level deeper). */
function ourChildren(rows: ToolRow[]): ToolRow[] | undefined {
	const at = rows.findIndex(r => r.label === SERVER_LABEL);
	if (at < 0) { return undefined; }
	const children: ToolRow[] = [];
	for (const row of rows.slice(at + 1)) {
		if (row.level <= rows[at].level) { break; }
		children.push(row);
	}
	return children;
}

/** Opens chat and its Configure Tools... picker. */
async function openConfigureTools(page: Page): Promise<void> {
	await closeQuickInput(page);
	const button = page.locator('.interactive-input-part .action-label[aria-label^="Configure Tools"]').first();
	await poll(async () => {
		if (!(await button.isVisible())) {
			await page.keyboard.press('Control+Alt+I');
			await button.waitFor({ state: 'visible', timeout: 5_000 });
		}
		return true;
	}, 'the chat input\'s Configure Tools... button (agent mode)', 30_000, 1_000);
	await button.click();
	await poll(async () => (await quickInput(page).locator('.quick-input-title').innerText()) === 'Configure Tools', 'the Configure Tools picker');
}

/** The MCP server's output channel text, opened as a user does: MCP: List Servers, our server, Show Output. */
async function serverOutput(page: Page): Promise<string> {
	await runFromPaletteKeepOpen(page, 'MCP: List Servers');
	await quickRow(page, SERVER_LABEL).click();
	await quickRow(page, 'Show Output').click();
	const panel = page.locator('.part.panel');
	await panel.waitFor({ state: 'visible', timeout: 10_000 });
	return poll(async () => {
		const text = (await panel.locator('.view-lines').allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
		return /Discovered \d+ tools/.test(text) ? text : undefined;
	}, `"Discovered N tools" in the output of ${SERVER_LABEL}`);
}

/** Runs a palette command whose own quick pick stays open (runFromPalette waits for the palette to close). */
async function runFromPaletteKeepOpen(page: Page, title: string): Promise<void> {
	await closeQuickInput(page);
	await page.keyboard.press('F1');
	const input = quickInput(page).locator('input');
	await input.waitFor({ state: 'visible', timeout: 10_000 });
	await input.fill(`>${title}`);
	await quickRow(page, title).waitFor({ state: 'visible', timeout: 10_000 });
	await page.keyboard.press('Enter');
}

function quickRow(page: Page, text: string): Locator {
	return quickInput(page).locator('.monaco-list-row', { hasText: text }).first();
}

export async function vscodeToolsCheck({ page, mcpHome, screenshot }: WindowCheckContext & { mcpHome: { dir: string } }): Promise<void> {
	const ours = await served(await poll(() => readLock(mcpHome), 'the server\'s lock file', 60_000));
	assert.ok(ours.tools.length > 0, 'the server offers tools');
	assert.ok(ours.icon?.startsWith('data:image/png;base64,'), `the server sends its icon as a data: URI: ${ours.icon?.slice(0, 40)}`);

	await openConfigureTools(page);
	// Not started yet, the server's only child is "Update Tools"; choosing it starts the server.
	const before = await poll(async () => ourChildren(await treeRows(page)), `${SERVER_LABEL} in Configure Tools`);
	if (before.length === 1 && before[0].label === 'Update Tools') {
		await quickRow(page, 'Update Tools').click();
	}
	// The tools arrive a few at a time: wait for the whole list, then compare what is shown (a
	// list that never completes fails below with the difference).
	let rows: Awaited<ReturnType<typeof treeRows>> = [];
	await poll(async () => {
		rows = await treeRows(page);
		const labels = ourChildren(rows)?.map(r => r.label).sort();
		return labels !== undefined && labels.join('\n') === ours.tools.join('\n') ? true : undefined;
	}, `${SERVER_LABEL} with all its tools in Configure Tools`, 60_000).catch(() => undefined);
	const server = rows.find(r => r.label === SERVER_LABEL);
	assert.equal(server?.icon, ours.icon, 'the server row shows the icon the server sends');
	assert.deepEqual(ourChildren(rows)?.map(r => r.label).sort(), ours.tools, 'the tools under the server are the ones tools/list answers');
	// No hover tooltip over a tool's description in the picture.
	await page.mouse.move(1000, 800);
	await poll(async () => !(await page.locator('.monaco-hover, .workbench-hover').first().isVisible().catch(() => false)), 'hovers to close');
	await screenshot('configure-tools');
	await keepPicture('configure-tools', 'media/screenshot-configure-tools.png');
	await closeQuickInput(page);

	const output = await serverOutput(page);
	const discovered = Number(/Discovered (\d+) tools/.exec(output)?.[1]);
	assert.equal(discovered, ours.tools.length, `VS Code discovered as many tools as tools/list answers: ${output}`);
	await screenshot('vscode-tools-output');
}
