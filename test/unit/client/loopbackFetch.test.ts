import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client';
import { fileUri } from '../../../src/core/uriGuard';
import { HttpHost } from '../../../src/mcp/http/httpHost';
import { loopbackFetch } from '../../../src/client/loopbackFetch';
import { describeFailure } from '../../../src/client/clientErrors';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, TestServer } from '../../helpers/harness';

const MODERN = '2026-07-28';

/** Wraps `fetchImpl` to count the calls that reach it. */
function counted(fetchImpl: FetchLike): { fetch: FetchLike; calls: () => number } {
	let calls = 0;
	return {
		fetch: (url, init) => {
			calls++;
			return fetchImpl(url, init);
		},
		calls: () => calls,
	};
}

describe('loopbackFetch: the SDK client over node:http to a loopback server', () => {
	let fx: Fixture;
	let server: TestServer;
	let host: HttpHost;
	let url: string;
	let token: string;
	const clients: Client[] = [];

	async function connect(mode: { pin: string } | 'legacy', fetchImpl: FetchLike): Promise<Client> {
		const client = new Client({ name: 'loopback-test', version: '1.0.0' }, { versionNegotiation: { mode } });
		clients.push(client);
		await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } }, fetch: fetchImpl }));
		return client;
	}

	/** Resolves with the first `updated` notification for `uri` the client hears. */
	function updateOf(client: Client, uri: string): Promise<void> {
		return new Promise(resolve => {
			client.setNotificationHandler('notifications/resources/updated', n => {
				if (n.params.uri === uri) {
					resolve();
				}
			});
		});
	}

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		host = new HttpHost({ registry: server.registry, log: server.log, pageSize: 4 });
		({ url, token } = await host.start());
	});
	afterEach(async () => {
		await Promise.all(clients.splice(0).map(c => c.close().catch(() => undefined)));
		await host.stop();
		host.dispose();
		server.dispose();
		fx.dispose();
	});

	it('lists, reads and hears listen updates in the 2026-07-28 era, every request through node:http', async () => {
		const fetchImpl = counted(loopbackFetch());
		const global = counted(globalThis.fetch);
		const saved = globalThis.fetch;
		globalThis.fetch = global.fetch as typeof fetch;
		try {
			const client = await connect({ pin: MODERN }, fetchImpl.fetch);
			assert.equal(client.getProtocolEra(), 'modern');
			const page = await client.request({ method: 'resources/list', params: {} });
			assert.equal(page.resources.length, 4);
			const readme = fileUri(fx.file('README.md'));
			const read = await client.readResource({ uri: readme }, { cacheMode: 'bypass' });
			assert.deepEqual(read.contents.map(c => 'text' in c ? c.text : ''), ['# Fixture\n']);
			const index = fileUri(fx.file('src/index.ts'));
			const heard = updateOf(client, index);
			const subscription = await client.listen({ resourceSubscriptions: [index] });
			assert.deepEqual(subscription.honoredFilter.resourceSubscriptions, [index]);
			server.watcher.fire({ kind: 'changed', path: fx.write('src/index.ts', 'export const answer = 43;\n') });
			await heard;
			await subscription.close();
			assert.ok(fetchImpl.calls() >= 4);
			assert.equal(global.calls(), 0, 'no request went to the global fetch');
		} finally {
			globalThis.fetch = saved;
		}
	});

	it('keeps a 2025 session: initialize, subscribe, and updates on its GET stream', async () => {
		const client = await connect('legacy', loopbackFetch());
		assert.equal(client.getServerVersion()?.name, 'mcp-workspace-resources');
		assert.equal(host.sessionCount, 1);
		const index = fileUri(fx.file('src/index.ts'));
		const heard = updateOf(client, index);
		await client.subscribeResource({ uri: index });
		server.watcher.fire({ kind: 'changed', path: fx.write('src/index.ts', 'export const answer = 44;\n') });
		await heard;
		const read = await client.readResource({ uri: index });
		assert.deepEqual(read.contents.map(c => 'text' in c ? c.text : ''), ['export const answer = 44;\n']);
	});

	it('answers HTTP errors as fetch does: the 401 of a wrong token reaches the SDK', async () => {
		const client = new Client({ name: 'loopback-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
		clients.push(client);
		const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer wrong' } }, fetch: loopbackFetch() });
		const err = await client.connect(transport).then(() => undefined, (e: unknown) => e as Error);
		assert.ok(err, 'connecting with a wrong token fails');
		assert.match(describeFailure(err, ''), /unauthorized/);
	});

	it('fails as fetch does when nothing listens: "fetch failed", caused by ECONNREFUSED', async () => {
		const closed = http.createServer();
		await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise<void>(resolve => closed.close(() => resolve()));
		const err = await loopbackFetch()(`http://127.0.0.1:${port}/mcp`, { method: 'POST', body: '{}' }).then(() => undefined, (e: unknown) => e as TypeError);
		assert.ok(err instanceof TypeError);
		assert.equal(err.message, 'fetch failed');
		assert.equal((err.cause as { code?: string }).code, 'ECONNREFUSED');
		assert.equal(describeFailure(err, ''), 'connection refused (is the server running?)');
	});

	it('rejects with the signal\'s reason when aborted while the server has not answered', async () => {
		const silent = http.createServer(() => undefined);
		await new Promise<void>(resolve => silent.listen(0, '127.0.0.1', resolve));
		try {
			const controller = new AbortController();
			const pending = loopbackFetch()(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`, { method: 'POST', body: '{}', signal: controller.signal });
			const reason = new Error('stop waiting');
			controller.abort(reason);
			await assert.rejects(pending, err => err === reason);
		} finally {
			silent.closeAllConnections();
			await new Promise<void>(resolve => silent.close(() => resolve()));
		}
	});

	it('streams an event stream as it arrives, and cancelling the body ends the connection', async () => {
		let closedByClient!: () => void;
		const connectionClosed = new Promise<void>(resolve => { closedByClient = resolve; });
		const events = http.createServer((_req, res) => {
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			res.write('data: one\n\n');
			res.on('close', () => closedByClient());
		});
		await new Promise<void>(resolve => events.listen(0, '127.0.0.1', resolve));
		try {
			const response = await loopbackFetch()(`http://127.0.0.1:${(events.address() as AddressInfo).port}/mcp`);
			assert.equal(response.headers.get('content-type'), 'text/event-stream');
			const reader = response.body!.getReader();
			const first = await reader.read();
			assert.equal(new TextDecoder().decode(first.value), 'data: one\n\n', 'the first event arrives while the response is still open');
			await reader.cancel();
			await connectionClosed;
		} finally {
			events.closeAllConnections();
			await new Promise<void>(resolve => events.close(() => resolve()));
		}
	});

	it('hands what is not plain http to a loopback address to the global fetch', async () => {
		const seen: string[] = [];
		const saved = globalThis.fetch;
		globalThis.fetch = (async (input: string | URL) => {
			seen.push(String(input));
			return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
		}) as typeof fetch;
		try {
			const fetchImpl = loopbackFetch();
			await fetchImpl('https://127.0.0.1:1/mcp');
			await fetchImpl('http://example.invalid/mcp');
			await fetchImpl(new URL('http://10.0.0.1/mcp'));
			assert.deepEqual(seen, ['https://127.0.0.1:1/mcp', 'http://example.invalid/mcp', 'http://10.0.0.1/mcp']);
		} finally {
			globalThis.fetch = saved;
		}
	});
});
