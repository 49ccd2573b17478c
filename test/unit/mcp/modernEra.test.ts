import * as assert from 'node:assert/strict';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport, type McpSubscription } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fileUri } from '../../../src/core/uriGuard';
import { HttpHost } from '../../../src/mcp/http/httpHost';
import { MAX_SUBSCRIPTIONS_PER_SESSION } from '../../../src/mcp/subscriptions/sessionSubscriptions';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, errorOf, TestServer } from '../../helpers/harness';

const MODERN = '2026-07-28';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };

/** A 2026-07-28 client from SDK v2, pinned (it never falls back to initialize). */
async function modernClient(url: string, token: string): Promise<V2Client> {
	const client = new V2Client({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
	await client.connect(new V2HttpTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
	return client;
}

async function legacyClient(url: string, token: string): Promise<V1Client> {
	const client = new V1Client({ name: 'legacy-test', version: '1.0.0' });
	await client.connect(new V1HttpTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
	return client;
}

/** One raw 2026-07-28 POST (headers as the revision asks, overridable). */
async function rawModern(url: string, token: string, method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
			'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...headers,
		},
		body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta: ENVELOPE, ...params } }),
	});
	return { status: res.status, body: await res.text() };
}

describe('both protocol eras on one HTTP endpoint', () => {
	let fx: Fixture;
	let server: TestServer;
	let host: HttpHost;
	let url: string;
	let token: string;

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		host = new HttpHost({ registry: server.registry, log: server.log, pageSize: 4 });
		({ url, token } = await host.start());
	});
	afterEach(async () => {
		await host.stop();
		host.dispose();
		server.dispose();
		fx.dispose();
	});

	it('serves a pinned 2026-07-28 client and a 2025 client side by side, each in its own era', async () => {
		const modern = await modernClient(url, token);
		const legacy = await legacyClient(url, token);
		try {
			assert.equal(modern.getProtocolEra(), 'modern');
			assert.equal(legacy.getServerVersion()?.name, 'mcp-workspace-resources');
			// One page per request in both eras, the same cursors.
			const modernPage = await modern.request({ method: 'resources/list', params: {} });
			const legacyPage = await legacy.listResources();
			assert.deepEqual(modernPage.resources.map(r => r.uri), legacyPage.resources.map(r => r.uri));
			assert.equal(modernPage.resources.length, 4);
			assert.equal(modernPage.nextCursor, legacyPage.nextCursor);
			const read = await modern.readResource({ uri: fileUri(fx.file('README.md')) });
			assert.deepEqual(read.contents.map(c => 'text' in c ? c.text : ''), ['# Fixture\n']);
			const templates = await modern.listResourceTemplates();
			assert.ok(templates.resourceTemplates.some(t => t.uriTemplate === 'file:///{+path}'));
			const completion = await modern.complete({ ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: fx.file('src/ind').slice(1) } });
			assert.deepEqual(completion.completion.values, [fx.file('src/index.ts').slice(1)]);
			assert.deepEqual((await modern.listTools()).tools.map(t => t.name), ['list_resources', 'read_resource']);
			// The stateless route keeps no session: only the 2025 client holds one.
			assert.equal(host.sessionCount, 1);
		} finally {
			await modern.close();
			await legacy.close();
		}
	});

	it('answers server/discover naming 2026-07-28 and the 2025 revisions, with caching hints on results', async () => {
		const discover = JSON.parse((await rawModern(url, token, 'server/discover', {})).body);
		assert.deepEqual(discover.result.supportedVersions.slice(0, 4), [MODERN, '2025-11-25', '2025-06-18', '2025-03-26']);
		assert.deepEqual(discover.result.capabilities.resources, { subscribe: true, listChanged: true });
		assert.equal(discover.result.cacheScope, 'private');
		assert.ok(discover.result._meta['io.modelcontextprotocol/serverInfo'].icons.length > 0, 'icons ride on discover');

		const readme = fileUri(fx.file('README.md'));
		const read = JSON.parse((await rawModern(url, token, 'resources/read', { uri: readme }, { 'Mcp-Name': readme })).body);
		assert.equal(read.result.ttlMs, 0, 'file contents are live');
		assert.equal(read.result.cacheScope, 'private', 'workspace content is private');
		assert.equal(read.result._meta['io.modelcontextprotocol/serverInfo'].name, 'mcp-workspace-resources');
		assert.equal(read.result._meta['io.modelcontextprotocol/serverInfo'].icons, undefined, 'no icons on every result');
		const list = JSON.parse((await rawModern(url, token, 'resources/list', {})).body);
		assert.deepEqual([list.result.ttlMs, list.result.cacheScope], [0, 'private']);
		const templates = JSON.parse((await rawModern(url, token, 'resources/templates/list', {})).body);
		assert.equal(templates.result.cacheScope, 'private');
		assert.ok(templates.result.ttlMs > 0, 'templates only change with the build');

		// 2025 results carry no 2026 vocabulary.
		const legacy = await legacyClient(url, token);
		try {
			const legacyRead = await legacy.readResource({ uri: readme });
			assert.equal((legacyRead as Record<string, unknown>).ttlMs, undefined);
			assert.equal((legacyRead as Record<string, unknown>).cacheScope, undefined);
		} finally {
			await legacy.close();
		}
	});

	it('refuses unknown, secret and outside resources with -32602 and the URI, in both eras', async () => {
		const modern = await modernClient(url, token);
		const legacy = await legacyClient(url, token);
		try {
			for (const uri of [fileUri(fx.file('.env')), fileUri(fx.file('debug.log')), fileUri(fx.file('nope.txt')), fileUri(`${fx.outside}/passwd`)]) {
				for (const err of [await errorOf(modern.readResource({ uri })), await errorOf(legacy.readResource({ uri }))]) {
					assert.equal(err.code, -32602, uri);
					assert.deepEqual(err.data, { uri });
					assert.ok(!err.message.includes(fx.outside) || uri.includes(fx.outside), 'no host path beyond the URI asked for');
				}
			}
			const malformed = JSON.parse((await rawModern(url, token, 'resources/read', { uri: 42 }, { 'Mcp-Name': '42' })).body);
			assert.equal(malformed.error.code, -32602);
			assert.match(malformed.error.message, /uri/);
			assert.deepEqual(server.log.errors, []);
		} finally {
			await modern.close();
			await legacy.close();
		}
	});

	it('checks the 2026-07-28 headers and keeps HTTP POST-only for that era', async () => {
		const readme = fileUri(fx.file('README.md'));
		const mismatch = await rawModern(url, token, 'resources/read', { uri: readme }, { 'Mcp-Method': 'resources/list', 'Mcp-Name': readme });
		assert.equal(mismatch.status, 400);
		const missingName = await rawModern(url, token, 'resources/read', { uri: readme });
		assert.equal(missingName.status, 400);
		const get = await fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream', 'MCP-Protocol-Version': MODERN } });
		assert.equal(get.status, 405);
	});

	it('checks token, Host and Origin on 2026-07-28 requests before any work', async () => {
		const noToken = await rawModern(url, '', 'resources/list', {}, { Authorization: '' });
		assert.equal(noToken.status, 401);
		const wrongToken = await rawModern(url, 'nope', 'resources/list', {});
		assert.equal(wrongToken.status, 401);
		const origin = await rawModern(url, token, 'resources/list', {}, { Origin: 'http://evil.example' });
		assert.equal(origin.status, 403);
	});

	it('acknowledges and notifies only listen URIs the server would serve', async () => {
		const modern = await modernClient(url, token);
		const served = fileUri(fx.file('src/index.ts'));
		const updates: string[] = [];
		let heard: () => void = () => undefined;
		const servedHeard = new Promise<void>(resolve => { heard = resolve; });
		modern.setNotificationHandler('notifications/resources/updated', n => {
			updates.push(n.params.uri);
			if (n.params.uri === served) {
				heard();
			}
		});
		let subscription: McpSubscription | undefined;
		try {
			const refused = [
				fileUri(fx.file('.env')), fileUri(fx.file('.ENV')), fileUri(fx.file('debug.log')), fileUri(`${fx.outside}/secret.txt`),
				'git://nope/status', 'test://not-ours', `file:///${'x'.repeat(9000)}`,
			];
			subscription = await modern.listen({ resourcesListChanged: true, resourceSubscriptions: [served, ...refused] });
			assert.deepEqual(subscription.honoredFilter.resourceSubscriptions, [served]);
			assert.equal(subscription.honoredFilter.resourcesListChanged, true);
			server.watcher.fire({ kind: 'changed', path: fx.write('.env', 'API_KEY=changed\n') });
			server.watcher.fire({ kind: 'changed', path: fx.write('debug.log', 'changed\n') });
			server.watcher.fire({ kind: 'changed', path: fx.write('src/index.ts', 'export const answer = 43;\n') });
			// Changes are coalesced in order: once the served file's update is here, the
			// refused ones (changed before it) would have been too.
			await servedHeard;
			assert.deepEqual(updates.filter(u => u !== served), [], 'refused URIs are never notified');
		} finally {
			await subscription?.close();
			await modern.close();
		}
	});

	it('refuses a listen stream over the per-stream URI cap with -32602', async () => {
		const uris = Array.from({ length: MAX_SUBSCRIPTIONS_PER_SESSION + 1 }, (_, i) => fileUri(fx.file(`f${i}.txt`)));
		const reply = await rawModern(url, token, 'subscriptions/listen', { notifications: { resourceSubscriptions: uris } });
		assert.equal(reply.status, 400);
		const body = JSON.parse(reply.body);
		assert.equal(body.error.code, -32602);
		assert.match(body.error.message, /resourceSubscriptions/);
		assert.equal(body.id, 1);
	});

	it('bounds the listen streams the endpoint holds: a newcomer over the cap is refused, open ones keep hearing', async () => {
		await host.stop();
		host.dispose();
		host = new HttpHost({ registry: server.registry, log: server.log, maxListenStreams: 2 });
		({ url, token } = await host.start());
		const clients = await Promise.all([0, 1, 2].map(() => modernClient(url, token)));
		try {
			const first = await clients[0].listen({ resourcesListChanged: true });
			await clients[1].listen({ resourcesListChanged: true });
			const refused = await errorOf(clients[2].listen({ resourcesListChanged: true }));
			assert.match(refused.message, /limit/i);
			let heard: () => void = () => undefined;
			const listChanged = new Promise<void>(resolve => { heard = resolve; });
			clients[0].setNotificationHandler('notifications/resources/list_changed', () => heard());
			// Nothing in this test lists, so under load the first index could still be building: a
			// file written before its walk reaches the folder is in the first listing, not a change,
			// and no list_changed would ever come.
			await server.files.ready();
			server.watcher.fire({ kind: 'created', path: fx.write('new-file.txt', 'new\n') });
			await listChanged;
			await first.close();
			// A closed stream frees its place.
			const again = await clients[2].listen({ resourcesListChanged: true });
			assert.equal(again.honoredFilter.resourcesListChanged, true);
		} finally {
			await Promise.all(clients.map(c => c.close()));
		}
	});

	it('counts a 2026-07-28 client as connected while it holds a listen stream, by the name it gave', async () => {
		const modern = await modernClient(url, token);
		const counts: number[] = [];
		host.onDidChangeSessions(n => counts.push(n));
		try {
			await modern.request({ method: 'resources/list', params: {} });
			assert.equal(host.clientCount, 0, 'a stateless request connects nothing');
			const subscription = await modern.listen({ resourcesListChanged: true });
			assert.equal(host.clientCount, 1);
			assert.deepEqual(host.clientNames(), ['modern-test']);
			await subscription.close();
			await new Promise<void>(resolve => {
				const check = host.onDidChangeSessions(n => {
					if (n === 0) {
						check.dispose();
						resolve();
					}
				});
				if (host.clientCount === 0) {
					check.dispose();
					resolve();
				}
			});
			assert.deepEqual(host.clientNames(), []);
			assert.deepEqual(counts, [1, 0]);
		} finally {
			await modern.close();
		}
	});

	it('ends open listen streams with the graceful result when the server stops', async () => {
		const modern = await modernClient(url, token);
		const subscription = await modern.listen({ resourcesListChanged: true });
		await host.stop();
		assert.equal(await subscription.closed, 'graceful');
		await modern.close();
	});
});
