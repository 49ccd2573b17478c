// Browser checks of the picker's input flows, each driven the way a user does it: the
// Pick Resources QuickPick (multi-select across searches), the "● changed" mark, drag and drop
// into the editor and the chat, Fill Template... with the server's completions, Add Server...
// against a real headless server, and Attach Selected to Chat with AI features off and on.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startHeadlessHost } from '../../scripts/lib/headlessHost.js';
import { clipboardAfter, closeQuickInput, collapseAll, dragUntil, expand, openPalettePick, openPicker, poll, quickInput, quickRow, runFromPalette, selectionBadge, tick, treeItem, withFilter } from './workbench.js';
import { repoRoot } from '../../scripts/bootstrap/repoRoot.mjs';
import { keepPicture } from './keepPicture.js';
import type { E2ECheck, WindowCheckContext } from './types.js';


export const pickerFlowChecks: E2ECheck[] = [
	{
		name: '"Pick Resources..." (Ctrl+Alt+M) checks files in two searches and accepts them as the selection',
		async run({ page, screenshot }) {
			await runFromPalette(page, 'MCP Resources: Clear Selection');
			await openPicker(page);
			await poll(async () => await selectionBadge(page) === '', 'no selection badge');
			await page.locator('.part.editor').click({ position: { x: 300, y: 300 } }).catch(() => undefined);
			await page.keyboard.press('Control+Alt+M');
			const input = quickInput(page).locator('input');
			await poll(async () => /Search [\d,]+ resources/.test(await input.getAttribute('placeholder') ?? ''), 'the Pick Resources QuickPick from its keybinding');
			for (const [query, file] of [['greet', 'greet.ts'], ['todo', 'todo.txt']]) {
				await input.fill(query);
				const row = quickRow(page, file);
				await row.waitFor({ state: 'visible', timeout: 15_000 });
				// Checked once this query's text matches are in: a check made while the extension
				// replaces the rows (the answer coming) can be undone by VS Code's QuickPick, whose
				// new rows carry the selection the extension last knew.
				await poll(async () => {
					const title = await quickInput(page).locator('.quick-input-title').innerText();
					return title.includes('Text matches:') && !/searching/i.test(title);
				}, `the text matches for "${query}" in`);
				await row.locator('.quick-input-list-checkbox, input[type="checkbox"], [role="checkbox"]').first().click();
				await poll(async () => await row.getAttribute('aria-checked') === 'true', `${file} checked in the QuickPick`);
			}
			// The first check survives the second search: it shows when the query is cleared.
			await input.fill('');
			await poll(async () => await quickRow(page, 'greet.ts').getAttribute('aria-checked') === 'true', 'greet.ts still checked');
			await screenshot('pick-resources-multi');
			await page.keyboard.press('Enter');
			await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
			await poll(async () => await selectionBadge(page) === '2', 'the badge "2" after accepting');
			const text = await clipboardAfter(page, () => runFromPalette(page, 'MCP Resources: Attach Selected to Clipboard'));
			assert.match(text, /^## file:\/\/\/.*\/src\/greet\.ts$/m, text.slice(0, 400));
			assert.match(text, /^## file:\/\/\/.*\/notes\/todo\.txt$/m, text.slice(0, 400));
		},
	},
	{
		name: 'a selected file that changes on disk shows "● changed" in the tree',
		async run({ page, workspaceDir, screenshot }) {
			await openPicker(page);
			await expand(page, /^notes\b/);
			const row = treeItem(page, /^todo\.txt/);
			await row.waitFor({ state: 'visible', timeout: 10_000 });
			assert.ok(!(await row.innerText()).includes('changed'), 'not marked before the change');
			const file = path.join(workspaceDir, 'notes', 'todo.txt');
			const original = fs.readFileSync(file, 'utf8');
			try {
				fs.writeFileSync(file, `${original}changed by the browser check\n`);
				await poll(async () => (await row.innerText()).includes('● changed'), 'the "● changed" mark on todo.txt', 20_000);
				await screenshot('picker-changed');
			} finally {
				fs.writeFileSync(file, original);
			}
		},
	},
	{
		name: 'dragging a file and a git resource from the picker onto the editor area opens them',
		async run({ page }) {
			await runFromPalette(page, 'View: Close All Editors');
			await openPicker(page);
			const tabs = page.locator('.part.editor .tabs-container .tab');
			await dragUntil(page, treeItem(page, /^README\.md/), page.locator('.part.editor'),
				async () => (await tabs.allInnerTexts()).some(t => t.replace(/\s+/g, '') === 'README.md'), 'README.md tab from the drop');
			// The file itself opens (not a copy): its tab's resource is the workspace file.
			const readmeTab = tabs.filter({ hasText: 'README' }).first();
			assert.match(await readmeTab.getAttribute('data-resource-name') ?? await readmeTab.innerText(), /README/);
			// Through the filter, not by expanding Git: the Suggested and Files groups above it can
			// push Git's rows below the part of the tree that is rendered. The URI term matches only
			// git resources, and "status" only the status one of them.
			await withFilter(page, 'git:// status', async () => {
				const gitStatus = treeItem(page, /^Git status/);
				await gitStatus.waitFor({ state: 'visible', timeout: 15_000 });
				await dragUntil(page, gitStatus, page.locator('.part.editor'),
					async () => (await tabs.allInnerTexts()).some(t => /\bstatus\b/.test(t)), '"status" tab from the drop');
			});
			const text = await poll(async () => {
				const lines = (await page.locator('.part.editor .editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
				return lines.includes('"branch"') ? lines : undefined;
			}, 'the git status document text');
			assert.match(text, /"repo": "fixture-workspace"/);
			await runFromPalette(page, 'View: Close All Editors');
		},
	},
	{
		name: '"Fill Template..." suggests paths from the server\'s completion and opens the chosen resource',
		async run({ page, screenshot }) {
			const input = await openPalettePick(page, 'MCP Resources: Fill Template...', /Choose a resource template/);
			// Typed, as a person finds one among many templates (search, symbols, git...) by its URI.
			await input.fill('file:///{+path}');
			// Exactly the files template: the line-range template `file:///{+path}{?lines}` starts the same.
			await quickInput(page).locator('.monaco-list-row', { hasText: /file:\/\/\/\{\+path\}(?!\{)/ }).first().click();
			await poll(async () => /Value for "path"/.test(await input.getAttribute('placeholder') ?? ''), 'the question for "path"');
			await input.fill('docs/gu');
			const suggestion = quickInput(page).locator('.monaco-list-row', { hasText: 'docs/guide/intro.md' }).filter({ hasNotText: 'as typed' }).first();
			await suggestion.waitFor({ state: 'visible', timeout: 15_000 });
			await screenshot('fill-template');
			await suggestion.click();
			await poll(async () => /What to do with the resource/.test(await input.getAttribute('placeholder') ?? ''), 'the Open / Add to Selection choice');
			await quickRow(page, 'Open').click();
			await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
			const intro = fs.readFileSync(path.join(repoRoot, 'test', 'vscode', 'fixture-workspace', 'docs', 'guide', 'intro.md'), 'utf8');
			const firstLine = intro.split('\n')[0];
			await poll(async () => (await page.locator('.part.editor .tabs-container .tab').allInnerTexts()).some(t => t.replace(/\s+/g, '').includes('intro.md')), 'an intro.md tab');
			await poll(async () => (await page.locator('.part.editor .editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ').includes(firstLine),
				`the editor showing "${firstLine}"`);
			await runFromPalette(page, 'View: Close All Editors');
		},
	},
	{
		name: '"Fill Template...": a value typed and entered at once is the value, not a suggestion listed for what was typed before',
		async run({ page }) {
			const input = await openPalettePick(page, 'MCP Resources: Fill Template...', /Choose a resource template/);
			await input.fill('file:///{+path}');
			await quickInput(page).locator('.monaco-list-row', { hasText: /file:\/\/\/\{\+path\}(?!\{)/ }).first().click();
			await poll(async () => /Value for "path"/.test(await input.getAttribute('placeholder') ?? ''), 'the question for "path"');
			// The suggestions for an empty value are listed (none is notes/todo.txt's own row yet)...
			await quickInput(page).locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout: 15_000 });
			// ...and Enter comes before the server's suggestions for the typed value can (a slow
			// server, a fast typist, a paste): value and Enter in one browser task, so the list
			// still shows the earlier suggestions, the first one highlighted.
			await input.evaluate((el: HTMLInputElement) => {
				el.value = 'notes/todo.txt';
				el.dispatchEvent(new Event('input', { bubbles: true }));
				el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', keyCode: 13, bubbles: true }));
			});
			await poll(async () => /What to do with the resource/.test(await input.getAttribute('placeholder') ?? ''), 'the Open / Add to Selection choice');
			const title = await quickInput(page).locator('.quick-input-title').innerText();
			assert.match(title, /\/notes\/todo\.txt$/, `the filled URI (the choice's title): ${title}`);
			await closeQuickInput(page);
		},
	},
	{
		name: '"Add Server..." adds a headless HTTP server with its token, and the tree browses it',
		async run({ page, workspaceDir, screenshot }) {
			const headless = await startHeadlessHost({ root: path.join(workspaceDir, 'docs') });
			try {
				await openPicker(page);
				// The new server's rows go below this workspace's, out of view after the earlier checks.
				await collapseAll(page);
				const input = await openPalettePick(page, 'MCP Resources: Add Server...', /How is the server reached/);
				await quickRow(page, 'HTTP').click();
				const answer = async (promptText: string, value: string) => {
					await poll(async () => (await quickInput(page).innerText()).includes(promptText), `the question "${promptText}"`);
					await input.fill(value);
					await page.keyboard.press('Enter');
				};
				await answer('A name for the server', 'Docs (headless)');
				await answer('The server URL', headless.url);
				await answer('Authorization header', `Bearer ${headless.token}`);
				const server = treeItem(page, /^Docs \(headless\)/);
				await server.waitFor({ state: 'visible', timeout: 20_000 });
				await expand(page, /^Docs \(headless\)/);
				await expand(page, /^guide\b/);
				await treeItem(page, /^intro\.md/).waitFor({ state: 'visible', timeout: 20_000 });
				await screenshot('picker-added-server');
				// Remove Server... from the server's context menu takes it out of the setting.
				await server.click({ button: 'right' });
				const item = page.locator('.context-view .action-item', { hasText: 'Remove Server...' }).first();
				await item.waitFor({ state: 'visible', timeout: 10_000 });
				// Chosen by keyboard: a click landing as the menu opens can be taken for the
				// right-click's own release and ignored, leaving the menu open.
				await item.hover();
				await poll(async () => /\bfocused\b/.test(await item.getAttribute('class') ?? ''), 'Remove Server... focused in the menu');
				await page.keyboard.press('Enter');
				await poll(async () => !(await treeItem(page, /^Docs \(headless\)/).isVisible()), 'the server gone with its setting');
			} finally {
				await headless.stop();
			}
		},
	},
	{
		name: 'Attach Selected to Chat with AI features off says why and puts the bundle on the clipboard',
		async run({ page }) {
			// The selection from the first flow check: greet.ts and todo.txt.
			await openPicker(page);
			await poll(async () => await selectionBadge(page) === '2', 'two resources selected');
			const text = await clipboardAfter(page, () => runFromPalette(page, 'MCP Resources: Attach Selected to Chat'));
			assert.match(text, /^## file:\/\/\/.*\/src\/greet\.ts$/m, text.slice(0, 300));
			// The warning says why (toasts may already be gone: the notification center keeps it).
			await runFromPalette(page, 'Notifications: Show Notifications');
			const warning = page.locator('.notifications-center .notification-list-item', { hasText: 'chat.disableAIFeatures' }).first();
			await warning.waitFor({ state: 'visible', timeout: 10_000 });
			assert.match(await warning.innerText(), /copied to the clipboard instead/);
			await page.keyboard.press('Escape');
		},
	},
];

/**
 * Run in a window with AI features on (its own code-server): checked resources attached with
 * "Attach Selected to Chat" and a file dragged from the picker land in the chat input.
 */
export async function chatCheck({ page, screenshot }: WindowCheckContext): Promise<void> {
	await openPicker(page);
	await expand(page, /^src\b/);
	for (const name of [/^greet\.ts/, /^\.gitignore/]) {
		await tick(treeItem(page, name), name);
	}
	// A resource that is not a file reaches the chat as a Markdown file of its contents. Ticked
	// through the filter: with Suggested and src/ open, Git's rows can be below the rendered part.
	await withFilter(page, 'git:// status', () => tick(treeItem(page, /^Git status/), 'Git status'));
	await runFromPalette(page, 'MCP Resources: Attach Selected to Chat');
	const pills = page.locator('.interactive-input-part .chat-attached-context-attachment');
	const names = await poll(async () => {
		const current = (await pills.allInnerTexts()).map(t => t.trim());
		return current.length >= 3 ? current : undefined;
	}, 'three attachments in the chat input', 20_000);
	assert.ok(names.some(n => n.includes('greet.ts')) && names.some(n => n.includes('.gitignore')), names.join(' | '));
	assert.ok(names.some(n => /mcp-context-.*\.md/.test(n)), `the Markdown file of the git status: ${names.join(' | ')}`);
	// Drag and drop from the picker into the chat input attaches the file too.
	await dragUntil(page, treeItem(page, /^README\.md/), page.locator('.interactive-input-part').first(),
		async () => (await pills.allInnerTexts()).some(n => n.includes('README.md')), 'README.md attached by drag and drop');
	await page.mouse.move(700, 300);
	await screenshot('picker-chat');
	await keepPicture('picker-chat', 'media/screenshot-chat.png');
	await keepPicture('picker-chat', 'media/walkthrough/browse.png');
}
