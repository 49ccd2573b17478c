// A client reads text typed a moment ago: a line typed into greet.ts and not saved shows in VS
// Code's own MCP client (MCP: Browse Resources opens the file's resource beside the editor),
// read through this window's server. The file on disk never had it. Keeps the picture as
// media/screenshot-unsaved.png for the README. Needs AI features on (VS Code hides its MCP
// commands otherwise), so it runs in a window of its own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openBrowseResources } from './mcpIcons.js';
import type { WindowCheckContext } from './types.js';
import { activeEditorText, closeQuickInput, noHover, poll, quickInput, quickOpen, runFromPalette } from './workbench.js';
import { keepPicture } from './keepPicture.js';

const TYPED = 'export const typedJustNow = \'not saved yet\';';

export async function unsavedTextCheck({ page, workspaceDir, screenshot }: WindowCheckContext & { workspaceDir: string }): Promise<void> {
	const file = path.join(workspaceDir, 'src', 'greet.ts');
	await quickOpen(page, 'src/greet.ts');
	await page.locator('.part.editor .editor-group-container.active .view-lines').first().click();
	await page.keyboard.press('Control+End');
	await page.keyboard.press('Enter');
	await page.keyboard.type(TYPED);
	await page.keyboard.press('Escape');
	await poll(async () => (await activeEditorText(page)).includes(TYPED), 'the typed line in greet.ts');
	await poll(() => page.locator('.part.editor .tab.active.dirty').isVisible(), 'greet.ts marked unsaved');
	// The resource opens in a group of its own beside the file.
	await runFromPalette(page, 'View: Split Editor Right');
	const input = await openBrowseResources(page);
	await input.fill('mcpr greet.ts');
	const row = quickInput(page).locator('.monaco-list-row', { hasText: /file:\/\/\/.*\/src\/greet\.ts/ }).first();
	await row.waitFor({ state: 'visible', timeout: 30_000 });
	await row.click();
	await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
	await closeQuickInput(page);
	// The active group's editor is VS Code's read-only mcp-resource: document, not the file's
	// (which shares the file's unsaved model and would be marked dirty): the text came from the server.
	await poll(async () => (await activeEditorText(page)).includes(TYPED), 'the typed line in the resource read through the server', 30_000);
	const activeTab = page.locator('.part.editor .editor-group-container.active .tab.active').first();
	assert.equal(await activeTab.evaluate(tab => tab.classList.contains('dirty')), false, 'the resource\'s tab is not the unsaved file');
	assert.ok(!fs.readFileSync(file, 'utf8').includes(TYPED), 'the typed line is not on disk');
	await noHover(page);
	await screenshot('unsaved');
	await keepPicture('unsaved', 'media/screenshot-unsaved.png');
}
