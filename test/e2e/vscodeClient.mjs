// VS Code's own MCP client across our Restart Server. A restart ends every session; VS Code's
// client, left alone, would stay "Running" with no session (or "Stopped", when the restart also
// changed the token), and an open resource would stop hearing about changes. The check: after
// Restart Server, VS Code's client is connected to the restarted server again by itself: the
// status bar counts it beside the picker.
// Needs AI features on (VS Code hides its MCP commands otherwise).
import { openBrowseResources } from './mcpIcons.mjs';
import { closeQuickInput, poll, quickInput, runFromPalette } from './workbench.mjs';

/** The number of connected clients the status bar shows (`MCP :PORT · N`). */
async function connectedClients(page) {
	const text = await page.locator('.statusbar-item', { hasText: /MCP :\d+/ }).first().innerText();
	return Number(/·\s*(\d+)/.exec(text)?.[1] ?? 0);
}

export async function vscodeClientRestartCheck({ page, screenshot }) {
	// VS Code starts a provided server when something needs it: Browse Resources does.
	const input = await openBrowseResources(page);
	await input.fill('mcpr README.md');
	await quickInput(page).locator('.monaco-list-row', { hasText: 'README.md' }).first().waitFor({ state: 'visible', timeout: 30_000 });
	await closeQuickInput(page);
	await poll(async () => await connectedClients(page) === 2, 'VS Code\'s client and the picker connected', 30_000);

	await runFromPalette(page, 'MCP Resources: Restart Server');
	await poll(async () => await connectedClients(page) === 2, 'VS Code\'s client connected again to the restarted server, with nobody starting it by hand', 30_000);
	await screenshot('vscode-client-after-restart');
}
