import * as assert from 'node:assert/strict';
import { ProviderRegistry } from '../../../../src/core/registry';
import { ResourceContent } from '../../../../src/core/resource';
import { fileUri } from '../../../../src/core/uriGuard';
import { HttpHost } from '../../../../src/mcp/http/httpHost';
import { SchemeProvider } from '../../../fakes/schemeProvider';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { ConnectedClient, connectHttp, createTestServer, errorOf, fastTracker, initializeOnly, TestServer, untilListening } from '../../../helpers/harness';

/** Reads of `gated:` URIs wait until `open()`: a request held in flight for as long as a test needs. */
class GatedProvider extends SchemeProvider {
	private opened!: () => void;
	private readonly gate = new Promise<void>(resolve => (this.opened = resolve));
	private entered!: () => void;
	/** Resolves once a read is waiting at the gate. */
	readonly waiting = new Promise<void>(resolve => (this.entered = resolve));

	constructor() {
		super('gated', 'gated test entries', 'answered');
	}
	open(): void {
		this.opened();
	}
	override async read(uri: string): Promise<ResourceContent[]> {
		this.entered();
		await this.gate;
		return super.read(uri);
	}
}

/** A raw POST in an existing session. */
function post(url: string, token: string, sessionId: string, message: unknown): Promise<Response> {
	return fetch(url, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
			'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-06-18',
		},
		body: JSON.stringify(message),
	});
}

describe('HTTP sessions: a connected client is never evicted for a newcomer', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let server: TestServer;
	let host: HttpHost | undefined;
	let probes = 0;
	const poke = () => server.watcher.fire({ kind: 'created', path: fx.write(`probe-${probes++}.txt`, 'x') });

	beforeEach(() => {
		fx = createFixture();
		server = createTestServer([fx.root]);
	});
	afterEach(async () => {
		await host?.stop();
		host?.dispose();
		host = undefined;
		server.dispose();
		fx.dispose();
	});

	it('keeps a client with an open notification stream through 80 new sessions', async () => {
		host = new HttpHost({ registry: server.registry, log: server.log });
		const { url, token } = await host.start();
		const listener = await connectHttp(url, token);
		try {
			await untilListening(listener, poke);
			for (let i = 0; i < 80; i++) {
				assert.equal((await initializeOnly(url, token)).status, 200, `newcomer ${i}`);
			}
			assert.equal(host.sessionCount, 64, 'one abandoned session made room for each newcomer');
			// Still the same session: it answers, and its stream still carries notifications.
			const read = await listener.client.readResource({ uri: fileUri(fx.file('README.md')) });
			assert.equal((read.contents[0] as { text: string }).text, '# Fixture\n');
			await untilListening(listener, poke);
		} finally {
			await listener.close();
		}
	});

	it('refuses a newcomer with 503 and a clear JSON-RPC error when every session is in use, and admits it once one closes', async () => {
		host = new HttpHost({ registry: server.registry, log: server.log, maxSessions: 3 });
		const { url, token } = await host.start();
		const connected: ConnectedClient[] = [];
		try {
			for (let i = 0; i < 3; i++) {
				const conn = await connectHttp(url, token);
				connected.push(conn);
				await untilListening(conn, poke);
			}
			const refused = await initializeOnly(url, token);
			assert.equal(refused.status, 503);
			assert.equal(refused.retryAfter, '30');
			const body = JSON.parse(refused.body) as { jsonrpc: string; error: { code: number; message: string } };
			assert.equal(body.jsonrpc, '2.0');
			assert.equal(body.error.code, -32000);
			assert.match(body.error.message, /^Too many sessions: all 3 are in use by connected clients; close one/);
			const sdk = await errorOf(connectHttp(url, token));
			assert.match(sdk.message, /503|Too many sessions/);
			assert.equal(host.sessionCount, 3);
			for (const conn of connected) {
				await untilListening(conn, poke); // none of them was dropped
			}
			await connected.pop()!.close();
			const admitted = await connectHttp(url, token);
			connected.push(admitted);
			assert.ok((await admitted.client.listResources()).resources.length > 0);
			assert.deepEqual(server.log.errors, []);
		} finally {
			await Promise.all(connected.map(c => c.close()));
		}
	});

	it('keeps a session with a request in flight (and no stream) while newcomers come and go', async () => {
		const gated = new GatedProvider();
		const registry = new ProviderRegistry([gated], fastTracker);
		host = new HttpHost({ registry, log: server.log, maxSessions: 2 });
		const { url, token } = await host.start();
		try {
			const init = await fetch(url, {
				method: 'POST',
				headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
				body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'busy', version: '1' } } }),
			});
			await init.text();
			const sessionId = init.headers.get('mcp-session-id')!;
			assert.equal((await post(url, token, sessionId, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
			const pending = post(url, token, sessionId, { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'gated:slow' } });
			await gated.waiting;
			for (let i = 0; i < 10; i++) {
				assert.equal((await initializeOnly(url, token)).status, 200, `newcomer ${i}`);
			}
			assert.equal(host.sessionCount, 2);
			gated.open();
			const answer = await pending;
			assert.equal(answer.status, 200);
			assert.match(await answer.text(), /"text":"answered"/);
			const after = await post(url, token, sessionId, { jsonrpc: '2.0', id: 3, method: 'ping' });
			assert.equal(after.status, 200, 'the busy session was kept');
			await after.text();
		} finally {
			gated.open();
			await host.stop();
			registry.dispose();
		}
	});
});
