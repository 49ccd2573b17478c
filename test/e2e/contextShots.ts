// Browser checks of what the editor knows right now, each ending in a README screenshot taken
// once the check has seen what the picture shows: the picker's Suggested group ranking a file
// typed into (with a type error) first, a TypeScript file's outline opened through Fill
// Template..., and a terminal's last command opened from the picker. Copies the pictures to
// media/screenshot-suggested.png (and the walkthrough's relevant.png), -outline.png and -terminal.png.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { activeEditorText, activeTabText, closeQuickInput, expand, hidePanel, noHover, openPicker, poll, quickInput, quickOpen, runFromPalette, treeItem } from './workbench.js';
import { keepPicture } from './keepPicture.js';
import type { Page } from 'playwright-core';
import type { E2ECheck } from './types.js';

/** A tree row: its accessible name and the text it shows. */
interface TreeRow { label: string; text: string }

/** Label (accessible name) and shown text of each tree row the sidebar renders, in order. */
function treeRows(page: Page): Promise<TreeRow[]> {
	return page.locator('.part.sidebar [role="treeitem"]').evaluateAll(rows => rows.map(r => ({
		label: r.getAttribute('aria-label') ?? '',
		text: ((r as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim(),
	})));
}

/** Drags the sidebar's edge to the right, so rows show their reasons whole. */
async function widenSidebar(page: Page): Promise<void> {
	const sidebar = page.locator('.part.sidebar');
	const box = await sidebar.boundingBox();
	assert.ok(box, 'the sidebar is on screen');
	if (box.width >= 500) {
		return;
	}
	const edge = box.x + box.width + 1;
	await page.mouse.move(edge, 450);
	await page.mouse.down();
	for (let i = 1; i <= 10; i++) {
		await page.mouse.move(edge + (560 - box.width) * i / 10, 450);
	}
	await page.mouse.up();
	await poll(async () => ((await sidebar.boundingBox())?.width ?? 0) >= 500, 'the sidebar widened', 5_000);
}

/** A TypeScript file with a few top-level functions for the outline picture. */
const SHAPES_TS = `// Areas and perimeters of rectangles.
export function area(width: number, height: number): number {
	return width * height;
}

export function perimeter(width: number, height: number): number {
	return 2 * (width + height);
}

export function isSquare(width: number, height: number): boolean {
	return width === height;
}
`;

export const contextShotChecks: E2ECheck[] = [
	{
		name: 'typing a type error into a file puts it first in the picker\'s Suggested group, with its reasons (README and walkthrough picture)',
		async run({ page, screenshot }) {
			await runFromPalette(page, 'View: Close All Editors');
			await runFromPalette(page, 'MCP Resources: Clear Selection');
			await hidePanel(page);
			await quickOpen(page, 'src/main.ts');
			await quickOpen(page, 'src/greet.ts');
			await page.locator('.part.editor .editor-group-container.active .view-lines').first().click();
			await page.keyboard.press('Control+End');
			await page.keyboard.press('Enter');
			const typed = 'export const answer: number = \'forty-two\';';
			await page.keyboard.type(typed);
			await page.keyboard.press('Escape');
			await poll(async () => (await activeEditorText(page)).includes(typed), 'the typed line in greet.ts');
			try {
				await openPicker(page);
				// The ranking follows the edit, then the TypeScript error once the language server reports it.
				await widenSidebar(page);
				let seen: TreeRow[] = [];
				const rows = await poll(async () => {
					seen = await treeRows(page);
					const at = seen.findIndex(r => r.text.startsWith('Suggested'));
					const first = seen[at + 1];
					return at >= 0 && first?.label.startsWith('greet.ts') && /active editor/.test(first.text) && /edited \(unsaved\)/.test(first.text) && /\b\d+ errors?\b/.test(first.text)
						? seen.slice(at) : undefined;
				}, 'greet.ts first in Suggested with "active editor", "edited (unsaved)" and its error', 60_000).catch(err => {
					throw new Error(`${err instanceof Error ? err.message : String(err)}; rows: ${seen.map(r => r.text).join(' | ')}`);
				});
				assert.match(rows[0].text, /^Suggested ?\d+ · what matters now/);
				assert.ok(rows.some(r => r.label.startsWith('main.ts') && /open in a tab/.test(r.text)), `main.ts suggested as open in a tab: ${rows.map(r => r.text).join(' | ')}`);
				await noHover(page);
				await screenshot('suggested');
				await keepPicture('suggested', 'media/screenshot-suggested.png');
				await keepPicture('suggested', 'media/walkthrough/relevant.png');
			} finally {
				await runFromPalette(page, 'File: Revert File');
				await runFromPalette(page, 'View: Close All Editors');
			}
		},
	},
	{
		name: 'a TypeScript file\'s outline, opened with Fill Template..., lists its functions with their line ranges (docs picture)',
		async run({ page, workspaceDir, screenshot }) {
			const file = path.join(workspaceDir, 'src', 'shapes.ts');
			fs.writeFileSync(file, SHAPES_TS);
			try {
				await hidePanel(page);
				await quickOpen(page, 'src/shapes.ts');
				// The language server knows the symbols once Go to Symbol in Editor (@) lists them.
				const input = quickInput(page).locator('input');
				await poll(async () => {
					await closeQuickInput(page);
					await page.keyboard.press('F1');
					await input.waitFor({ state: 'visible', timeout: 10_000 });
					await input.fill('@');
					const labels = (await quickInput(page).locator('.monaco-list-row').allInnerTexts()).join(' | ');
					return labels.includes('isSquare');
				}, 'the TypeScript symbols of shapes.ts in Go to Symbol in Editor', 60_000, 500);
				await closeQuickInput(page);
				// The file and its outline side by side, the sidebar out of the way.
				await runFromPalette(page, 'View: Toggle Primary Side Bar Visibility');
				await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 10_000 });
				await runFromPalette(page, 'View: Split Editor Right');

				await closeQuickInput(page);
				await page.keyboard.press('F1');
				await input.waitFor({ state: 'visible', timeout: 10_000 });
				await input.fill('>MCP Resources: Fill Template...');
				await quickInput(page).locator('.monaco-list-row', { hasText: 'Fill Template...' }).first().waitFor({ state: 'visible', timeout: 10_000 });
				await page.keyboard.press('Enter');
				await poll(async () => /Choose a resource template/.test(await input.getAttribute('placeholder') ?? ''), 'the template choice');
				await input.fill('outline');
				await quickInput(page).locator('.monaco-list-row', { hasText: 'outline://file/{+path}' }).first().click();
				await poll(async () => /Value for "path"/.test(await input.getAttribute('placeholder') ?? ''), 'the question for "path"');
				// The whole path: once the server's completion has it, it is the only row (no "as typed" one).
				await input.fill('src/shapes.ts');
				await poll(async () => {
					const rows = (await quickInput(page).locator('.monaco-list-row').allInnerTexts()).map(t => t.replace(/\s+/g, ' ').trim());
					return rows.length === 1 && rows[0] === 'src/shapes.ts';
				}, 'src/shapes.ts suggested by the server\'s completion');
				await page.keyboard.press('Enter');
				await poll(async () => /What to do with the resource/.test(await input.getAttribute('placeholder') ?? ''), 'the Open / Add to Selection choice');
				await quickInput(page).locator('.monaco-list-row', { hasText: 'Open' }).first().click();
				await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
				await poll(async () => /shapes\.ts/.test(await activeTabText(page)) && (await activeEditorText(page)).includes('"symbols"'), 'the outline document open');
				// One line per range object, so each function shows whole: name, kind, lines, uri.
				await runFromPalette(page, 'Fold Level 4');
				let current = '';
				// Each function with its kind, lines and the URI of those lines, all on screen (the view renders only those).
				const functions = [['area', '2-4'], ['perimeter', '6-8'], ['isSquare', '10-12']].map(([name, lines]) =>
					new RegExp(`"name": "${name}",\\s*"kind": "Function",[\\s\\S]*?"lines": "${lines}",\\s*"uri": "file:///[^"]*/src/shapes\\.ts\\?lines=${lines}"`));
				await poll(async () => {
					current = await activeEditorText(page);
					return functions.every(f => f.test(current));
				}, 'the three functions with their lines in the outline').catch(err => {
					throw new Error(`${err.message}; the editor shows: ${current}`);
				});
				await noHover(page);
				await screenshot('outline');
				await keepPicture('outline', 'media/screenshot-outline.png');
			} catch (err) {
				await screenshot('failed-outline-before-cleanup');
				throw err;
			} finally {
				await runFromPalette(page, 'View: Close All Editors');
				if (!(await page.locator('.part.sidebar').isVisible())) {
					await runFromPalette(page, 'View: Toggle Primary Side Bar Visibility');
				}
				fs.rmSync(file, { force: true });
			}
		},
	},
	{
		name: 'a command run in a terminal shows in the picker as the terminal\'s last command, with its output and exit code (docs picture)',
		async run({ page, screenshot }) {
			await runFromPalette(page, 'Terminal: Create New Terminal');
			try {
				const terminal = page.locator('.part.panel .terminal-wrapper').first();
				await terminal.waitFor({ state: 'visible', timeout: 20_000 });
				// Shell integration is on once the shell's prompt is decorated (bash, from the settings).
				await page.locator('.part.panel .terminal-command-decoration').first().waitFor({ state: 'attached', timeout: 30_000 });
				await terminal.click();
				// The command waits a second before printing: VS Code hands an extension a command's
				// output only from when the extension host hears it started (README, Terminals).
				await page.keyboard.type('sleep 1; echo "hello from the terminal $((40 + 2))"');
				await page.keyboard.press('Enter');
				await openPicker(page);
				await expand(page, /^Other\b/);
				// The name in parentheses is the terminal's at listing time (the running process, e.g. "sleep").
				const row = treeItem(page, /^Terminal \d+ \([^)]*\): last command,/);
				await row.waitFor({ state: 'visible', timeout: 30_000 });
				// The row opens a read-only document that follows the resource as the command finishes.
				await row.click();
				const text = await poll(async () => {
					const current = await activeEditorText(page);
					return current.includes('hello from the terminal 42') && /exit code 0/.test(current) ? current : undefined;
				}, 'the last command with its output and exit code in the opened resource', 30_000);
				assert.match(text, /^\$ sleep 1; echo "hello from the terminal \$\(\(40 \+ 2\)\)"/);
				assert.match(await activeTabText(page), /last/);
				await noHover(page);
				await screenshot('terminal');
				await keepPicture('terminal', 'media/screenshot-terminal.png');
			} catch (err) {
				await screenshot('failed-terminal-before-cleanup');
				throw err;
			} finally {
				await runFromPalette(page, 'Terminal: Kill All Terminals');
				await runFromPalette(page, 'View: Close All Editors');
			}
		},
	},
];
