import * as assert from 'node:assert/strict';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/server';
import { fileUri } from '../../../src/core/uriGuard';
import { HttpHost } from '../../../src/mcp/httpHost';
import { SideDoorCalls } from '../../../src/mcp/sideDoorCalls';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, TestServer } from '../../helpers/harness';
import { raw, RawResponse } from '../../helpers/rawHttp';

/** The one `message` event of a POST's answer stream, as the SDK's transport frames it. */
function eventData(res: RawResponse): string {
	const match = /^event: message\ndata: (.*)\n\n$/s.exec(res.body);
	assert.ok(match, `one message event: ${JSON.stringify(res.body.slice(0, 200))}`);
	return match[1];
}

/**
 * A 2025 session's hot reads (read, list, templates) skip the SDK's web-standard transport
 * (LegacyHotReads): they must come out as that transport answers them, and everything the
 * transport has to refuse must still reach it.
 */
describe('2025 HTTP sessions: reads past the SDK transport', () => {
	let fx: Fixture;
	let server: TestServer;
	let host: HttpHost;
	let port: number;
	let token: string;
	let sessionId: string;

	const headers = (extra: Record<string, string> = {}) => ({
		Host: `127.0.0.1:${port}`,
		Authorization: `Bearer ${token}`,
		'Content-Type': 'application/json',
		Accept: 'application/json, text/event-stream',
		...sessionId && { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-06-18' },
		...extra,
	});
	const post = (body: object, extra?: Record<string, string>) => raw(port, { headers: headers(extra), body: JSON.stringify(body) });

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		host = new HttpHost({ registry: server.registry, log: server.log, pageSize: 3 });
		({ port, token } = await host.start());
		sessionId = '';
		const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
		sessionId = String(init.headers['mcp-session-id']);
		assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
	});

	afterEach(async () => {
		await host.stop();
		host.dispose();
		server.dispose();
		fx.dispose();
	});

	it('answers a read, a page (and the next), the templates and a not-found as the transport does', async () => {
		const first = JSON.parse(eventData(await post({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: {} }))) as { result: { nextCursor: string } };
		const requests: [string, Record<string, unknown>][] = [
			['resources/read', { uri: fileUri(fx.file('README.md')) }],
			['resources/read', { uri: fileUri(fx.file('src/ünïcödé 文件.txt')) }],
			['resources/list', {}],
			['resources/list', { cursor: first.result.nextCursor }],
			['resources/templates/list', {}],
			['resources/read', { uri: fileUri(fx.file('.env')) }],
		];
		for (const [method, params] of requests) {
			const past = await post({ jsonrpc: '2.0', id: 7, method, params });
			// A `_meta` in the params is left to the transport (it may carry a progress token).
			const through = await post({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: {} } });
			assert.equal(past.status, 200);
			assert.equal(past.headers['content-type'], 'text/event-stream');
			assert.equal(past.headers['mcp-session-id'], sessionId);
			assert.equal(past.headers['cache-control'], through.headers['cache-control']);
			assert.ok(past.headers['content-length'], `${method} was answered past the transport, which streams its answers chunked`);
			assert.equal(through.headers['content-length'], undefined, `${method} with _meta went through the transport`);
			assert.equal(eventData(past), eventData(through), `${method} ${JSON.stringify(params)}`);
		}
	});

	it('leaves to the transport what it refuses: an unknown protocol version header, an Accept without event streams, no session', async () => {
		const read = { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: fileUri(fx.file('README.md')) } };
		const badVersion = await post(read, { 'MCP-Protocol-Version': '1999-01-01' });
		assert.equal(badVersion.status, 400);
		assert.match(badVersion.body, /Unsupported protocol version: 1999-01-01/);
		const jsonOnly = await post(read, { Accept: 'application/json' });
		assert.equal(jsonOnly.status, 406);
		const gone = await post(read, { 'Mcp-Session-Id': 'no-such-session' });
		assert.equal(gone.status, 404);
	});

	it('serves the session\'s reads no more once it ended (DELETE)', async () => {
		assert.equal((await raw(port, { method: 'DELETE', headers: headers() })).status, 200);
		const after = await post({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: fileUri(fx.file('README.md')) } });
		assert.equal(after.status, 404);
	});
});

describe('SideDoorCalls', () => {
	it('sends each request under a wire id of its own and answers it under the caller\'s id', async () => {
		const calls = new SideDoorCalls();
		const delivered: JSONRPCRequest[] = [];
		const first = calls.call({ id: 1, method: 'resources/read', params: { uri: 'a:' } }, m => delivered.push(m) > 0);
		const second = calls.call({ id: 1, method: 'resources/read', params: { uri: 'b:' } }, m => delivered.push(m) > 0);
		const [a, b] = delivered;
		assert.notEqual(a.id, 1);
		assert.notEqual(a.id, b.id, 'two callers with the same id');
		assert.deepEqual(a.params, { uri: 'a:' });
		// An answer to an id the instance got from elsewhere (its client, through the transport) is not taken.
		assert.equal(calls.answer({ jsonrpc: '2.0', id: 1, result: {} }), false);
		assert.equal(calls.answer({ jsonrpc: '2.0', id: b.id, error: { code: -32602, message: 'nope' } }), true);
		assert.equal(calls.answer({ jsonrpc: '2.0', id: a.id, result: { contents: [] } }), true);
		assert.deepEqual(await first, { jsonrpc: '2.0', id: 1, result: { contents: [] } } satisfies JSONRPCMessage);
		assert.deepEqual(await second, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'nope' } });
	});

	it('gives undefined for what was not delivered, what waits when it ends, and every later call', async () => {
		const calls = new SideDoorCalls();
		assert.equal(await calls.call({ id: 1, method: 'resources/list' }, () => false), undefined);
		const waiting = calls.call({ id: 2, method: 'resources/list' }, () => true);
		calls.end();
		assert.equal(await waiting, undefined);
		let delivered = false;
		assert.equal(await calls.call({ id: 3, method: 'resources/list' }, () => (delivered = true)), undefined);
		assert.equal(delivered, false);
	});
});
