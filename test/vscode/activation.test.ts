import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { absPath, EXTENSION_ID, readLockFile, waitFor } from './helpers';

interface ExtensionApi {
	connectionInfo(): { url: string; token: string } | undefined;
	whenReady(): Promise<{ url: string; token: string }>;
}

describe('activation', () => {
	it('is installed, activates and exports its API', async () => {
		const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
		assert.ok(ext, `extension ${EXTENSION_ID} is not installed`);
		const api = await ext.activate();
		assert.ok(ext.isActive, 'extension is active');
		assert.equal(typeof api?.whenReady, 'function', 'exports whenReady()');
		assert.equal(typeof api?.connectionInfo, 'function', 'exports connectionInfo()');
		const info = await api.whenReady();
		assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
		assert.match(info.token, /^[0-9a-f]{32,}$/);
		const current = api.connectionInfo();
		assert.equal(current?.url, info.url, 'connectionInfo().url');
		assert.equal(current?.token, info.token, 'connectionInfo().token');
	});

	it('runs as a workspace extension in the host that has the fixture folder', () => {
		const ext = vscode.extensions.getExtension(EXTENSION_ID);
		assert.ok(ext);
		assert.equal(ext.extensionKind, vscode.ExtensionKind.Workspace);
		assert.ok(fs.existsSync(absPath('README.md')), 'fixture README.md is in the opened folder');
		assert.ok(vscode.workspace.isTrusted, 'workspace is trusted');
	});

	it('reports the server in its lock file once ready', async () => {
		const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
		const info = await ext!.exports.whenReady();
		const lock = await waitFor(() => {
			const current = readLockFile();
			return current?.token === ext!.exports.connectionInfo()?.token ? current : undefined;
		}, 'lock file agreeing with connectionInfo()');
		assert.equal(lock.url, info.url);
	});
});
