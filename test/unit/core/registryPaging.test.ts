import * as assert from 'node:assert/strict';
import { Emitter } from '../../../src/common/event';
import { IDisposable, nothingToDispose } from '../../../src/common/lifecycle';
import { ProviderRegistry } from '../../../src/core/registry';
import { ResourceChange, ResourceEntry, ResourceProvider } from '../../../src/core/resource';
import { connectInMemory, fastTracker, listAll, withPagedClient } from '../../helpers/harness';

/** A provider of `count` entries under `scheme://` that is ready only once `release()` is called. */
class GatedProvider implements ResourceProvider {
	private readonly changes = new Emitter<ResourceChange>();
	readonly onDidChange = this.changes.event;
	private readonly entries: ResourceEntry[];
	private opened = false;
	private readonly gate: Promise<void>;
	release!: () => void;
	/** How often a page asked for the entries. */
	listCalls = 0;

	readonly summary = 'gated test entries';

	constructor(readonly id: string, count: number, gated: boolean) {
		this.entries = Array.from({ length: count }, (_, i) => ({ uri: `${id}://item/${String(i).padStart(4, '0')}`, name: `${id} ${i}` }));
		this.gate = gated ? new Promise(resolve => { this.release = resolve; }) : Promise.resolve();
	}
	async ready(): Promise<void> {
		await this.gate;
		this.opened = true;
	}
	list(): readonly ResourceEntry[] {
		assert.ok(this.opened, `${this.id} listed before it was ready`);
		this.listCalls++;
		return this.entries;
	}
	handles(uri: string): boolean { return uri.startsWith(`${this.id}://`); }
	async read(uri: string) { return [{ uri, text: uri }]; }
	async subscribe(): Promise<IDisposable> { return nothingToDispose; /* any */ }
	templates() { return []; }
	async complete() { return undefined; }
	dispose(): void { this.changes.dispose(); }
}

describe('registry paging waits only for the providers a page reaches', () => {
	it('serves the first pages of files while a later provider is still getting ready, then pages into it', async () => {
		const git = new GatedProvider('git', 3, true);
		await withPagedClient([new GatedProvider('files', 25, false), git], async client => {
			const first = await client.listResources();
			assert.equal(first.resources.length, 10);
			const second = await client.listResources({ cursor: first.nextCursor });
			assert.equal(second.resources.at(-1)?.uri, 'files://item/0019');
			// The third page reaches git: it waits for git, then holds the last files and git's entries.
			let third: { resources: { uri: string }[]; nextCursor?: string } | undefined;
			const pending = client.listResources({ cursor: second.nextCursor }).then(r => { third = r; });
			await client.ping();
			assert.equal(third, undefined, 'the page that reaches git waits for it');
			git.release();
			await pending;
			assert.deepEqual(third!.resources.map(r => r.uri), [
				'files://item/0020', 'files://item/0021', 'files://item/0022', 'files://item/0023', 'files://item/0024',
				'git://item/0000', 'git://item/0001', 'git://item/0002',
			]);
			assert.equal(third!.nextCursor, undefined);
			assert.equal((await listAll(client)).length, 28);
		});
	});

	it('a page that ends exactly at the end of one provider still points on to the next', async () => {
		await withPagedClient([new GatedProvider('files', 10, false), new GatedProvider('git', 2, false)], async client => {
			const first = await client.listResources();
			assert.equal(first.resources.length, 10);
			assert.ok(first.nextCursor, 'git comes next');
			const second = await client.listResources({ cursor: first.nextCursor });
			assert.deepEqual(second.resources.map(r => r.uri), ['git://item/0000', 'git://item/0001']);
		});
	});

	it('asks each provider a page crosses for its entries once, and none before the cursor\'s', async () => {
		const providers = [new GatedProvider('a', 4, false), new GatedProvider('b', 3, false), new GatedProvider('c', 2, false), new GatedProvider('d', 9, false)];
		await withPagedClient(providers, async client => {
			const first = await client.listResources();
			assert.deepEqual(first.resources.map(r => r.uri).slice(-3), ['c://item/0000', 'c://item/0001', 'd://item/0000']);
			assert.deepEqual(providers.map(p => p.listCalls), [1, 1, 1, 1]);
			const second = await client.listResources({ cursor: first.nextCursor });
			assert.equal(second.resources.length, 8);
			assert.deepEqual(providers.map(p => p.listCalls), [1, 1, 1, 2]);
		});
	});

	it('waits no longer than a provider\'s readyWaitMs, listing what it has so far', async () => {
		const slow = new FoundLaterProvider(50);
		await withPagedClient([slow, new GatedProvider('files', 3, false)], async client => {
			const first = await client.listResources();
			assert.deepEqual(first.resources.map(r => r.uri), ['files://item/0000', 'files://item/0001', 'files://item/0002']);
		});
		slow.dispose();
	});
});

describe('list_changed after a listing', () => {
	it('is not sent for a set change the first page already showed, and is sent for a later one', async () => {
		const found = new FoundLaterProvider(undefined);
		const registry = new ProviderRegistry([found, new GatedProvider('files', 2, false)], fastTracker);
		const conn = await connectInMemory(registry, undefined, 10);
		try {
			const first = await conn.client.listResources();
			assert.deepEqual(first.resources.map(r => r.uri).slice(0, 1), ['found://repo/status'], 'found during ready(), before the page');
			registry.flushChanges();
			await conn.client.ping(); // notifications sent before this answer have arrived
			assert.equal(conn.listChangedCount(), 0);
			found.add('found://repo/log');
			registry.flushChanges();
			await conn.client.ping();
			assert.equal(conn.listChangedCount(), 1);
		} finally {
			await conn.close();
			registry.dispose();
		}
	});
});

/**
 * Like git: lists nothing until it has looked, announces what it found with list_changed, and
 * (with a wait bound) may take longer to look than a page is willing to wait.
 */
class FoundLaterProvider implements ResourceProvider {
	readonly id = 'found';
	readonly summary = 'found test entries';
	private readonly changes = new Emitter<ResourceChange>();
	readonly onDidChange = this.changes.event;
	private entries: ResourceEntry[] = [];

	constructor(readonly readyWaitMs: number | undefined) {}

	ready(): Promise<void> {
		if (this.readyWaitMs !== undefined) {
			return new Promise(() => { /* never: the page must not wait for it */ });
		}
		this.add('found://repo/status');
		return Promise.resolve();
	}
	add(uri: string): void {
		this.entries = [...this.entries, { uri, name: uri }].sort((a, b) => (a.uri < b.uri ? -1 : 1));
		this.changes.fire({ updated: [uri], listChanged: true });
	}
	list(): readonly ResourceEntry[] { return this.entries; }
	handles(uri: string): boolean { return uri.startsWith('found://'); }
	async read(uri: string) { return [{ uri, text: uri }]; }
	async subscribe(): Promise<IDisposable> { return nothingToDispose; /* any */ }
	templates() { return []; }
	async complete() { return undefined; }
	dispose(): void { this.changes.dispose(); }
}
