import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, ensureServer, lockFilePath, rawInitialize, TestClient, workspaceRoot } from './helpers';

describe('server and lock file', () => {
	it('writes servers/<extension host pid>.json, mode 0600, with the documented fields', async () => {
		const lock = await ensureServer();
		const file = lockFilePath();
		assert.ok(process.env.MCP_WORKSPACE_RESOURCES_HOME, 'the runner set MCP_WORKSPACE_RESOURCES_HOME for the extension host');
		assert.equal(path.dirname(path.dirname(file)), path.resolve(process.env.MCP_WORKSPACE_RESOURCES_HOME!));
		assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'lock file mode');
		assert.match(lock.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
		assert.match(lock.token, /^[0-9a-f]{32,}$/);
		assert.equal(lock.pid, process.pid);
		assert.equal(lock.host, 'vscode');
		const ext = vscode.extensions.getExtension(EXTENSION_ID);
		assert.equal(lock.version, ext?.packageJSON.version);
		assert.ok(!Number.isNaN(Date.parse(lock.startedAt)), `startedAt is a date: ${lock.startedAt}`);
		assert.deepEqual(lock.workspaceFolders, [workspaceRoot()]);
	});

	it('lets an SDK client connect with the lock file url and token', async () => {
		const client = await TestClient.connect();
		try {
			const capabilities = client.client.getServerCapabilities();
			assert.equal(capabilities?.resources?.subscribe, true, 'resources.subscribe');
			assert.equal(capabilities?.resources?.listChanged, true, 'resources.listChanged');
		} finally {
			await client.close();
		}
	});

	it('answers 401 without the token or with a wrong one', async () => {
		const lock = await ensureServer();
		assert.equal(await rawInitialize(lock.url, {}), 401, 'no Authorization header');
		assert.equal(await rawInitialize(lock.url, { Authorization: `Bearer ${'0'.repeat(lock.token.length)}` }), 401, 'wrong token');
		assert.equal(await rawInitialize(lock.url, { Authorization: lock.token }), 401, 'token without Bearer');
	});

	it('refuses a foreign Host or Origin even with the right token', async () => {
		const lock = await ensureServer();
		const auth = { Authorization: `Bearer ${lock.token}` };
		assert.equal(await rawInitialize(lock.url, auth), 200, 'control: the same request with a proper Host succeeds');
		const badHost = await rawInitialize(lock.url, { ...auth, Host: 'evil.example:80' });
		assert.ok(badHost >= 400 && badHost < 500, `foreign Host answered ${badHost}`);
		const badOrigin = await rawInitialize(lock.url, { ...auth, Origin: 'http://evil.example' });
		assert.ok(badOrigin >= 400 && badOrigin < 500, `foreign Origin answered ${badOrigin}`);
	});
});
