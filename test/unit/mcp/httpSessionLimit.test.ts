import * as assert from 'node:assert/strict';
import { fileUri } from '../../../src/core/uriGuard';
import { HttpHost } from '../../../src/mcp/httpHost';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { ConnectedClient, connectHttp, createTestServer, errorOf, initializeOnly, TestServer, untilListening } from '../../helpers/harness';

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
});
