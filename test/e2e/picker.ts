// Browser checks of the picker view: open it from the activity bar, expand the tree, check
// resources, attach them to the clipboard and read what landed there; the QuickPick finds a
// file by name, and a line by its text. Saves test-results/screenshots/picker.png and keeps it
// as media/screenshot-picker.png for the README, and search.png as the walkthrough's picture.
import * as assert from 'node:assert/strict';
import { clipboardAfter, closeQuickInput, openPicker, poll, quickInput, quickInputLabels, runFromPalette, selectionBadge, tick, treeItem, viewTitleAction, withFilter } from './workbench.js';
import { keepPicture } from './keepPicture.js';
import type { E2ECheck } from './types.js';

export const pickerChecks: E2ECheck[] = [
	{
		name: 'the picker view lists this workspace, checks two files and attaches them to the clipboard (README picture)',
		async run({ page, screenshot }) {
			// Files is expanded by default; folders sort before files.
			await openPicker(page);
			await treeItem(page, /^src\b/).click();
			await treeItem(page, /^greet\.ts/).waitFor({ state: 'visible', timeout: 10_000 });
			await tick(treeItem(page, /^README\.md/), 'README.md');
			await tick(treeItem(page, /^greet\.ts/), 'greet.ts');
			// The view container's badge counts the selection.
			await poll(async () => await selectionBadge(page) === '2', 'the activity bar badge "2" on MCP Resources');
			// No hover tooltip in the screenshot.
			await page.mouse.move(700, 300);
			await poll(async () => !(await page.locator('.monaco-hover, .workbench-hover').first().isVisible().catch(() => false)), 'hovers to close');
			await screenshot('picker');
			await keepPicture('picker', 'media/screenshot-picker.png');

			const text = await clipboardAfter(page, () => runFromPalette(page, 'MCP Resources: Attach Selected to Clipboard'));
			assert.match(text, /^## file:\/\/\/.*\/README\.md\n\n```markdown\n/m, text.slice(0, 300));
			assert.match(text, /^## file:\/\/\/.*\/src\/greet\.ts\n\n```typescript\n/m, text.slice(0, 600));
			assert.ok(!text.includes('sentinel'), 'the clipboard holds only the bundle');
		},
	},
	{
		name: '"Pick Resources..." finds a file by fuzzy name across servers',
		async run({ page, screenshot }) {
			// Not runFromPalette: it waits for the quick input to close, and ours opens in its place.
			await closeQuickInput(page);
			await page.keyboard.press('F1');
			const input = quickInput(page).locator('input');
			await input.waitFor({ state: 'visible', timeout: 10_000 });
			await input.fill('>MCP Resources: Pick Resources...');
			await quickInput(page).locator('.monaco-list-row', { hasText: 'Pick Resources...' }).first().waitFor({ state: 'visible', timeout: 10_000 });
			await page.keyboard.press('Enter');
			await poll(async () => /Search [\d,]+ resources/.test(await input.getAttribute('placeholder') ?? ''), 'the Pick Resources QuickPick');
			await input.fill('intr');
			// The poll waits for the match; the assertions check what the row says about it.
			const labels = await poll(async () => {
				const current = await quickInputLabels(page);
				return current.some(l => l.includes('intro.md')) ? current : undefined;
			}, 'intro.md in the QuickPick');
			// The file's own row comes first (files before other resources, substring before fuzzy
			// matches such as "Git working tree diff"), and names its folder.
			assert.match(labels[0], /^intro\.md\s*docs\/guide\b/, `the first row is docs/guide/intro.md: ${labels.join(' | ')}`);
			await screenshot('picker-quickpick');
			await closeQuickInput(page);
		},
	},
	{
		name: '"Pick Resources..." finds a line by its text (a Text match), and checking it selects just that line (walkthrough picture)',
		async run({ page, screenshot }) {
			await runFromPalette(page, 'MCP Resources: Clear Selection');
			// The view in the sidebar, for the walkthrough's picture.
			await openPicker(page);
			await closeQuickInput(page);
			await page.keyboard.press('F1');
			const input = quickInput(page).locator('input');
			await input.waitFor({ state: 'visible', timeout: 10_000 });
			await input.fill('>MCP Resources: Pick Resources...');
			await quickInput(page).locator('.monaco-list-row', { hasText: 'Pick Resources...' }).first().waitFor({ state: 'visible', timeout: 10_000 });
			await page.keyboard.press('Enter');
			await poll(async () => /Search [\d,]+ resources/.test(await input.getAttribute('placeholder') ?? ''), 'the Pick Resources QuickPick');
			// In docs/guide/intro.md's third line, and in no file's name.
			await input.pressSequentially('Nested');
			const row = quickInput(page).locator('.monaco-list-row', { hasText: 'docs/guide/intro.md:3' }).first();
			await row.waitFor({ state: 'visible', timeout: 20_000 });
			assert.match(await row.innerText(), /Nested two folders deep\./, 'the row shows the line under its path:line');
			assert.match(await row.innerText(), /Text match/, 'the row says it matched by text');
			await poll(async () => /Text matches: 1 match in 1 file$/.test(await quickInput(page).locator('.quick-input-title').innerText()), 'the title saying "Text matches: 1 match in 1 file"');
			await page.mouse.move(700, 600);
			await screenshot('search');
			await keepPicture('search', 'media/walkthrough/search.png');
			await row.locator('.quick-input-list-checkbox, input[type="checkbox"], [role="checkbox"]').first().click();
			await poll(async () => await row.getAttribute('aria-checked') === 'true', 'the line checked');
			// Enter on the focused row would uncheck it: accept from the input box.
			await input.focus();
			await page.keyboard.press('Enter');
			await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
			await poll(async () => await selectionBadge(page) === '1', 'the badge "1" after accepting');
			const text = await clipboardAfter(page, () => runFromPalette(page, 'MCP Resources: Attach Selected to Clipboard'));
			assert.match(text, /^## file:\/\/\/.*\/docs\/guide\/intro\.md\?lines=3$/m, text.slice(0, 400));
			assert.ok(text.includes('Nested two folders deep.') && !text.includes('# Intro'), `just the line: ${text.slice(0, 400)}`);
			await runFromPalette(page, 'MCP Resources: Clear Selection');
		},
	},
	{
		name: '"Filter Resources..." in the view title narrows the tree as you type, pages the matches, and Clear Filter restores it',
		async run({ page, screenshot }) {
			await openPicker(page);
			await viewTitleAction(page, 'Filter Resources...').click();
			let cleared = false;
			try {
				const input = quickInput(page).locator('input');
				await poll(async () => /Part of a name/.test(await input.getAttribute('placeholder') ?? ''), 'the filter box');
				await input.pressSequentially('greet');
				await poll(async () => await input.inputValue() === 'greet', 'the query in the filter box');
				await treeItem(page, /^greet\.ts/).waitFor({ state: 'visible', timeout: 15_000 });
				await poll(async () => !(await treeItem(page, /^README\.md/).isVisible()), 'README.md filtered out');
				await screenshot('picker-filter');
				// many/ holds 300 matches for "file-": 50 show, and the last row offers the rest.
				await input.fill('file-');
				await page.keyboard.press('Enter');
				await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
				await treeItem(page, /^file-\d{3}\.txt/).waitFor({ state: 'visible', timeout: 15_000 });
				// The wheel over the tree scrolls it to the last row. (Not a click and End: clicking a
				// match opens its file, and the key can reach the editor that opened instead.)
				await treeItem(page, /^file-\d{3}\.txt/).hover();
				const scrolledTo = (row: RegExp, what: string) => poll(async () => {
					await page.mouse.wheel(0, 4000);
					return treeItem(page, row).isVisible();
				}, what);
				await scrolledTo(/^More matches… \(250 more\)/, 'the row offering the rest of the matches');
				await treeItem(page, /^More matches… \(250 more\)/).click();
				await scrolledTo(/^More matches… \(200 more\)/, 'the next 50 matches, and the row offering the rest');
				await viewTitleAction(page, 'Clear Filter').click();
				cleared = true;
			} finally {
				// A check that stops half way leaves no filter behind for the next ones.
				if (!cleared && await viewTitleAction(page, 'Clear Filter').isVisible()) {
					await closeQuickInput(page);
					await viewTitleAction(page, 'Clear Filter').click();
				}
			}
			await treeItem(page, /^README\.md/).waitFor({ state: 'visible', timeout: 15_000 });
			await runFromPalette(page, 'View: Close All Editors');
		},
	},
	{
		name: 'the view\'s filter finds a line by its text under "Text matches", and ticking it selects just that line',
		async run({ page, screenshot }) {
			await runFromPalette(page, 'MCP Resources: Clear Selection');
			await withFilter(page, 'Nested', async () => {
				const line = treeItem(page, /^docs\/guide\/intro\.md:3/);
				await line.waitFor({ state: 'visible', timeout: 20_000 });
				assert.match(await line.innerText(), /Nested two folders deep\./, 'the row shows the line\'s text');
				await treeItem(page, /^Text matches/).waitFor({ state: 'visible', timeout: 10_000 });
				await poll(async () => (await page.locator('.part.sidebar').innerText()).includes('Text matches: 1 match in 1 file'), 'the count in the view\'s message');
				await page.mouse.move(700, 600);
				await screenshot('picker-filter-text');
				await tick(line, 'the matched line');
			});
			await poll(async () => await selectionBadge(page) === '1', 'the badge "1"');
			const text = await clipboardAfter(page, () => runFromPalette(page, 'MCP Resources: Attach Selected to Clipboard'));
			assert.match(text, /^## file:\/\/\/.*\/docs\/guide\/intro\.md\?lines=3$/m, text.slice(0, 400));
			assert.ok(text.includes('Nested two folders deep.') && !text.includes('# Intro'), `just the line: ${text.slice(0, 400)}`);
			await runFromPalette(page, 'MCP Resources: Clear Selection');
		},
	},
];
