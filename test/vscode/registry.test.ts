import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { EXTENSION_ID, ensureServer, readLockFile, TestClient, waitFor } from './helpers';

/** The MCP definition VS Code's registry receives from the extension, and "Connect a Client...". */
describe('MCP registry and client configuration', () => {
	let api: ExtensionApi;

	before(async () => {
		await ensureServer();
		const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
		assert.ok(ext);
		api = ext.exports;
	});

	it('declares the provider in package.json and registers it with VS Code', () => {
		const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
		const declared = (ext.packageJSON.contributes?.mcpServerDefinitionProviders ?? []) as { id: string }[];
		assert.deepEqual(declared.map(p => p.id), ['mcpResources.workspaceServer']);
		assert.equal(typeof vscode.lm.registerMcpServerDefinitionProvider, 'function', 'this VS Code has the MCP registry API');
		assert.equal(api.mcpDefinitions.registered, true, 'VS Code accepted the registration');
	});

	it('provides an HTTP definition with the lock file URL and the bearer token, which a client can use', async () => {
		const lock = await ensureServer();
		const [definition] = await Promise.resolve(api.mcpDefinitions.provideMcpServerDefinitions());
		assert.ok(definition instanceof vscode.McpHttpServerDefinition);
		assert.equal(definition.label, 'MCP Workspace Resources');
		assert.equal(definition.uri.toString(true), lock.url);
		assert.deepEqual(definition.headers, { Authorization: `Bearer ${lock.token}` });
		const resolved = await api.mcpDefinitions.resolveMcpServerDefinition(definition, new vscode.CancellationTokenSource().token);
		assert.equal(resolved?.uri.toString(true), lock.url);
		const client = await TestClient.connect({ ...lock, url: resolved!.uri.toString(true), token: resolved!.headers.Authorization.slice('Bearer '.length) });
		await client.close();
	});

	it('keeps the definition (URL and token) across Restart Server, so VS Code\'s client is not left behind', async () => {
		const before = await ensureServer();
		let changes = 0;
		const sub = api.mcpDefinitions.onDidChangeMcpServerDefinitions(() => changes++);
		try {
			await vscode.commands.executeCommand('mcpResources.restartServer');
			const after = await waitFor(() => {
				const lock = readLockFile();
				return lock && lock.startedAt !== before.startedAt ? lock : undefined;
			}, 'a lock file written by the restarted server');
			assert.deepEqual([after.url, after.token], [before.url, before.token]);
			assert.equal(changes, 0, 'the restart resolved with the same definition: nothing to announce');
		} finally {
			sub.dispose();
		}
	});

	it('fires a change with the new token when the token is rotated', async () => {
		const before = await ensureServer();
		let changes = 0;
		const sub = api.mcpDefinitions.onDidChangeMcpServerDefinitions(() => changes++);
		try {
			await vscode.commands.executeCommand('mcpResources.rotateToken');
			const after = await waitFor(() => {
				const lock = readLockFile();
				return lock && lock.token !== before.token ? lock : undefined;
			}, 'a lock file with a new token');
			await waitFor(() => changes > 0, 'onDidChangeMcpServerDefinitions fired');
			const [definition] = await Promise.resolve(api.mcpDefinitions.provideMcpServerDefinitions());
			assert.deepEqual(definition.headers, { Authorization: `Bearer ${after.token}` });
		} finally {
			sub.dispose();
		}
	});

	it('"Connect a Client..." shows the Claude Desktop bridge configuration and copies it', async () => {
		await vscode.env.clipboard.writeText('sentinel before connect');
		const config = await vscode.commands.executeCommand<{ copy: string } | undefined>('mcpResources.connectClient', 'claudeDesktop');
		assert.ok(config);
		const parsed = JSON.parse(config.copy) as { mcpServers: Record<string, { command: string; args: string[] }> };
		assert.equal(parsed.mcpServers['workspace-resources'].command, 'node');
		assert.deepEqual(parsed.mcpServers['workspace-resources'].args.slice(1), ['bridge', '--workspace', vscode.workspace.workspaceFolders![0].uri.fsPath]);
		assert.match(parsed.mcpServers['workspace-resources'].args[0], /dist[\\/]cli\.js$/);
		await waitFor(async () => (await vscode.env.clipboard.readText()) === config.copy, 'the configuration on the clipboard');
		await waitFor(() => vscode.window.activeTextEditor?.document.isUntitled
			&& vscode.window.activeTextEditor.document.getText().includes('"mcpServers"'), 'an untitled editor showing the configuration');
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});
});
