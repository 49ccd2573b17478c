import * as assert from 'node:assert/strict';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type * as http from 'node:http';
import { fileUri } from '../../../src/core/uriGuard';
import { HttpHost } from '../../../src/mcp/httpHost';
import { createWorkspaceServer } from '../../../src/mcp/session';
import { SHARED_REVISION, SharedModernServer } from '../../../src/mcp/sharedModernServer';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, TestServer } from '../../helpers/harness';

function envelope(clientName: string): Record<string, unknown> {
	return {
		'io.modelcontextprotocol/protocolVersion': SHARED_REVISION,
		'io.modelcontextprotocol/clientCapabilities': {},
		'io.modelcontextprotocol/clientInfo': { name: clientName, version: '1' },
	};
}

function message(id: number | string, method: string, params: Record<string, unknown>, clientName = 'raw'): Record<string, unknown> {
	return { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(clientName) } };
}

/** The standard 2026-07-28 headers for a request, as a client sends them. */
function standardHeaders(method: string, name?: string): Record<string, string> {
	return { 'mcp-protocol-version': SHARED_REVISION, 'mcp-method': method, ...name !== undefined && { 'mcp-name': name } };
}

/** What `accepts` reads of Node's request: its headers (lower-cased, as Node gives them). */
function nodeRequest(headers: Record<string, string>): http.IncomingMessage {
	return { headers } as unknown as http.IncomingMessage;
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

describe('the shared 2026-07-28 instance for stateless reads', () => {
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

	it('answers read, list and templates exactly as the SDK entry does with a fresh instance per request', async () => {
		const options = { registry: server.registry, log: server.log, pageSize: 4 };
		const shared = new SharedModernServer(options, err => assert.fail(err));
		const entry = createMcpHandler(() => createWorkspaceServer(options, 'modern'), { legacy: 'reject' });
		try {
			const readme = fileUri(fx.file('README.md'));
			const cases: [string, Record<string, unknown>, string | undefined][] = [
				['resources/read', { uri: readme }, readme],
				['resources/list', {}, undefined],
				['resources/templates/list', {}, undefined],
			];
			for (const [method, params, name] of cases) {
				const body = message(7, method, params);
				const headers = { 'content-type': 'application/json', ...standardHeaders(method, name) };
				const request = shared.accepts(nodeRequest(headers), body);
				assert.ok(request, `${method} is for the shared instance`);
				const fromShared = await shared.serve(request);
				const fromEntry = await entry.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers }), { parsedBody: body });
				assert.equal(fromEntry.status, 200);
				assert.deepEqual(fromShared, await fromEntry.json(), method);
			}
		} finally {
			await shared.close();
			await entry.close();
		}
	});

	it('leaves to the SDK entry what it must refuse, decode or serve per request', () => {
		const shared = new SharedModernServer({ registry: server.registry, log: server.log }, err => assert.fail(err));
		try {
			const readme = fileUri(fx.file('README.md'));
			const read = message(1, 'resources/read', { uri: readme });
			assert.ok(shared.accepts(nodeRequest(standardHeaders('resources/read', readme)), read));
			const refused: [string, Record<string, string>, unknown][] = [
				['no Mcp-Name', standardHeaders('resources/read'), read],
				['Mcp-Name naming another URI', standardHeaders('resources/read', fileUri(fx.file('src/index.ts'))), read],
				['Base64 Mcp-Name', standardHeaders('resources/read', `=?base64?${Buffer.from(readme).toString('base64')}?=`), read],
				['no MCP-Protocol-Version', { 'mcp-method': 'resources/read', 'mcp-name': readme }, read],
				['another revision in the header', { ...standardHeaders('resources/read', readme), 'mcp-protocol-version': '2025-11-25' }, read],
				['Mcp-Method naming another method', standardHeaders('resources/list', readme), read],
				['no envelope', standardHeaders('resources/read', readme), { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: readme } }],
				// The instance itself would serve these two: only the SDK's classifier refuses them.
				['an envelope naming another revision than the header', standardHeaders('resources/read', readme), { ...read, params: { uri: readme, _meta: { ...envelope('raw'), 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } }],
				['a request that also carries a result', standardHeaders('resources/read', readme), { ...read, result: {} }],
				['not JSON-RPC 2.0', standardHeaders('resources/read', readme), { ...read, jsonrpc: '1.0' }],
				['a null id', standardHeaders('resources/read', readme), { ...read, id: null }],
				['a notification', standardHeaders('resources/list'), { jsonrpc: '2.0', method: 'resources/list', params: { _meta: envelope('raw') } }],
				['a batch', standardHeaders('resources/list'), [message(1, 'resources/list', {})]],
				['server/discover', standardHeaders('server/discover'), message(1, 'server/discover', {})],
				['subscriptions/listen', standardHeaders('subscriptions/listen'), message(1, 'subscriptions/listen', { notifications: {} })],
				['completion/complete', standardHeaders('completion/complete'), message(1, 'completion/complete', {})],
			];
			for (const [why, headers, body] of refused) {
				assert.equal(shared.accepts(nodeRequest(headers), body), undefined, why);
			}
		} finally {
			void shared.close();
		}
	});

	it('gives an error answer back to the caller (the SDK entry serves it again) and keeps serving', async () => {
		const shared = new SharedModernServer({ registry: server.registry, log: server.log }, err => assert.fail(err));
		try {
			const unknown = fileUri(fx.file('nope.txt'));
			const missing = shared.accepts(nodeRequest(standardHeaders('resources/read', unknown)), message(1, 'resources/read', { uri: unknown }));
			assert.ok(missing);
			assert.equal(await shared.serve(missing), undefined);
			const readme = fileUri(fx.file('README.md'));
			const read = shared.accepts(nodeRequest(standardHeaders('resources/read', readme)), message(2, 'resources/read', { uri: readme }));
			assert.ok(read);
			const reply = await shared.serve(read) as unknown as { id: unknown; result: { contents: { text?: string }[] } };
			assert.equal(reply.id, 2);
			assert.equal(reply.result.contents[0].text, '# Fixture\n');
		} finally {
			await shared.close();
		}
	});

	it('leaves requests in flight, and every later one, to the SDK entry once closed', async () => {
		const shared = new SharedModernServer({ registry: server.registry, log: server.log }, err => assert.fail(err));
		const readme = fileUri(fx.file('README.md'));
		const headers = standardHeaders('resources/read', readme);
		const read = shared.accepts(nodeRequest(headers), message(1, 'resources/read', { uri: readme }));
		assert.ok(read);
		const inFlight = shared.serve(read); // the file is read asynchronously: still waiting when closed
		await shared.close();
		assert.equal(await inFlight, undefined);
		assert.equal(shared.accepts(nodeRequest(headers), message(2, 'resources/read', { uri: readme })), undefined);
	});

	describe('behind the HTTP host', () => {
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
			// The first traffic the host sees is this burst, so it also opens the shared instance.
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

		it('sends a page prepared ahead with its JSON spliced in: the bytes of the same page built at its request', async () => {
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
			// A read served first: the shared instance is open (and pinned) when the mismatch comes.
			assert.equal((await post(url, token, message(2, 'resources/read', { uri: readme }), standardHeaders('resources/read', readme))).status, 200);
			const older = { ...envelope('raw'), 'io.modelcontextprotocol/protocolVersion': '2025-11-25' };
			const reply = await post(url, token, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: readme, _meta: older } }, standardHeaders('resources/read', readme));
			assert.equal(reply.status, 400);
			const body = JSON.parse(reply.body) as { id: unknown; error: { code: number; message: string }; result?: unknown };
			assert.equal(body.error.code, -32020);
			assert.match(body.error.message, /2025-11-25/);
			assert.equal(body.result, undefined, 'the file was not served');
		});

		it('answers a refused read with the in-band -32602 and its URI, as the SDK entry does, and an unknown revision with 400', async () => {
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
});
