import * as assert from 'node:assert/strict';

const REVISION = '2026-07-28';
import { fileUri } from '../../../../src/core/uriGuard';
import { HttpHost } from '../../../../src/mcp/http/httpHost';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { createTestServer, TestServer } from '../../../helpers/harness';

function envelope(clientName: string): Record<string, unknown> {
	return {
		'io.modelcontextprotocol/protocolVersion': REVISION,
		'io.modelcontextprotocol/clientCapabilities': {},
		'io.modelcontextprotocol/clientInfo': { name: clientName, version: '1' },
	};
}

function message(id: number | string, method: string, params: Record<string, unknown>, clientName = 'raw'): Record<string, unknown> {
	return { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(clientName) } };
}

/** The standard 2026-07-28 headers for a request, as a client sends them. */
function standardHeaders(method: string, name?: string): Record<string, string> {
	return { 'mcp-protocol-version': REVISION, 'mcp-method': method, ...name !== undefined && { 'mcp-name': name } };
}

/** One raw 2026-07-28 POST to the host. */
async function post(url: string, token: string, body: Record<string, unknown>, headers: Record<string, string>): Promise<{ status: number; body: string }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
		body: JSON.stringify(body),
	});
	return { status: res.status, body: await res.text() };
}

describe('stateless 2026-07-28 requests over HTTP', () => {
	let fx: Fixture;
	let server: TestServer;
	beforeEach(() => {
		fx = createFixture();
		server = createTestServer([fx.root]);
	});
	afterEach(() => {
		server.dispose();
		fx.dispose();
	});

	let host: HttpHost;
	let url: string;
	let token: string;

	beforeEach(async () => {
		host = new HttpHost({ registry: server.registry, log: server.log });
		({ url, token } = await host.start());
	});
	afterEach(async () => {
		await host.stop();
		host.dispose();
	});

	it('keeps concurrent clients apart: same request ids, different envelopes, each gets its own answer', async () => {
		const files = ['README.md', 'src/index.ts', 'src/with space & #hash?.txt', 'data/latin1.txt'];
		const replies = await Promise.all(files.flatMap((rel, i) => ['alpha', 'beta'].map(async client => {
			const uri = fileUri(fx.file(rel));
			const reply = await post(url, token, message(1, 'resources/read', { uri }, `${client}-${i}`), standardHeaders('resources/read', uri));
			return { uri, reply };
		})));
		for (const { uri, reply } of replies) {
			assert.equal(reply.status, 200);
			const parsed = JSON.parse(reply.body) as { id: unknown; result: { contents: { uri: string }[] } };
			assert.equal(parsed.id, 1);
			assert.equal(parsed.result.contents[0].uri, uri);
		}
		assert.equal(server.log.errors.length, 0, server.log.errors.join('\n'));
	});

	it('sends a page prepared ahead: the bytes of the same page built at its request', async () => {
		await host.stop();
		host.dispose();
		host = new HttpHost({ registry: server.registry, log: server.log, pageSize: 2 });
		({ url, token } = await host.start());
		const list = (id: number, cursor?: string) => post(url, token, message(id, 'resources/list', cursor === undefined ? {} : { cursor }), standardHeaders('resources/list'));
		const cursorOf = (body: string) => (JSON.parse(body) as { result: { nextCursor: string } }).result.nextCursor;
		const second = await list(2, cursorOf((await list(1)).body));
		for (let turn = 0; turn < 10; turn++) {
			await new Promise(resolve => setImmediate(resolve)); // the third page is prepared meanwhile
		}
		const prepared = await list(3, cursorOf(second.body));
		const built = await list(3, cursorOf(second.body)); // taken once: this one is built at its request
		assert.equal(prepared.status, 200);
		assert.equal(prepared.body, built.body);
		assert.equal((JSON.parse(prepared.body) as { result: { resources: unknown[] } }).result.resources.length, 2);
	});

	it('refuses with 400 and -32020 a read whose envelope names another revision than its header', async () => {
		const readme = fileUri(fx.file('README.md'));
		// A read served first, so the mismatch is not the first request the host sees.
		assert.equal((await post(url, token, message(2, 'resources/read', { uri: readme }), standardHeaders('resources/read', readme))).status, 200);
		const older = { ...envelope('raw'), 'io.modelcontextprotocol/protocolVersion': '2025-11-25' };
		const reply = await post(url, token, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: readme, _meta: older } }, standardHeaders('resources/read', readme));
		assert.equal(reply.status, 400);
		const body = JSON.parse(reply.body) as { id: unknown; error: { code: number; message: string }; result?: unknown };
		assert.equal(body.error.code, -32020);
		assert.match(body.error.message, /2025-11-25/);
		assert.equal(body.result, undefined, 'the file was not served');
	});

	it('answers a refused read with the in-band -32602 and its URI, and an unknown revision with 400', async () => {
		const unknown = fileUri(fx.file('nope.txt'));
		const refused = await post(url, token, message('r', 'resources/read', { uri: unknown }), standardHeaders('resources/read', unknown));
		assert.equal(refused.status, 200);
		const error = JSON.parse(refused.body) as { id: unknown; error: { code: number; data: unknown } };
		assert.equal(error.id, 'r');
		assert.equal(error.error.code, -32602);
		assert.deepEqual(error.error.data, { uri: unknown });
		const future = { ...envelope('raw'), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
		const readme = fileUri(fx.file('README.md'));
		const unsupported = await post(url, token, { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: readme, _meta: future } },
			{ ...standardHeaders('resources/read', readme), 'mcp-protocol-version': '2099-01-01' });
		assert.equal(unsupported.status, 400);
	});
});
