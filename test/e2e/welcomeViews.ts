// Browser checks of the MCP Resources view's welcome content (package.json `viewsWelcome`): for
// each state that leaves the view empty, the text says why and its buttons resolve it. Each check
// opens its own code-server window (scripts/run/e2e.ts `inSecondWindow`). A server that could not
// start is left to the unit tests: here the server takes a free port when its own is taken, and
// root binds any port.
import type { Locator, Page } from 'playwright-core';
import { openView } from './folderServers.js';
import type { SecondWindowCheck } from './types.js';
import { clickUntil, poll } from './workbench.js';

/** The view's welcome content, once it shows text matching `text`. */
async function welcomeSaying(page: Page, text: RegExp): Promise<Locator> {
	await openView(page);
	const welcome = page.locator('.part.sidebar .welcome-view-content');
	await poll(async () => await welcome.isVisible() && text.test(await welcome.innerText()), `the welcome text ${text}`, 60_000);
	return welcome;
}

/** The welcome's buttons, by their text. */
async function buttons(welcome: Locator): Promise<string[]> {
	return (await welcome.locator('.monaco-button').allInnerTexts()).map(t => t.trim());
}

function assertButtons(actual: string[], expected: string[]): void {
	if (JSON.stringify(actual) !== JSON.stringify(expected)) {
		throw new Error(`welcome buttons ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
	}
}

export const welcomeViewChecks: SecondWindowCheck[] = [
	{
		name: 'welcome: a window with no folder says to open one (Open Folder, Add Server), and Get Started opens the walkthrough',
		async run({ openWindow, screenshot }) {
			await openWindow({ emptyWindow: true }, async ({ page }) => {
				const welcome = await welcomeSaying(page, /No folder is open/);
				assertButtons(await buttons(welcome), ['Open Folder', 'Add Server...']);
				await screenshot(page, 'welcome-no-folder');
				// The activity bar's hover (left by openView's click) covers the link: move away first.
				await page.mouse.move(700, 600);
				await page.keyboard.press('Escape');
				const title = page.getByText('Get Started with MCP Workspace Resources').first();
				await clickUntil(welcome.getByRole('button', { name: 'Get Started' }), () => title.isVisible(), 'the walkthrough open');
			});
		},
	},
	{
		name: 'welcome: with the server turned off, the view says so, and Open Settings shows the setting',
		async run({ openWindow, screenshot }) {
			await openWindow({ settings: { 'mcpResources.enabled': false } }, async ({ page }) => {
				const welcome = await welcomeSaying(page, /turned off \(setting mcpResources\.enabled\)/);
				assertButtons(await buttons(welcome), ['Open Settings', 'Add Server...']);
				await screenshot(page, 'welcome-disabled');
				const settings = page.locator('.settings-editor');
				await clickUntil(welcome.getByRole('button', { name: 'Open Settings' }), () => settings.isVisible(), 'the settings editor');
				await poll(async () => /MCP Workspace Resources|Enabled/.test(await settings.innerText()), 'the setting shown');
			});
		},
	},
];
