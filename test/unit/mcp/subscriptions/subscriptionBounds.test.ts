import * as assert from 'node:assert/strict';
import { fileUri } from '../../../../src/core/uriGuard';
import { HttpHost } from '../../../../src/mcp/http/httpHost';
import {
	MAX_SUBSCRIPTION_BYTES_PER_SESSION, SessionSubscriptions, SubscriptionLimit,
} from '../../../../src/mcp/subscriptions/sessionSubscriptions';
import { MAX_URI_BYTES } from '../../../../src/mcp/server/uriLimit';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { ConnectedClient, connectHttp, createTestServer, errorOf, TestServer } from '../../../helpers/harness';

describe('subscriptions: bounded in bytes as well as count', () => {
	it('counts the bytes of the URIs it holds, and refuses past either cap', () => {
		const subs = new SessionSubscriptions(3, 100);
		subs.add('x:' + 'a'.repeat(38)); // 40 bytes
		subs.add('x:' + 'b'.repeat(38));
		subs.add('x:' + 'b'.repeat(38)); // again: nothing more held
		assert.equal(subs.bytes, 80);
		assert.throws(() => subs.add('x:' + 'c'.repeat(38)), SubscriptionLimit, 'over 100 bytes');
		assert.equal(subs.bytes, 80, 'a refused subscription holds nothing');
		subs.add('x:é'); // 4 bytes in UTF-8
		assert.equal(subs.bytes, 84);
		assert.throws(() => subs.add('x:d'), /At most 3 subscriptions per session/);
		subs.delete('x:' + 'a'.repeat(38));
		subs.delete('x:never-added');
		assert.equal(subs.bytes, 44);
		subs.clear();
		assert.equal(subs.bytes, 0);
	});
});

describe('subscriptions and URIs over real loopback HTTP', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let server: TestServer;
	let host: HttpHost;
	let conn: ConnectedClient;

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		host = new HttpHost({ registry: server.registry, log: server.log });
		const { url, token } = await host.start();
		conn = await connectHttp(url, token);
	});
	afterEach(async () => {
		await conn.close();
		await host.stop();
		host.dispose();
		server.dispose();
		fx.dispose();
	});

	it('refuses a URI over 8 KB at once with a clear -32602 that does not echo it, for subscribe and read', async () => {
		const long = 'x-unknown:' + 'a'.repeat(2 * 1024 * 1024);
		for (const call of [() => conn.client.subscribeResource({ uri: long }), () => conn.client.readResource({ uri: long })]) {
			const err = await errorOf(call());
			assert.equal(err.code, -32602);
			assert.match(err.message, /URI is 2.0 MB, over the 8 KB limit for a resource URI/);
			assert.ok(err.message.length < 200 && err.data === undefined, 'the URI is not sent back');
		}
		// Exactly at the limit is still a URI like any other.
		await conn.client.subscribeResource({ uri: 'x-unknown:' + 'a'.repeat(MAX_URI_BYTES - 'x-unknown:'.length) });
		const readme = await conn.client.readResource({ uri: fileUri(fx.file('README.md')) });
		assert.equal((readme.contents[0] as { text: string }).text, '# Fixture\n', 'the session still serves');
		assert.deepEqual(server.log.errors, []);
	});

	it('takes large subscriptions until the byte cap, refuses the next one clearly, and frees room on unsubscribe', async () => {
		const uriOf = (i: number) => `x-unknown:${String(i).padStart(6, '0')}:` + 'u'.repeat(8000 - 17);
		assert.equal(Buffer.byteLength(uriOf(0)), 8000);
		const fits = Math.floor(MAX_SUBSCRIPTION_BYTES_PER_SESSION / 8000);
		let accepted = 0;
		let refusal: { code: number; message: string } | undefined;
		for (let i = 0; i < 120 + fits && !refusal; i++) {
			try {
				await conn.client.subscribeResource({ uri: uriOf(i) });
				accepted++;
			} catch (err) {
				refusal = err as { code: number; message: string };
			}
		}
		assert.equal(accepted, fits, `${accepted} subscriptions of 8,000 bytes held under a ${MAX_SUBSCRIPTION_BYTES_PER_SESSION}-byte cap`);
		assert.equal(refusal?.code, -32600);
		assert.match(refusal?.message ?? '', /At most 1 MB of subscribed URIs per session; unsubscribe from some first/);
		// Further refusals hold nothing either; room comes back with an unsubscribe.
		assert.equal((await errorOf(conn.client.subscribeResource({ uri: uriOf(fits + 1) }))).code, -32600);
		await conn.client.unsubscribeResource({ uri: uriOf(0) });
		await conn.client.subscribeResource({ uri: uriOf(fits + 1) });
		assert.equal((await errorOf(conn.client.subscribeResource({ uri: uriOf(fits + 2) }))).code, -32600);
		assert.deepEqual(server.log.errors, []);
	});
});
