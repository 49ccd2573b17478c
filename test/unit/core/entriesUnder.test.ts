import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { Emitter } from '../../../src/common/event';
import { IDisposable, nothingToDispose } from '../../../src/common/lifecycle';
import { entriesUnder, prefixSuccessor } from '../../../src/core/entriesUnder';
import { ProviderRegistry } from '../../../src/core/registry';
import { ResourceChange, ResourceEntry, ResourceProvider, SortedEntries } from '../../../src/core/resource';
import { fastTracker } from '../../helpers/harness';

const SEED = 20261201;

/** A provider listing the given URIs (sorted here), owning `scheme:`. */
class ListedProvider implements ResourceProvider {
	private readonly changes = new Emitter<ResourceChange>();
	readonly onDidChange = this.changes.event;
	readonly summary = 'listed test entries';
	private readonly entries: ResourceEntry[];
	/** How often it was asked to list. */
	listCalls = 0;
	constructor(readonly id: string, private readonly scheme: string, uris: readonly string[]) {
		this.entries = [...new Set(uris)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(uri => ({ uri, name: uri }));
	}
	async ready(): Promise<void> {}
	list(): readonly ResourceEntry[] {
		this.listCalls++;
		return this.entries;
	}
	handles(uri: string): boolean { return uri.startsWith(`${this.scheme}:`); }
	async read(uri: string) { return [{ uri, text: uri }]; }
	async subscribe(): Promise<IDisposable> { return nothingToDispose; }
	templates() { return []; }
	async complete() { return undefined; }
	dispose(): void { this.changes.dispose(); }
}

function all(items: SortedEntries): string[] {
	return Array.from({ length: items.length }, (_, i) => items.at(i)!.uri);
}

/** Paths from a small alphabet (so prefixes often match), with a non-ASCII and a U+FFFF code unit now and then. */
const segment = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '/', '%', 'é', '\uffff'), minLength: 0, maxLength: 6 });

describe('entries under a prefix', () => {
	it('are exactly the entries whose URI starts with it, found without walking the list', () => {
		fc.assert(fc.property(fc.array(segment, { maxLength: 40 }), segment, (paths, prefix) => {
			const items = new ListedProvider('p', 'x', paths.map(p => `x:${p}`)).list();
			const under = entriesUnder(items, `x:${prefix}`);
			assert.deepEqual(all(under), items.map(e => e.uri).filter(u => u.startsWith(`x:${prefix}`)));
			// `search` answers within the run, as the page builder resumes a cursor by it.
			for (const [i, entry] of all(under).entries()) {
				assert.equal(under.search!(entry, false), i);
				assert.equal(under.search!(entry, true), i + 1);
			}
		}), { seed: SEED, numRuns: 300 });
	});

	it('the successor of a prefix bounds every string that starts with it', () => {
		assert.equal(prefixSuccessor('ab'), 'ac');
		assert.equal(prefixSuccessor('a\uffff'), 'b');
		assert.equal(prefixSuccessor('\uffff\uffff'), undefined);
	});
});

describe('registry listing under a prefix', () => {
	const files = () => new ListedProvider('files', 'file', ['file:///ws/a.ts', 'file:///ws/src/b.ts', 'file:///ws/src/c.ts', 'file:///ws/src/d/e.ts', 'file:///ws/z.md']);
	const git = () => new ListedProvider('git', 'git', ['git://ws/branches', 'git://ws/log', 'git://ws/status']);

	async function walk(registry: ProviderRegistry, prefix: string, pageSize: number, cursor?: string): Promise<string[]> {
		const uris: string[] = [];
		do {
			const page = await registry.listUnder(prefix, cursor, pageSize);
			assert.ok(page.resources.length <= pageSize);
			uris.push(...page.resources.map(r => r.uri));
			cursor = page.nextCursor;
		} while (cursor !== undefined);
		return uris;
	}

	it('pages a folder or a family with cursors, and everything without a prefix', async () => {
		const registry = new ProviderRegistry([git(), files()], fastTracker);
		try {
			assert.deepEqual(await walk(registry, 'file:///ws/src/', 2), ['file:///ws/src/b.ts', 'file:///ws/src/c.ts', 'file:///ws/src/d/e.ts']);
			assert.deepEqual(await walk(registry, 'git:', 1), ['git://ws/branches', 'git://ws/log', 'git://ws/status']);
			assert.equal((await walk(registry, '', 3)).length, 8);
			assert.deepEqual(await walk(registry, 'nothing:', 3), []);
		} finally {
			registry.dispose();
		}
	});

	it('does not read a provider that cannot own the prefix', async () => {
		const gitProvider = git();
		const registry = new ProviderRegistry([gitProvider, files()], fastTracker);
		try {
			await walk(registry, 'file:', 2);
			assert.equal(gitProvider.listCalls, 0);
		} finally {
			registry.dispose();
		}
	});

	it('resumes a cursor of another family at its own place, skipping nothing after it', async () => {
		const registry = new ProviderRegistry([git(), files()], fastTracker);
		try {
			const first = await registry.listUnder('', undefined, 2);
			assert.deepEqual(first.resources.map(r => r.uri), ['git://ws/branches', 'git://ws/log']);
			// The cursor sits in git; listed under file: it still yields every file.
			assert.deepEqual(await walk(registry, 'file:', 10, first.nextCursor), all(files().list()));
		} finally {
			registry.dispose();
		}
	});
});
