import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { absPath, closeAllEditors, resourceUri, restoreFile, TestClient, vscodeUri, waitFor } from './helpers';

const FILE = 'src/greet.ts';

describe('unsaved editor changes', () => {
	let client: TestClient;
	let original: string;
	const uri = () => resourceUri(FILE);

	before(async () => {
		original = fs.readFileSync(absPath(FILE), 'utf8');
		client = await TestClient.connect();
		await client.subscribe(uri());
	});
	afterEach(async () => {
		await closeAllEditors();
		await restoreFile(FILE, original);
		await waitFor(async () => (await client.readText(uri())) === original, `${FILE} restored`);
	});
	after(async () => { await client?.close(); });

	async function open(): Promise<vscode.TextEditor> {
		const document = await vscode.workspace.openTextDocument(vscodeUri(FILE));
		return vscode.window.showTextDocument(document);
	}

	it('serves the dirty buffer of a WorkspaceEdit and notifies subscribers', async () => {
		const editor = await open();
		const since = client.mark();
		const edit = new vscode.WorkspaceEdit();
		edit.insert(editor.document.uri, new vscode.Position(0, 0), '// unsaved WorkspaceEdit\n');
		assert.ok(await vscode.workspace.applyEdit(edit), 'edit applied');
		assert.ok(editor.document.isDirty, 'document is dirty');

		await since.updated(uri());
		assert.equal(await client.readText(uri()), `// unsaved WorkspaceEdit\n${original}`);
		assert.equal(fs.readFileSync(absPath(FILE), 'utf8'), original, 'disk still has the saved text');
	});

	it('serves the dirty buffer of a TextEditor.edit and notifies subscribers', async () => {
		const editor = await open();
		const since = client.mark();
		const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
		assert.ok(await editor.edit(b => b.insert(end, '\n// typed in the editor\n')), 'edit applied');
		assert.ok(editor.document.isDirty);

		await since.updated(uri());
		assert.equal(await client.readText(uri()), editor.document.getText());
		assert.ok((await client.readText(uri())).endsWith('// typed in the editor\n'));
		assert.equal(fs.readFileSync(absPath(FILE), 'utf8'), original, 'disk still has the saved text');
	});

	it('serves the disk text again after the edit is reverted', async () => {
		const editor = await open();
		assert.ok(await editor.edit(b => b.insert(new vscode.Position(0, 0), '// to be reverted\n')));
		await waitFor(async () => (await client.readText(uri())).startsWith('// to be reverted'), 'dirty text served');

		const since = client.mark();
		await vscode.commands.executeCommand('workbench.action.files.revert');
		assert.ok(!editor.document.isDirty, 'reverted');
		await since.updated(uri());
		assert.equal(await client.readText(uri()), original);
	});

	it('serves the disk text again, notified, when a dirty editor is closed without saving', async () => {
		const editor = await open();
		assert.ok(await editor.edit(b => b.insert(new vscode.Position(0, 0), '// closed unsaved\n')));
		await waitFor(async () => (await client.readText(uri())).startsWith('// closed unsaved'), 'dirty text served');

		const since = client.mark();
		// "Don't Save" on close: the editor reverts the document and closes it.
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
		assert.ok(!vscode.window.visibleTextEditors.some(e => e.document === editor.document), 'closed');
		await since.updated(uri());
		assert.equal(await client.readText(uri()), original);
	});

	it('notifies on save and then serves the saved text', async () => {
		const editor = await open();
		assert.ok(await editor.edit(b => b.insert(new vscode.Position(0, 0), '// saved edit\n')));
		await waitFor(async () => (await client.readText(uri())).startsWith('// saved edit'), 'dirty text served');

		const since = client.mark();
		assert.ok(await editor.document.save(), 'saved');
		await since.updated(uri());
		assert.equal(fs.readFileSync(absPath(FILE), 'utf8'), `// saved edit\n${original}`);
		assert.equal(await client.readText(uri()), `// saved edit\n${original}`);
	});

	it('does not notify a client that did not subscribe', async () => {
		const other = await TestClient.connect();
		try {
			const editor = await open();
			const since = client.mark();
			assert.ok(await editor.edit(b => b.insert(new vscode.Position(0, 0), '// seen by subscribers only\n')));
			await since.updated(uri());
			// The subscribed client has been told; the other one, on the same server, must not be.
			assert.deepEqual(other.updated, []);
		} finally {
			await other.close();
		}
	});
});
