import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ensureServer, rawInitialize, readLockFile, TestClient, waitFor } from './helpers';

describe('commands', () => {
	it('contributes its commands', async () => {
		const all = await vscode.commands.getCommands(true);
		for (const id of ['mcpResources.restartServer', 'mcpResources.rotateToken', 'mcpResources.copyConnectionInfo', 'mcpResources.showLog', 'mcpResources.showActions']) {
			assert.ok(all.includes(id), `${id} is registered`);
		}
	});

	it('mcpResources.copyConnectionInfo puts the url and token on the clipboard', async () => {
		const lock = await ensureServer();
		await vscode.env.clipboard.writeText('sentinel before copy');
		await vscode.commands.executeCommand('mcpResources.copyConnectionInfo');
		const text = await waitFor(async () => {
			const current = await vscode.env.clipboard.readText();
			return current !== 'sentinel before copy' ? current : undefined;
		}, 'clipboard changed by copyConnectionInfo');
		assert.ok(text.includes(lock.url), `clipboard has the url ${lock.url}: ${text.slice(0, 200)}`);
		assert.ok(text.includes(lock.token), 'clipboard has the token');
	});

	it('mcpResources.showLog shows the "MCP Resources" output channel', async () => {
		await vscode.commands.executeCommand('mcpResources.showLog');
		await waitFor(() => vscode.window.visibleTextEditors.some(e => e.document.uri.scheme === 'output'
			&& decodeURIComponent(e.document.uri.toString()).includes('MCP Resources')),
		`an output editor for "MCP Resources" among ${vscode.window.visibleTextEditors.map(e => e.document.uri.toString()).join(', ')}`);
	});

	it('mcpResources.rotateToken writes a new lock file with a new token; the old token is refused', async () => {
		const before = await ensureServer();
		const oldClient = await TestClient.connect(before);
		try {
			await vscode.commands.executeCommand('mcpResources.rotateToken');
			const after = await waitFor(() => {
				const lock = readLockFile();
				return lock && lock.token !== before.token ? lock : undefined;
			}, 'a lock file with a new token');
			assert.equal(after.pid, process.pid);
			assert.equal(await rawInitialize(after.url, { Authorization: `Bearer ${before.token}` }), 401, 'old token on the new server');
			const fresh = await TestClient.connect(after);
			try {
				assert.ok((await fresh.listAll()).resources.length > 0, 'the restarted server serves the workspace');
			} finally {
				await fresh.close();
			}
			await assert.rejects(oldClient.client.listResources(), 'the old session does not survive the restart');
		} finally {
			await oldClient.close();
		}
	});
});
