import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { assertMcpError, ensureServer, freePort, lockFilePath, readLockFile, RESOURCE_NOT_FOUND, resourceUri, TestClient, waitFor } from './helpers';

const section = () => vscode.workspace.getConfiguration('mcpResources');

describe('settings apply without a restart', () => {
	let client: TestClient;
	before(async () => { client = await TestClient.connect(); });
	afterEach(async () => {
		await section().update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
		await section().update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
		await section().update('enabled', undefined, vscode.ConfigurationTarget.Global);
		await section().update('port', undefined, vscode.ConfigurationTarget.Workspace);
		await ensureServer();
	});
	after(async () => { await client?.close(); });

	it('mcpResources.exclude hides a file from list and read, and brings it back when removed', async () => {
		const uri = resourceUri('notes/private.txt');
		assert.ok((await client.listedUris()).has(uri), 'listed before the setting');
		const tokenBefore = client.info.token;

		const since = client.mark();
		await section().update('exclude', ['notes/private.txt'], vscode.ConfigurationTarget.Workspace);
		await waitFor(async () => !(await client.listedUris()).has(uri), 'private.txt disappears from resources/list');
		await assertMcpError(client.client.readResource({ uri }), RESOURCE_NOT_FOUND, 'read of an excluded file');
		await since.listChanged();
		assert.ok((await client.listedUris()).has(resourceUri('notes/todo.txt')), 'its sibling stays listed');
		assert.equal(readLockFile()?.token, tokenBefore, 'same server (no restart): same token');

		await section().update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
		await waitFor(async () => (await client.listedUris()).has(uri), 'private.txt listed again');
		assert.equal(await client.readText(uri), fs.readFileSync(vscode.Uri.parse(uri).fsPath, 'utf8'));
	});

	it('mcpResources.exclude globs match nested folders', async () => {
		const nested = resourceUri('docs/guide/intro.md');
		await section().update('exclude', ['docs/**'], vscode.ConfigurationTarget.Workspace);
		await waitFor(async () => !(await client.listedUris()).has(nested), 'docs/** hides docs/guide/intro.md');
		await assertMcpError(client.client.readResource({ uri: nested }), RESOURCE_NOT_FOUND, 'read under an excluded glob');
		await assertMcpError(client.client.subscribeResource({ uri: nested }), RESOURCE_NOT_FOUND, 'subscribe under an excluded glob');
	});

	it('mcpResources.enabled=false stops the server and removes the lock file; true starts it again', async () => {
		const before = await ensureServer();
		await section().update('enabled', false, vscode.ConfigurationTarget.Workspace);
		await waitFor(() => !fs.existsSync(lockFilePath()), 'lock file removed when disabled');
		await section().update('enabled', true, vscode.ConfigurationTarget.Workspace);
		const after = await waitFor(() => readLockFile(), 'lock file written again when enabled');
		assert.notEqual(after.startedAt, before.startedAt, 'a new server wrote the lock file');
		assert.equal(after.token, before.token, 'the token lasts as long as the window (Rotate Token makes a new one)');
		const fresh = await TestClient.connect(after);
		await fresh.close();
	});

	it('a folder\'s settings can turn the server off but not on against the user', async () => {
		await ensureServer();
		await section().update('enabled', false, vscode.ConfigurationTarget.Global);
		await waitFor(() => !fs.existsSync(lockFilePath()), 'lock file removed when the user disables the server');
		await section().update('enabled', true, vscode.ConfigurationTarget.Workspace);
		// The command settles once the server has been started or kept stopped as the settings say.
		await vscode.commands.executeCommand('mcpResources.restartServer');
		assert.equal(fs.existsSync(lockFilePath()), false, 'the folder\'s `enabled: true` did not start the server');
	});

	it('Restart Server, Rotate Token and Copy Connection Info say why nothing started while the server is turned off', async () => {
		await ensureServer();
		await section().update('enabled', false, vscode.ConfigurationTarget.Global);
		await waitFor(() => !fs.existsSync(lockFilePath()), 'lock file removed when the user disables the server');
		// Copy Connection Info said "Restart it from the status bar", which starts nothing here.
		for (const command of ['mcpResources.restartServer', 'mcpResources.rotateToken', 'mcpResources.copyConnectionInfo']) {
			// The command resolves with the message it showed.
			const message = await vscode.commands.executeCommand<string | undefined>(command);
			assert.match(String(message), /turned off.*mcpResources\.enabled/, command);
		}
	});

	it('a folder\'s settings do not choose the port the server listens on', async () => {
		const port = await freePort();
		await section().update('port', port, vscode.ConfigurationTarget.Workspace);
		await vscode.commands.executeCommand('mcpResources.restartServer');
		const lock = await ensureServer();
		assert.notEqual(Number(new URL(lock.url).port), port, 'the folder\'s port was ignored');
	});
});
