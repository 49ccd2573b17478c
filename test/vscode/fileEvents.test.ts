import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { assertMcpError, RESOURCE_NOT_FOUND, resourceUri, TestClient, vscodeUri, waitFor } from './helpers';

const text = (s: string) => Buffer.from(s, 'utf8');

describe('file system changes', () => {
	let client: TestClient;
	before(async () => { client = await TestClient.connect(); });

	/** Creates a file and waits until its creation is announced and listed, so later checks start quiet. */
	async function createListed(rel: string, content: string): Promise<string> {
		const uri = resourceUri(rel);
		const since = client.mark();
		await vscode.workspace.fs.writeFile(vscodeUri(rel), text(content));
		await since.listChanged();
		await waitFor(async () => (await client.listedUris()).has(uri), `${rel} listed`);
		return uri;
	}
	after(async () => {
		await client?.close();
		await vscode.workspace.fs.delete(vscodeUri('events'), { recursive: true }).then(undefined, () => undefined);
	});

	it('announces a created file with list_changed and lists it', async () => {
		const since = client.mark();
		await vscode.workspace.fs.writeFile(vscodeUri('events/created.txt'), text('created\n'));
		await since.listChanged();
		await waitFor(async () => (await client.listedUris()).has(resourceUri('events/created.txt')), 'created file listed');
		assert.equal(await client.readText(resourceUri('events/created.txt')), 'created\n');
	});

	it('announces a file created by a WorkspaceEdit', async () => {
		const since = client.mark();
		const edit = new vscode.WorkspaceEdit();
		edit.createFile(vscodeUri('events/from-edit.md'), { contents: text('# from a WorkspaceEdit\n') });
		assert.ok(await vscode.workspace.applyEdit(edit));
		await since.listChanged();
		await waitFor(async () => (await client.listedUris()).has(resourceUri('events/from-edit.md')), 'from-edit.md listed');
	});

	it('notifies a subscriber when its file changes on disk, without list_changed', async () => {
		const uri = await createListed('events/watched.txt', 'v1\n');
		await client.subscribe(uri);

		const since = client.mark();
		const listChangedBefore = client.listChanged;
		await vscode.workspace.fs.writeFile(vscodeUri('events/watched.txt'), text('v2\n'));
		await since.updated(uri);
		assert.equal(await client.readText(uri), 'v2\n');
		assert.equal(client.listChanged, listChangedBefore, 'a content change does not change the list');
	});

	it('announces a deleted file, drops it from the list and refuses to read it', async () => {
		const uri = await createListed('events/doomed.txt', 'doomed\n');
		await client.subscribe(uri);

		const since = client.mark();
		await vscode.workspace.fs.delete(vscodeUri('events/doomed.txt'));
		await since.listChanged();
		await since.updated(uri);
		await waitFor(async () => !(await client.listedUris()).has(uri), 'deleted file no longer listed');
		await assertMcpError(client.client.readResource({ uri }), RESOURCE_NOT_FOUND, 'read of a deleted file');
	});

	it('announces a rename (WorkspaceEdit.renameFile): old URI gone, new URI listed', async () => {
		const oldUri = await createListed('events/before.txt', 'moving\n');
		const newUri = resourceUri('events/after.txt');
		await client.subscribe(oldUri);

		const since = client.mark();
		const edit = new vscode.WorkspaceEdit();
		edit.renameFile(vscodeUri('events/before.txt'), vscodeUri('events/after.txt'));
		assert.ok(await vscode.workspace.applyEdit(edit));
		await since.listChanged();
		await since.updated(oldUri);
		await waitFor(async () => {
			const listed = await client.listedUris();
			return !listed.has(oldUri) && listed.has(newUri);
		}, 'old name gone and new name listed');
		assert.equal(await client.readText(newUri), 'moving\n');
		await assertMcpError(client.client.readResource({ uri: oldUri }), RESOURCE_NOT_FOUND, 'read of the old name');
	});

	it('announces a rename through workspace.fs.rename', async () => {
		const oldUri = await createListed('events/fs-before.txt', 'fs rename\n');
		const newUri = resourceUri('events/fs-after.txt');

		const since = client.mark();
		await vscode.workspace.fs.rename(vscodeUri('events/fs-before.txt'), vscodeUri('events/fs-after.txt'));
		await since.listChanged();
		await waitFor(async () => {
			const listed = await client.listedUris();
			return !listed.has(oldUri) && listed.has(newUri);
		}, 'listing follows the rename');
	});

	it('notifies a subscriber when its file is saved from an editor', async () => {
		const uri = await createListed('events/saved.txt', 'before save\n');
		await client.subscribe(uri);
		const document = await vscode.workspace.openTextDocument(vscodeUri('events/saved.txt'));
		const editor = await vscode.window.showTextDocument(document);
		assert.ok(await editor.edit(b => b.replace(new vscode.Range(0, 0, 0, 'before save'.length), 'after save')));
		await waitFor(async () => (await client.readText(uri)) === 'after save\n', 'dirty text served');

		const since = client.mark();
		assert.ok(await document.save());
		await since.updated(uri);
		assert.equal(await client.readText(uri), 'after save\n');
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});
});
