import * as assert from 'node:assert/strict';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { RangesProvider } from '../../../../src/core/ranges/rangesProvider';
import { ProviderRegistry } from '../../../../src/core/registry';
import { fileUri } from '../../../../src/core/uriGuard';
import { WorkspaceScope } from '../../../../src/core/workspaceScope';
import { HttpHost } from '../../../../src/mcp/http/httpHost';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { StaticFolders } from '../../../../src/node/staticSources';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { connectHttp, createTestServer, fastTracker, TestServer } from '../../../helpers/harness';
import { HeardNotifications } from '../../../helpers/heardNotifications';

/** More than the 1,000 other spellings a provider once kept for every client together. */
const MANY = 1_100;
const B_NAME = 'bbbbbbbbbbbb';

/** Resolves once `holds` (a count the server keeps) is `expected`; the server lets go as a stream's end reaches it. */
async function eventually(holds: () => number, expected: number, what: string): Promise<void> {
	for (const stop = Date.now() + 5000; holds() !== expected && Date.now() < stop;) {
		await new Promise(resolve => setTimeout(resolve, 10));
	}
	assert.equal(holds(), expected, what);
}

/** A pinned 2026-07-28 client from SDK v2 that records `updated` notifications. */
async function modernClient(url: string, token: string): Promise<{ client: V2Client; heard: HeardNotifications }> {
	const client = new V2Client({ name: 'spellings-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
	const heard = new HeardNotifications();
	client.setNotificationHandler('notifications/resources/updated', n => heard.updated(n.params.uri));
	await client.connect(new V2HttpTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
	return { client, heard };
}

describe('spelled subscriptions belong to their subscriber: no client ends another\'s notifications, nothing outlives its subscription', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let server: TestServer;
	let ranges: RangesProvider;
	let registry: ProviderRegistry;
	let host: HttpHost;
	let url: string;
	let token: string;
	let cafe: string;
	let other: string;
	/** Client A's file, spelled otherwise than listed (lowercase escapes), and a range of it. */
	let spelledA: string;
	let rangeA: string;
	/** MANY distinct spellings of client B's file: `b` or `%62` at each of its name's letters. */
	let spellingsB: string[];

	beforeEach(async () => {
		fx = createFixture();
		cafe = fx.write('a/caf\u00e9.txt', 'one\n');
		other = fx.write(`b/${B_NAME}.txt`, 'one\n');
		server = createTestServer([fx.root]);
		const folders = new StaticFolders([fx.root]);
		const reader = new NodeFileSystem();
		ranges = new RangesProvider({ files: server.files, scope: new WorkspaceScope(folders, server.files, reader), reader });
		registry = new ProviderRegistry([ranges, server.files], fastTracker);
		host = new HttpHost({ registry, log: server.log });
		({ url, token } = await host.start());
		spelledA = fileUri(cafe).replace('%C3%A9', '%c3%a9');
		assert.notEqual(spelledA, fileUri(cafe));
		rangeA = `${fileUri(cafe)}?lines=1`;
		const dir = fileUri(other).slice(0, -`${B_NAME}.txt`.length);
		spellingsB = Array.from({ length: MANY }, (_, i) => dir + Array.from(B_NAME, (ch, bit) => ((i + 1) >> bit) & 1 ? '%62' : ch).join('') + '.txt');
		assert.equal(new Set(spellingsB).size, MANY);
		assert.ok(!spellingsB.includes(fileUri(other)), 'none is the listed URI');
	});
	afterEach(async () => {
		await host.stop();
		host.dispose();
		registry.dispose();
		fx.dispose();
	});

	/** Changes both clients' files on disk and tells the provider, as the watcher would. */
	function changeBoth(): void {
		server.watcher.fire({ kind: 'changed', path: fx.write('a/caf\u00e9.txt', 'two\n') }, { kind: 'changed', path: fx.write(`b/${B_NAME}.txt`, 'two\n') });
	}

	it('2025: A\'s spelled subscription is notified while B holds 1,100 other spellings; B\'s go when it unsubscribes and when its session ends', async () => {
		const a = await connectHttp(url, token);
		const b = await connectHttp(url, token);
		try {
			await a.client.subscribeResource({ uri: spelledA });
			await a.client.subscribeResource({ uri: rangeA });
			for (let i = 0; i < MANY; i += 50) {
				await Promise.all(spellingsB.slice(i, i + 50).map(uri => b.client.subscribeResource({ uri })));
			}
			changeBoth();
			await a.waitForUpdate(spelledA);
			await a.waitForUpdate(rangeA);
			for (const uri of spellingsB) {
				await b.waitForUpdate(uri);
			}
			assert.ok(!a.updates.some(u => spellingsB.includes(u)) && !b.updates.includes(spelledA), 'each hears only its own');
			assert.equal(server.files.heldSpellings, 1 + MANY, 'every subscribed spelling is held, none dropped for another');

			for (const uri of spellingsB.slice(0, 100)) {
				await b.client.unsubscribeResource({ uri });
			}
			assert.equal(server.files.heldSpellings, 1 + MANY - 100, 'an unsubscribed spelling is let go');
			await b.close(); // DELETE: the session ends
			await eventually(() => server.files.heldSpellings, 1, 'a closed session\'s spellings are let go');
			await a.client.unsubscribeResource({ uri: spelledA });
			await a.client.unsubscribeResource({ uri: rangeA });
			assert.deepEqual([server.files.heldSpellings, ranges.heldRanges], [0, 0], 'nothing is held once nobody subscribes');
		} finally {
			await a.close();
			await b.close();
		}
	});

	it('2026-07-28: A\'s spelled listen is notified while B listens to 1,100 other spellings; B\'s go when its stream closes', async () => {
		const a = await modernClient(url, token);
		const b = await modernClient(url, token);
		try {
			const listenA = await a.client.listen({ resourceSubscriptions: [spelledA, rangeA] });
			assert.deepEqual(listenA.honoredFilter.resourceSubscriptions, [spelledA, rangeA]);
			const listenB = await b.client.listen({ resourceSubscriptions: spellingsB });
			assert.equal(listenB.honoredFilter.resourceSubscriptions?.length, MANY);
			changeBoth();
			await a.heard.until(() => a.heard.updates.includes(spelledA) && a.heard.updates.includes(rangeA), 'A\'s spelling and range');
			await b.heard.until(() => spellingsB.every(u => b.heard.updates.includes(u)), 'all of B\'s spellings');
			assert.ok(!a.heard.updates.some(u => spellingsB.includes(u)), 'A hears only its own');
			assert.equal(server.files.heldSpellings, 1 + MANY, 'every listened spelling is held, none dropped for another');

			await listenB.close();
			await eventually(() => server.files.heldSpellings, 1, 'a closed stream\'s spellings are let go');
			await listenA.close();
			await eventually(() => server.files.heldSpellings + ranges.heldRanges, 0, 'nothing is held once no stream is open');
		} finally {
			await a.client.close();
			await b.client.close();
		}
	});

	it('a read holds nothing: 1,100 spellings and ranges B reads leave A\'s subscribed range notified', async () => {
		const a = await connectHttp(url, token);
		const b = await modernClient(url, token);
		try {
			await a.client.subscribeResource({ uri: rangeA });
			for (let i = 0; i < MANY; i += 20) {
				await Promise.all(spellingsB.slice(i, i + 20).flatMap((uri, j) => [
					b.client.readResource({ uri }),
					b.client.readResource({ uri: `${fileUri(other)}?lines=1-${i + j + 1}` }),
				]));
			}
			changeBoth();
			await a.waitForUpdate(rangeA);
			assert.deepEqual([server.files.heldSpellings, ranges.heldRanges], [0, 1], 'only the subscription holds anything');
		} finally {
			await a.close();
			await b.client.close();
		}
	});
});

