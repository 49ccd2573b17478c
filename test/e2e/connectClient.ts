// "Connect a Client..." as the walkthrough's first step shows it: the list of clients, over the
// configuration of the one picked before (Claude Code), which also went to the clipboard. Keeps
// the picture as media/walkthrough/connect.png.
import * as assert from 'node:assert/strict';
import { activeEditorText, clipboardAfter, closeQuickInput, hidePanel, noHover, openPalettePick, poll, quickInput, quickInputLabels, quickRow, runFromPalette } from './workbench.js';
import { keepPicture } from './keepPicture.js';
import type { E2ECheck } from './types.js';

/** The clients the list offers, by the labels src/vscode/clientConfigs.ts gives them. */
const CLIENTS = ['Claude Desktop', 'Claude Code', 'Cursor', 'VS Code mcp.json', 'Codex CLI', 'Gemini CLI', 'GitHub Copilot CLI'];

export const connectClientChecks: E2ECheck[] = [
	{
		name: '"Connect a Client..." lists the clients and opens the one picked, copied to the clipboard (walkthrough picture)',
		async run({ page, lock, screenshot }) {
			const { url } = await lock();
			await runFromPalette(page, 'View: Close All Editors');
			await hidePanel(page);
			const placeholder = /Which client\?/;
			const text = await clipboardAfter(page, async () => {
				await openPalettePick(page, 'MCP Resources: Connect a Client...', placeholder);
				await quickRow(page, 'Claude Code').click();
				await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
			});
			assert.match(text, /^claude mcp add .*bridge --workspace /m, text);
			const shown = await poll(async () => {
				const current = await activeEditorText(page);
				return current.includes('claude mcp add') ? current : undefined;
			}, 'the Claude Code configuration in an editor');
			assert.ok(shown.includes(url), `the editor also shows the HTTP way, with this window's url ${url}: ${shown}`);
			try {
				// The list again, over the configuration just opened: the walkthrough's picture.
				await openPalettePick(page, 'MCP Resources: Connect a Client...', placeholder);
				const labels = await quickInputLabels(page);
				for (const client of CLIENTS) {
					assert.ok(labels.some(l => l.startsWith(client)), `the list offers ${client}: ${labels.join(' | ')}`);
				}
				await noHover(page);
				await screenshot('connect-client');
				await keepPicture('connect-client', 'media/walkthrough/connect.png');
				await closeQuickInput(page);
			} finally {
				// The configuration is an untitled document: revert it, so closing asks nothing.
				await runFromPalette(page, 'File: Revert File');
				await runFromPalette(page, 'View: Close All Editors');
			}
		},
	},
];
