import * as assert from 'node:assert/strict';
import { renameSync, rmSync } from 'node:fs';
import { McpSubscription } from '@modelcontextprotocol/client';
import { EraClient } from '../../../helpers/eraClients';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { bothEras, createSearchServer, readSearch, SearchServer, textUri } from '../../../helpers/searchServer';
import { until } from '../../../helpers/until';
import { FakeWatcher } from '../../../fakes/fakeWatcher';
import { FakeDocuments } from '../../../fakes/fakeDocuments';

describe('a subscribed search hears `updated` when its answer changes, and only then', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let server: SearchServer;
	let watcher: FakeWatcher;
	let documents: FakeDocuments;
	let eras: { clients: EraClient[]; close(): Promise<void> };
	let listens: McpSubscription[];
	const uri = textUri('liveToken');

	beforeEach(async () => {
		fx = createFixture();
		fx.write('src/one.ts', 'const liveToken = 1;\n');
		fx.write('src/other.ts', 'nothing here\n');
		watcher = new FakeWatcher();
		documents = new FakeDocuments();
		server = createSearchServer([fx.root], { watcher, documents });
		eras = await bothEras(server.registry);
		listens = [];
		for (const c of eras.clients) {
			if (c.era === 'legacy') {
				await c.client.subscribeResource({ uri });
			} else {
				const listen = await c.client.listen({ resourceSubscriptions: [uri] });
				assert.deepEqual(listen.honoredFilter.resourceSubscriptions, [uri]);
				listens.push(listen);
			}
		}
		assert.equal(server.search.liveCount, 1, 'one live search for both clients');
	});
	afterEach(async () => {
		await Promise.all(listens.map(l => l.close()));
		await eras.close();
		server.dispose();
		fx.dispose();
	});

	/** Resolves once every client has heard `count` updates of the search. */
	async function heard(count: number): Promise<void> {
		await Promise.all(eras.clients.map(c => until(c.onDidUpdate, () => c.updates.filter(u => u === uri).length >= count, `${c.label}: ${count} updates`, 10_000)));
	}

	/** Waits for the live searches to be answered again after what the test just did. */
	async function rerun(act: () => void): Promise<void> {
		let runs = 0;
		const sub = server.search.onDidRunLive(() => runs++);
		try {
			act();
			await until(server.search.onDidRunLive, () => runs > 0, 'the live searches answered again', 10_000);
		} finally {
			sub.dispose();
		}
	}

	const paths = async (c: EraClient) => (await readSearch(c, uri)).files.map(f => f.path);

	it('on a write that adds a match, a delete and a rename; not on a write that changes nothing in the answer', async () => {
		await rerun(() => watcher.fire({ kind: 'changed', path: fx.write('src/other.ts', 'still nothing\n') }));
		assert.deepEqual(eras.clients.map(c => c.updates.length), [0, 0], 'a write outside the answer says nothing');

		watcher.fire({ kind: 'changed', path: fx.write('src/other.ts', 'now liveToken too\n') });
		await heard(1);
		for (const c of eras.clients) {
			assert.deepEqual(await paths(c), ['src/one.ts', 'src/other.ts'], c.label);
		}

		rmSync(`${fx.root}/src/one.ts`);
		watcher.fire({ kind: 'deleted', path: `${fx.root}/src/one.ts` });
		await heard(2);
		for (const c of eras.clients) {
			assert.deepEqual(await paths(c), ['src/other.ts'], c.label);
		}

		renameSync(`${fx.root}/src/other.ts`, `${fx.root}/src/renamed.ts`);
		watcher.fire({ kind: 'deleted', path: `${fx.root}/src/other.ts` }, { kind: 'created', path: `${fx.root}/src/renamed.ts` });
		await heard(3);
		for (const c of eras.clients) {
			assert.deepEqual(await paths(c), ['src/renamed.ts'], c.label);
		}

		await rerun(() => watcher.fire({ kind: 'changed', path: fx.write('src/renamed.ts', 'now liveToken too\n') }));
		assert.deepEqual(eras.clients.map(c => c.updates.length), [3, 3], 'the same text written again says nothing');
	});

	it('on typing in an open document, coalesced: many edits, few notifications', async () => {
		const other = `${fx.root}/src/other.ts`;
		for (let i = 0; i < 30; i++) {
			documents.edit(other, `typing ${'x'.repeat(i)}`);
		}
		documents.edit(other, 'typed liveToken');
		await heard(1);
		for (const c of eras.clients) {
			assert.deepEqual(await paths(c), ['src/one.ts', 'src/other.ts'], c.label);
			assert.ok(c.updates.length <= 2, `${c.label}: ${c.updates.length} notifications for 31 edits`);
		}
	});

	it('ends with the last subscription: the search is no longer held', async () => {
		for (const c of eras.clients) {
			if (c.era === 'legacy') {
				await c.client.unsubscribeResource({ uri });
			}
		}
		await Promise.all(listens.splice(0).map(l => l.close()));
		// A listen stream's end reaches the server when its connection closes: looked at until then.
		for (const stop = Date.now() + 5000; server.search.liveCount !== 0 && Date.now() < stop;) {
			await new Promise(resolve => setTimeout(resolve, 10));
		}
		assert.equal(server.search.liveCount, 0);
	});
});
