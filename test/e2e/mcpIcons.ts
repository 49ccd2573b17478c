// VS Code's own MCP client draws our icons: "MCP: Browse Resources" (the same items as chat's
// Add Context... > MCP Resources) shows each template and non-file resource with its family's
// PNG, and file entries without one. Needs AI features on (VS Code hides the MCP commands
// otherwise), so it runs in a window of its own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { WindowCheckContext } from './types.js';
import { closeQuickInput, poll, quickInput } from './workbench.js';
import { repoRoot } from '../../scripts/bootstrap/repoRoot.mjs';
import { keepPicture } from './keepPicture.js';


/** The data: URI the server sends for a family (the committed PNG, see scripts/build/makeIcons.ts). */
function iconSrc(family: string): string {
	return `data:image/png;base64,${fs.readFileSync(path.join(repoRoot, 'media', 'icons', `${family}.png`)).toString('base64')}`;
}

/** The family whose icon a row should carry, from its URI or template (shown as the row's detail). */
function familyOf(detail: string): string | undefined {
	const uri = detail.replace(/^Resource template: /, '');
	if (uri.startsWith('file:')) { return detail === uri ? undefined : 'files'; }
	const families: Record<string, string> = { diagnostics: 'problems', git: 'git', editor: 'editor', context: 'editor', terminal: 'editor', outline: 'files' };
	return families[uri.slice(0, uri.indexOf(':'))] ?? 'unknown';
}

/** A row of Browse Resources as a user sees it. */
interface BrowseRow { label: string; detail: string; icon: string | undefined }

/** Label, detail (URI or template) and icon of every row the quick input renders. */
function rows(page: Page): Promise<BrowseRow[]> {
	return quickInput(page).locator('.monaco-list-row').evaluateAll(elements => elements.map(row => {
		const [first, second] = row.querySelectorAll('.quick-input-list-row');
		const image = row.querySelector<HTMLElement>('.quick-input-list-icon')?.style.backgroundImage ?? '';
		return {
			label: first?.querySelector('.label-name')?.textContent ?? '',
			detail: ((second as HTMLElement | undefined)?.innerText ?? '').replace(/\s+\(\d+B\)$/, '').trim(),
			icon: /^url\("(.*)"\)$/.exec(image)?.[1],
		};
	}));
}

/** Opens "MCP: Browse Resources", offered once VS Code knows a server with resources. */
export async function openBrowseResources(page: Page): Promise<Locator> {
	const input = quickInput(page).locator('input');
	await poll(async () => {
		await closeQuickInput(page);
		await page.keyboard.press('F1');
		await input.waitFor({ state: 'visible', timeout: 10_000 });
		await input.fill('>MCP: Browse Resources');
		const first = quickInput(page).locator('.monaco-list-row').first();
		await first.waitFor({ state: 'visible', timeout: 5_000 });
		return (await first.innerText()).startsWith('MCP: Browse Resources');
	}, '"MCP: Browse Resources" in the command palette', 60_000, 1_000);
	await page.keyboard.press('Enter');
	return input;
}

/** Shows `query` in Browse Resources and checks the icon of every row once `expect` holds. */
async function showAndCheck(page: Page, input: Locator, query: string, expect: (shown: BrowseRow[]) => boolean): Promise<BrowseRow[]> {
	await input.fill(`mcpr ${query}`);
	const shown = await poll(async () => {
		const current = await rows(page);
		return expect(current) ? current : undefined;
	}, `Browse Resources rows for "${query}"`, 30_000);
	for (const row of shown) {
		const family = familyOf(row.detail);
		if (family === undefined) {
			assert.equal(row.icon, undefined, `${row.label} (${row.detail}): a file entry has no icon`);
		} else {
			assert.ok(row.icon === iconSrc(family), `${row.label} (${row.detail}): the ${family} icon, got ${row.icon?.slice(0, 40)}`);
		}
	}
	return shown;
}

export async function mcpIconsCheck({ page, screenshot }: WindowCheckContext): Promise<void> {
	const input = await openBrowseResources(page);
	const families = new Set<string | undefined>();
	const seen = (shown: BrowseRow[]) => shown.forEach(row => families.add(familyOf(row.detail)));
	// Templates of files, problems and git, each found by its title (the list renders only the
	// rows in view, and search and symbols templates come before them).
	for (const [family, title] of [['files', 'Workspace file'], ['problems', 'Problems of a file'], ['git', 'A commit and its patch']]) {
		seen(await showAndCheck(page, input, title, shown => shown.some(r => r.detail.startsWith('Resource template:') && familyOf(r.detail) === family)));
	}
	// The list renders only the rows in view, and the few non-file resources come before files:
	// ask for a file by name to see a file row (which must have no icon).
	seen(await showAndCheck(page, input, 'README.md', shown => shown.some(r => r.detail.startsWith('file:'))));
	seen(await showAndCheck(page, input, 'Git status', shown => shown.some(r => r.detail.startsWith('git://') && r.detail.endsWith('/status'))));
	seen(await showAndCheck(page, input, 'Workspace problems', shown => shown.some(r => r.detail === 'diagnostics://workspace')));
	// The screenshot: a letter that every family's titles have and few file names do. The list
	// renders only the rows in view, so ask for one row of each family among them.
	seen(await showAndCheck(page, input, 'p', shown => ['problems', 'git', 'editor'].every(f => shown.some(r => familyOf(r.detail) === f))));
	assert.deepEqual([...families].filter(Boolean).sort(), ['editor', 'files', 'git', 'problems']);
	await screenshot('mcp-icons');
	await keepPicture('mcp-icons', 'media/screenshot-mcp-icons.png');
	await closeQuickInput(page);
}
