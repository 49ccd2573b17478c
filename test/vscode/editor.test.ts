import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, TestClient, vscodeUri, waitFor } from './helpers';

describe('editor state (editor://)', () => {
	let client: TestClient;
	before(async () => {
		client = await TestClient.connect();
	});
	after(async () => {
		await closeAllEditors();
		await client?.close();
	});

	it('serves the active file and its selection, notifies on selection changes, and lists tabs', async () => {
		await client.subscribe('editor://active');
		const since = client.mark();
		const document = await vscode.workspace.openTextDocument(vscodeUri('src/greet.ts'));
		const editor = await vscode.window.showTextDocument(document);
		await since.updated('editor://active');
		await waitFor(async () => JSON.parse(await client.readText('editor://active')).file === 'src/greet.ts', 'active file served');

		const moved = client.mark();
		editor.selection = new vscode.Selection(0, 7, 0, 15);
		await moved.updated('editor://active');
		const active = await waitFor(async () => {
			const body = JSON.parse(await client.readText('editor://active'));
			return body.selections?.[0]?.text === 'function' ? body : undefined;
		}, 'the selection text');
		assert.equal(active.languageId, 'typescript');
		const selection = JSON.parse(await client.readText('editor://selection'));
		assert.equal(selection.selections[0].text, 'function');

		const tabs = JSON.parse(await client.readText('editor://tabs')) as { tabs: { file: string | null; isActive: boolean }[] };
		assert.ok(tabs.tabs.some(t => t.file === 'src/greet.ts' && t.isActive), JSON.stringify(tabs));
	});

	it('coalesces a burst of cursor moves', async () => {
		const editor = vscode.window.activeTextEditor;
		assert.ok(editor);
		const before = client.updated.length;
		for (let i = 0; i < 40; i++) {
			editor.selection = new vscode.Selection(0, i % 10, 0, i % 10);
		}
		const last = client.mark();
		editor.selection = new vscode.Selection(1, 0, 1, 0);
		await last.updated('editor://active');
		const count = client.updated.slice(before).filter(u => u === 'editor://active').length;
		assert.ok(count <= 5, `${count} notifications for 41 moves`);
	});
});
