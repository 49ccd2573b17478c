import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { fileUri } from '../../../../src/core/uriGuard';
import { HttpHost } from '../../../../src/mcp/http/httpHost';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { connectHttp, createTestServer, errorOf, listAll, TestServer } from '../../../helpers/harness';
import { raw } from '../../../helpers/rawHttp';

const initialize = JSON.stringify({
	jsonrpc: '2.0', id: 1, method: 'initialize',
	params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('HTTP host', () => {
	let fx: Fixture;
	let server: TestServer;
	let host: HttpHost;
	let port: number;
	let token: string;
	let url: string;

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		host = new HttpHost({ registry: server.registry, log: server.log, pageSize: 3 });
		({ port, token, url } = await host.start());
	});

	afterEach(async () => {
		await host.stop();
		host.dispose();
		server.dispose();
		fx.dispose();
	});

	const good = () => ({
		Host: `127.0.0.1:${port}`,
		Authorization: `Bearer ${token}`,
		'Content-Type': 'application/json',
		Accept: 'application/json, text/event-stream',
	});

	it('binds 127.0.0.1 on an OS-assigned port', () => {
		assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
		assert.ok(port > 0);
		assert.match(token, /^[0-9a-f]{64}$/);
	});

	it('serves list, read, templates and completion to an SDK client with the token', async () => {
		const conn = await connectHttp(url, token);
		try {
			const all = await listAll(conn.client);
			assert.ok(all.some(r => r.name === 'README.md'));
			const read = await conn.client.readResource({ uri: fileUri(fx.file('README.md')) });
			assert.equal((read.contents[0] as { text: string }).text, '# Fixture\n');
			const { resourceTemplates } = await conn.client.listResourceTemplates();
			assert.equal(resourceTemplates[0].uriTemplate, 'file:///{+path}');
			assert.deepEqual(conn.client.getServerCapabilities()?.resources, { subscribe: true, listChanged: true });
			assert.equal(host.sessionCount, 1);
		} finally {
			await conn.close();
		}
	});

	it('delivers updated to the subscribed HTTP session only, list_changed to all', async () => {
		const a = await connectHttp(url, token);
		const b = await connectHttp(url, token);
		try {
			const uri = fileUri(fx.file('README.md'));
			await a.client.subscribeResource({ uri });
			writeFileSync(fx.file('README.md'), 'changed\n');
			server.watcher.fire({ kind: 'changed', path: fx.file('README.md') });
			await a.waitForUpdate(uri);
			const added = fx.write('added.txt', 'x');
			const both = Promise.all([a.waitForListChanged(), b.waitForListChanged()]);
			server.watcher.fire({ kind: 'created', path: added });
			await both;
			assert.deepEqual(b.updates, []);
		} finally {
			await a.close();
			await b.close();
		}
	});

	it('answers 401 without the token or with a wrong one, before any work', async () => {
		const sameLength = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
		for (const auth of [undefined, 'Bearer wrong', `Bearer ${token}x`, `Basic ${token}`, `Bearer ${token.slice(0, 10)}`, 'Bearer', `Bearer ${sameLength}`]) {
			const headers: Record<string, string> = { ...good() };
			if (auth === undefined) {
				delete headers.Authorization;
			} else {
				headers.Authorization = auth;
			}
			const res = await raw(port, { headers, body: initialize });
			assert.equal(res.status, 401, String(auth));
			assert.match(res.headers['www-authenticate'] ?? '', /^Bearer/);
			assert.ok(!res.body.includes(token));
		}
		assert.equal(host.sessionCount, 0);
		const conn = await errorOf(connectHttp(url, 'wrong-token'));
		assert.ok(conn);
	});

	it('rejects foreign Host and Origin headers with 403', async () => {
		for (const hostHeader of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `localhost.evil.example:${port}`, `127.0.0.1.evil.example:${port}`]) {
			const res = await raw(port, { headers: { ...good(), Host: hostHeader }, body: initialize });
			assert.equal(res.status, 403, `Host ${hostHeader}`);
		}
		for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${port + 1}`, `http://evil.example:${port}`]) {
			const res = await raw(port, { headers: { ...good(), Origin: origin }, body: initialize });
			assert.equal(res.status, 403, `Origin ${origin}`);
			assert.equal(res.headers['access-control-allow-origin'], undefined);
		}
		const sameOrigin = await raw(port, { headers: { ...good(), Origin: `http://127.0.0.1:${port}`, Host: `localhost:${port}` }, body: initialize });
		assert.equal(sameOrigin.status, 200);
	});

	it('answers bad requests with clear 4xx: path, method, media type, size, JSON, session', async () => {
		assert.equal((await raw(port, { path: '/other', headers: good(), body: initialize })).status, 404);
		assert.equal((await raw(port, { method: 'PUT', headers: good(), body: initialize })).status, 405);
		assert.equal((await raw(port, { headers: { ...good(), 'Content-Type': 'text/plain' }, body: initialize })).status, 415);
		assert.equal((await raw(port, { headers: good(), body: Buffer.alloc(5 * 1024 * 1024, 0x20) })).status, 413);
		const parse = await raw(port, { headers: good(), body: '{"jsonrpc":' });
		assert.equal(parse.status, 400);
		assert.equal(JSON.parse(parse.body).error.code, -32700);
		// JSON that is not JSON-RPC is an invalid request (-32600), not a parse error, in a 2025 session too.
		const opened = await raw(port, { headers: good(), body: initialize });
		const inSession = { ...good(), 'Mcp-Session-Id': String(opened.headers['mcp-session-id']), 'Mcp-Protocol-Version': '2025-06-18' };
		for (const headers of [good(), inSession]) {
			for (const body of ['{"jsonrpc":"2.0","id":7,"method":"resources/list","params":[]}', '{"jsonrpc":"2.0","id":7,"method":5}', '{"id":7,"method":"ping"}', '[{"jsonrpc":"2.0","id":7}]']) {
				const notJsonRpc = await raw(port, { headers, body });
				assert.equal(notJsonRpc.status, 400, body);
				assert.equal((JSON.parse(notJsonRpc.body) as { error: { code: number } }).error.code, -32600, `${body}: ${notJsonRpc.body}`);
			}
		}
		const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/list', params: {} });
		assert.equal((await raw(port, { headers: good(), body: list })).status, 400, 'no session id');
		assert.equal((await raw(port, { headers: { ...good(), 'Mcp-Session-Id': 'unknown' }, body: list })).status, 404);
		assert.equal((await raw(port, { method: 'GET', headers: { ...good(), 'Mcp-Session-Id': 'unknown' } })).status, 404);
		assert.deepEqual(server.log.errors, []);
	});

	it('closes sessions on DELETE and on stop, and a new start has a new token', async () => {
		const conn = await connectHttp(url, token);
		assert.equal(host.sessionCount, 1);
		await conn.close();
		assert.equal(host.sessionCount, 0);
		await host.stop();
		const again = await host.start();
		assert.notEqual(again.token, token);
		const res = await raw(again.port, { headers: { ...good(), Host: `127.0.0.1:${again.port}` }, body: initialize });
		assert.equal(res.status, 401, 'the old token no longer works');
		port = again.port;
	});

	it('listens on a free port instead of one that fetch refuses to connect to (6000), and says so', async () => {
		const blocked = new HttpHost({ registry: server.registry, log: server.log, port: 6000 });
		try {
			const info = await blocked.start();
			assert.notEqual(info.port, 6000);
			assert.ok(server.log.warnings.some(w => w.includes('port 6000 is one that clients using fetch (Node, browsers, VS Code) refuse to connect to')), server.log.warnings.join('\n'));
			const res = await fetch(info.url, { method: 'POST', headers: { Authorization: `Bearer ${info.token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: initialize });
			assert.equal(res.status, 200, 'fetch reaches it');
			await res.body?.cancel();
		} finally {
			await blocked.stop();
			blocked.dispose();
		}
	});

	it('falls back to a free port when the configured one is taken', async () => {
		const other = new HttpHost({ registry: server.registry, log: server.log, port });
		try {
			const info = await other.start();
			assert.notEqual(info.port, port);
			assert.ok(server.log.warnings.some(w => w.includes(`port ${port} is in use`)));
		} finally {
			await other.stop();
		}
	});
});
