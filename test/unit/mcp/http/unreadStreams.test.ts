import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { ProviderRegistry } from '../../../../src/core/registry';
import { HttpHost } from '../../../../src/mcp/http/httpHost';
import { MAX_UNREAD_STREAM_BYTES } from '../../../../src/mcp/http/webExchange';
import { SchemeProvider } from '../../../fakes/schemeProvider';
import { fastTracker, RecordingLogger } from '../../../helpers/harness';

/** `noisy:` resources that change whenever the test says so. */
class NoisyProvider extends SchemeProvider {
	constructor() {
		super('noisy', 'resources that change on demand', 'noise');
	}
}

const ENVELOPE = {
	'io.modelcontextprotocol/protocolVersion': '2026-07-28',
	'io.modelcontextprotocol/clientCapabilities': {},
	'io.modelcontextprotocol/clientInfo': { name: 'reads-nothing', version: '1' },
};

// 200 URIs of 4 KB: each round of changes sends about 0.8 MB of notifications.
const URIS = Array.from({ length: 200 }, (_, i) => `noisy:/${i}/${'x'.repeat(4000)}`);
/** Rounds at most: 64 MB, far past the limit plus whatever the kernel's socket buffers hold. */
const MAX_ROUNDS = 80;

/**
 * A client that opens its notification stream and never reads it: whatever is sent to it piles
 * up in this process unless the stream is cut.
 */
describe('a notification stream its client does not read', function () {
	this.timeout(60_000);
	let provider: NoisyProvider;
	let registry: ProviderRegistry;
	let log: RecordingLogger;
	let host: HttpHost;
	let url: string;
	let token: string;
	const opened: http.ClientRequest[] = [];

	beforeEach(async () => {
		provider = new NoisyProvider();
		registry = new ProviderRegistry([provider], fastTracker);
		log = new RecordingLogger();
		host = new HttpHost({ registry, log });
		({ url, token } = await host.start());
	});
	afterEach(async () => {
		opened.splice(0).forEach(req => req.destroy());
		await host.stop();
		host.dispose();
		registry.dispose();
	});

	/** A POST whose answer stream is left unread (the response is never consumed). */
	function openUnread(headers: Record<string, string>, body?: unknown, method = 'POST'): Promise<http.IncomingMessage> {
		return new Promise((resolve, reject) => {
			const req = http.request(url, {
				method, agent: false,
				headers: { Authorization: `Bearer ${token}`, Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', ...headers },
			}, resolve);
			req.on('error', () => undefined); // the cut shows up here when the request is destroyed
			req.once('error', reject);
			opened.push(req);
			req.end(body === undefined ? undefined : JSON.stringify(body));
		});
	}

	/** One round of changes to every URI, once the server has sent its notifications. */
	async function changeAll(): Promise<void> {
		const flushed = new Promise<void>(resolve => {
			const sub = registry.onDidChange(() => {
				sub.dispose();
				resolve();
			});
		});
		provider.changed(URIS);
		await flushed;
		await new Promise(resolve => setImmediate(resolve)); // the streams' writes, queued behind the flush
	}

	it('cuts a subscriptions/listen stream left unread past the limit, and a new one is admitted', async () => {
		const listen = (id: number) => openUnread({ 'Mcp-Protocol-Version': '2026-07-28', 'Mcp-Method': 'subscriptions/listen' },
			{ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta: ENVELOPE, notifications: { resourceSubscriptions: URIS } } });
		const res = await listen(1);
		assert.equal(res.statusCode, 200);
		let rounds = 0;
		for (; rounds < MAX_ROUNDS && host.clientCount > 0; rounds++) {
			await changeAll();
		}
		assert.equal(host.clientCount, 0, `the stream was still open after ${rounds} rounds (${rounds * 0.8} MB sent to a client that reads nothing)`);
		assert.ok(rounds * 0.8 * 1024 * 1024 > MAX_UNREAD_STREAM_BYTES, 'cut only past the limit');
		assert.equal(log.warnings.length, 1);
		assert.match(log.warnings[0], /^closed a subscriptions\/listen stream: its client left \d+\.\d MB unread \(over the 4 MB limit\)/);
		assert.equal((await listen(2)).statusCode, 200, 'the client may listen again');
		assert.equal(host.clientCount, 1);
	});

	it('cuts a 2025 session\'s GET stream left unread past the limit; the session stays and may open it again', async () => {
		const post = async (sessionId: string | undefined, message: unknown) => {
			const res = await fetch(url, {
				method: 'POST',
				headers: {
					Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
					'Mcp-Protocol-Version': '2025-11-25', ...sessionId && { 'Mcp-Session-Id': sessionId },
				},
				body: JSON.stringify(message),
			});
			const text = await res.text();
			return { sessionId: res.headers.get('mcp-session-id') ?? undefined, text };
		};
		const { sessionId } = await post(undefined, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'reads-nothing', version: '1' } } });
		assert.ok(sessionId);
		await post(sessionId, { jsonrpc: '2.0', method: 'notifications/initialized' });
		for (const [i, uri] of URIS.entries()) {
			assert.match((await post(sessionId, { jsonrpc: '2.0', id: i + 1, method: 'resources/subscribe', params: { uri } })).text, /"result":\{\}/);
		}
		const stream = () => openUnread({ 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-11-25', Accept: 'text/event-stream' }, undefined, 'GET');
		assert.equal((await stream()).statusCode, 200);
		assert.equal((await stream()).statusCode, 409, 'one GET stream per session while it is open');
		let rounds = 0;
		for (; rounds < MAX_ROUNDS && log.warnings.length === 0; rounds++) {
			await changeAll();
		}
		assert.equal(log.warnings.length, 1, `the stream was still open after ${rounds} rounds (${rounds * 0.8} MB sent to a client that reads nothing)`);
		assert.match(log.warnings[0], /^closed a 2025 session's GET stream: its client left \d+\.\d MB unread \(over the 4 MB limit\)/);
		assert.equal(host.sessionCount, 1, 'the session stays');
		assert.equal((await stream()).statusCode, 200, 'its client may open the stream again');
		assert.deepEqual(log.errors, []);
	});
});
