// The picker's Suggested group in a real VS Code: what this window's server ranks as relevant.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { closeAllEditors, EXTENSION_ID, ensureServer, resourceUri, vscodeUri, waitFor } from './helpers';

describe('picker: Suggested', () => {
	after(async () => {
		await closeAllEditors();
	});

	it('shows a Suggested group at the top of This workspace, the active file in it with its reason, and attaches all suggestions in one command', async () => {
		await ensureServer();
		const { service, view } = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.exports.picker;
		const server = await waitFor(() => service.server('workspace'), 'the "This workspace" server');
		await server.resources.load();
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscodeUri('src/greet.ts')));
		// Other suites may have edited files; the active file shows with its reason wherever it ranks.
		let seen = '';
		const first = await waitFor(() => {
			const items = server.suggestions.items();
			seen = items.map(s => `${s.node.resource.uri.split('/').pop()} (${s.reason})`).join('; ');
			return items.find(s => s.node.resource.uri === resourceUri('src/greet.ts') && /active editor/.test(s.reason));
		}, 'src/greet.ts suggested as the active editor', 30_000).catch(err => {
			throw new Error(`${(err as Error).message}; the group shows: ${seen || 'nothing'}`);
		});
		const serverNode = (await view.getChildren(undefined)).find(n => n.serverId === 'workspace')!;
		const children = await view.getChildren(serverNode);
		assert.equal(children[0].kind, 'suggested', 'Suggested comes first');
		assert.equal(view.getTreeItem(children[0]).contextValue, 'suggested');
		const rows = await view.getChildren(children[0]);
		const row = rows.find(r => r.key === first.node.key);
		assert.ok(row, 'the suggestion is a row of the group');
		assert.match(String(view.getTreeItem(row).description), /active editor/);

		service.selection.clear();
		await vscode.commands.executeCommand('mcpResources.attachSuggested', { serverId: 'workspace', target: 'editor' });
		const bundle = await waitFor(() => vscode.window.visibleTextEditors.find(e => e.document.isUntitled && e.document.languageId === 'markdown'), 'the bundle in a Markdown editor');
		assert.ok(bundle.document.getText().includes(`## ${resourceUri('src/greet.ts')}`), bundle.document.getText().slice(0, 300));
		assert.ok(service.selection.has('workspace', resourceUri('src/greet.ts')));
		service.selection.clear();
	});
});
