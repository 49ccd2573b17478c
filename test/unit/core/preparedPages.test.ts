import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { Emitter } from '../../../src/common/event';
import { IDisposable, nothingToDispose } from '../../../src/common/lifecycle';
import { ResourceAnnotator, ResourceChange, ResourceEntry, ResourceProvider, SortedEntries } from '../../../src/core/resource';
import { fileUri } from '../../../src/core/uriGuard';
import { createFixture } from '../../helpers/fixtureWorkspace';
import { connectInMemory, createTestServer, listAll, withPagedClient } from '../../helpers/harness';

/** A files-like list that counts the entries built from it and has a version, as the index's does (unless told not to). */
class CountingList implements SortedEntries {
	readonly entries: ResourceEntry[];
	built = 0;
	version: number | undefined;

	constructor(count: number, versioned = true) {
		this.version = versioned ? 0 : undefined;
		this.entries = Array.from({ length: count }, (_, i) => ({ uri: `file:///ws/f${String(i).padStart(3, '0')}`, name: `f${i}` }));
	}
	get length(): number {
		return this.entries.length;
	}
	at(index: number): ResourceEntry | undefined {
		this.built++;
		const entry = this.entries[index];
		return entry && { ...entry };
	}
	search(uri: string, after: boolean): number {
		const i = this.entries.findIndex(e => (after ? e.uri > uri : e.uri >= uri));
		return i < 0 ? this.entries.length : i;
	}
	/** Renames an entry; with `bump`, says so through the version as the index does. */
	rename(index: number, name: string, bump: boolean): void {
		this.entries[index] = { ...this.entries[index], name };
		if (bump && this.version !== undefined) {
			this.version++;
		}
	}
}

class ListProvider implements ResourceProvider {
	private readonly changes = new Emitter<ResourceChange>();
	readonly onDidChange = this.changes.event;
	readonly summary = 'test entries';
	constructor(readonly id: string, private readonly entries: SortedEntries) {}
	async ready(): Promise<void> { /* always */ }
	list(): SortedEntries { return this.entries; }
	handles(uri: string): boolean { return uri.startsWith('file:'); }
	async read(uri: string) { return [{ uri, text: uri }]; }
	async subscribe(): Promise<IDisposable> { return nothingToDispose; /* any */ }
	templates() { return []; }
	async complete() { return undefined; }
	dispose(): void { this.changes.dispose(); }
}

/** Sets `annotations.priority` from a ranking object that is replaced when it changes, as relevance does. */
class RankingAnnotator extends ListProvider implements ResourceAnnotator {
	ranking: { priority: number } | undefined = { priority: 0.5 };
	constructor() {
		super('ranking', []);
	}
	override handles(uri: string): boolean { return uri.startsWith('ranking:'); }
	annotate(entries: ResourceEntry[]): void {
		this.ranking ??= { priority: 0.9 }; // a stale ranking is brought up to date first
		for (let i = 0; i < entries.length; i++) {
			entries[i] = { ...entries[i], annotations: { priority: this.ranking.priority } };
		}
	}
	annotationState(): object | undefined {
		return this.ranking;
	}
}

/** Lets the event loop run until `done()` (the registry prepares pages on an idle turn). */
async function untilTrue(done: () => boolean, what: string): Promise<void> {
	for (let turn = 0; turn < 1000; turn++) {
		if (done()) {
			return;
		}
		await new Promise(resolve => setImmediate(resolve));
	}
	assert.fail(`${what} did not happen`);
}

/** Lets the event loop run ten turns, well past the one a page is prepared on. */
async function idleTurns(): Promise<void> {
	for (let turn = 0; turn < 10; turn++) {
		await new Promise(resolve => setImmediate(resolve));
	}
}

describe('the next page of a listing is prepared while the client reads the last one', () => {
	it('a client that follows cursors gets its next page without a single entry built at its request', async () => {
		const list = new CountingList(35);
		await withPagedClient([new ListProvider('files', list)], async client => {
			const first = await client.listResources();
			const second = await client.listResources({ cursor: first.nextCursor });
			await untilTrue(() => list.built === 30, 'preparing the third page');
			const third = await client.listResources({ cursor: second.nextCursor });
			assert.equal(list.built, 30, 'the third page was the one prepared');
			assert.deepEqual(third.resources.map(r => r.name), Array.from({ length: 10 }, (_, i) => `f${20 + i}`));
			await untilTrue(() => list.built === 35, 'preparing the last page');
			const last = await client.listResources({ cursor: third.nextCursor });
			assert.deepEqual(last.resources.map(r => r.name), ['f30', 'f31', 'f32', 'f33', 'f34']);
			assert.equal(last.nextCursor, undefined);
		});
	});

	it('a client that reads only the first page gets nothing prepared for it', async () => {
		const list = new CountingList(35);
		await withPagedClient([new ListProvider('files', list)], async client => {
			await client.listResources();
			await client.listResources();
			await idleTurns();
			assert.equal(list.built, 20);
		});
	});

	it('a list that changed after its page was prepared is listed as it is now', async () => {
		const list = new CountingList(35);
		await withPagedClient([new ListProvider('files', list)], async client => {
			const second = await client.listResources({ cursor: (await client.listResources()).nextCursor });
			await untilTrue(() => list.built === 30, 'preparing the third page');
			list.rename(25, 'renamed', true);
			const third = await client.listResources({ cursor: second.nextCursor });
			assert.equal(third.resources[5].name, 'renamed');
		});
	});

	it('a list without a version is never served from a prepared page', async () => {
		const list = new CountingList(35, false);
		await withPagedClient([new ListProvider('files', list)], async client => {
			const second = await client.listResources({ cursor: (await client.listResources()).nextCursor });
			await idleTurns();
			assert.equal(list.built, 20, 'nothing was built ahead from a list that cannot say it changed');
			list.rename(25, 'renamed', false);
			const third = await client.listResources({ cursor: second.nextCursor });
			assert.equal(third.resources[5].name, 'renamed');
		});
	});

	it('annotations that changed after the page was prepared are the ones listed', async () => {
		const list = new CountingList(35);
		const ranking = new RankingAnnotator();
		await withPagedClient([ranking, new ListProvider('files', list)], async client => {
			const second = await client.listResources({ cursor: (await client.listResources()).nextCursor });
			assert.equal(second.resources[0].annotations?.priority, 0.5);
			await untilTrue(() => list.built === 30, 'preparing the third page');
			ranking.ranking = { priority: 0.7 };
			const third = await client.listResources({ cursor: second.nextCursor });
			assert.deepEqual(third.resources.map(r => r.annotations?.priority), Array(10).fill(0.7));
			assert.equal(list.built, 40, 'the third page was built again');
			await untilTrue(() => list.built === 45, 'preparing the last page');
			ranking.ranking = undefined; // stale: annotating brings it up to date first
			const last = await client.listResources({ cursor: third.nextCursor });
			assert.deepEqual(last.resources.map(r => r.annotations?.priority), Array(5).fill(0.9));
		});
	});

	it('the files index tells a prepared page from a current one: a size changed after it was prepared is listed as it is now', async () => {
		const fx = createFixture();
		const paths = Array.from({ length: 30 }, (_, i) => fx.write(`many/${String(i).padStart(2, '0')}.txt`, 'x'));
		const server = createTestServer([fx.root]);
		await server.files.ready();
		const conn = await connectInMemory(server.registry, server.log, 10);
		try {
			const { client } = conn;
			const third = (await listAll(client)).slice(20, 30).map(r => r.uri);
			const changed = paths.find(p => fileUri(p) === third[0])!;
			assert.ok(changed, 'the third page starts with one of the files written here');
			const page = await client.listResources({ cursor: (await client.listResources()).nextCursor });
			await idleTurns(); // the third page is prepared meanwhile
			writeFileSync(changed, 'a longer text than before');
			await client.subscribeResource({ uri: fileUri(changed) });
			server.watcher.fire({ kind: 'changed', path: changed });
			await conn.waitForUpdate(fileUri(changed));
			const next = await client.listResources({ cursor: page.nextCursor });
			assert.equal(next.resources.find(r => r.uri === fileUri(changed))?.size, 25);
		} finally {
			await conn.close();
			server.dispose();
			fx.dispose();
		}
	});
});
