import * as assert from 'node:assert/strict';
import { statSync, symlinkSync, writeFileSync } from 'node:fs';
import { Emitter } from '../../../../src/common/event';
import { nullLogger } from '../../../../src/common/logger';
import { StoredFile, StoredFiles } from '../../../../src/core/files/fileStore';
import { FileSystemReader } from '../../../../src/core/ports';
import { ResourceChange } from '../../../../src/core/resource';
import { batchFiles, FileBatch, FileBatchBuilder, IndexSetup, SearchBackend } from '../../../../src/core/search/ports';
import { ListedFiles, SearchFeed } from '../../../../src/core/search/searchFeed';
import { SearchIndex } from '../../../../src/core/search/searchIndex';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { FakeDocuments } from '../../../fakes/fakeDocuments';
import { FakeSettings } from '../../../fakes/fakeSettings';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';

/** Files found by the first walk are read while it goes on; the list alone says what is searched. */
describe('search index: reading what the walk found before the list', () => {
	let fx: Fixture;
	let setup: IndexSetup;

	beforeEach(() => {
		fx = createFixture();
		setup = { roots: [{ path: fx.file('s'), realPath: fx.file('s'), name: 's' }], maxFileSize: 1 << 20 };
	});
	afterEach(() => fx.dispose());

	function batch(rels: readonly string[]): FileBatch {
		const files = new FileBatchBuilder(rels.length);
		for (const rel of rels) {
			const stat = statSync(fx.file(`s/${rel}`));
			files.add({ path: fx.file(`s/${rel}`), display: rel, size: stat.size, mtimeMs: stat.mtimeMs });
		}
		return files.build();
	}

	function counted(): { index: SearchIndex; reads: string[] } {
		const reader = new NodeFileSystem();
		const reads: string[] = [];
		const counting = Object.create(reader) as NodeFileSystem;
		counting.readFileUpTo = (p, max, accept) => {
			reads.push(p.slice(fx.file('s').length + 1));
			return reader.readFileUpTo(p, max, accept);
		};
		return { index: new SearchIndex(counting), reads };
	}

	it('the list keeps what was read of files that stayed, reads those that changed, and drops the rest', async () => {
		for (const rel of ['a.ts', 'b.ts', 'c.ts']) {
			fx.write(`s/${rel}`, `export const ${rel[0]} = 1;\n`);
		}
		const { index, reads } = counted();
		index.prefetch(setup, batch(['a.ts', 'b.ts', 'c.ts']));
		await index.whenIdle();
		assert.deepEqual(reads.sort(), ['a.ts', 'b.ts', 'c.ts']);
		writeFileSync(fx.file('s/b.ts'), 'export const b = 22;\n');
		reads.length = 0;
		index.reset(setup, batch(['a.ts', 'b.ts']));
		await index.whenIdle();
		assert.deepEqual(reads, ['b.ts'], 'only the changed file is read again');
		assert.deepEqual(index.order().map(slot => index.display(slot)), ['a.ts', 'b.ts'], 'a file the list does not hold is gone');
		assert.equal(index.slotOfDisplay('c.ts'), undefined);
	});

	it('a link read before the file it leads to was held is read again once the list holds both', async () => {
		fx.write('s/target.ts', 'export const target = 1;\n');
		symlinkSync(fx.file('s/target.ts'), fx.file('s/link.ts'));
		const { index } = counted();
		index.prefetch(setup, batch(['link.ts']));
		await index.whenIdle();
		assert.equal(index.signatureOf(index.slotOfDisplay('link.ts')!), null, 'refused while its target is not held');
		index.reset(setup, batch(['link.ts', 'target.ts']));
		await index.whenIdle();
		assert.ok(index.signatureOf(index.slotOfDisplay('link.ts')!), 'searched once the target is held');
	});

	it('a file the cache holds unchanged is left to it, and counted as taken from it', async () => {
		fx.write('s/a.ts', 'export const a = 1;\n');
		fx.write('s/b.ts', 'export const b = 1;\n');
		const first = counted();
		first.index.reset(setup, batch(['a.ts', 'b.ts']));
		await first.index.whenIdle();
		const second = counted();
		second.index.seed(new Map(first.index.snapshot().map(f => [f.display, f])));
		second.index.prefetch(setup, batch(['a.ts', 'b.ts']));
		second.index.reset(setup, batch(['a.ts', 'b.ts']));
		await second.index.whenIdle();
		assert.deepEqual(second.reads, []);
		assert.equal(second.index.reused, 2);
	});
});

describe('the search feed hands the backend what the walk found, only before the list', () => {
	it('batches found before the first list are prefetched in order; none after it', async () => {
		const walked = new Emitter<readonly StoredFile[]>();
		const file = (name: string): StoredFile => ({ path: `/ws/${name}`, display: name, size: 1, mtimeMs: 1 });
		let release!: () => void;
		const built = new Promise<void>(resolve => (release = resolve));
		const listed = [file('a.ts'), file('b.ts')];
		const files: ListedFiles = {
			ready: () => built,
			listedFiles: (): StoredFiles => ({ length: listed.length, at: i => listed[i], uriAt: i => `file://${listed[i].path}`, search: () => listed.length, find: () => undefined }),
			isServedNow: () => true,
			onDidWalkFiles: walked.event,
			onDidChange: new Emitter<ResourceChange>().event,
			onDidChangeRules: new Emitter<void>().event,
		};
		const calls: string[] = [];
		let prefetched!: () => void;
		const twoPrefetches = new Promise<void>(resolve => (prefetched = resolve));
		const backend = {
			prefetch: (_setup: IndexSetup, batchFilesFound: FileBatch) => {
				calls.push(`prefetch ${batchFiles(batchFilesFound).map(f => f.display).join(',')}`);
				if (calls.length === 2) {
					prefetched();
				}
			},
			reset: (_setup: IndexSetup, list: FileBatch) => calls.push(`reset ${batchFiles(list).map(f => f.display).join(',')}`),
			update: () => undefined,
		} as unknown as SearchBackend;
		const feed = new SearchFeed({
			files,
			folders: { folders: () => [{ path: '/ws', name: 'ws' }], onDidChange: new Emitter<void>().event },
			reader: { realpath: async (p: string) => p } as unknown as FileSystemReader,
			settings: new FakeSettings(),
			documents: new FakeDocuments(),
			backend,
			log: nullLogger,
		});
		try {
			const ready = feed.ready();
			walked.fire([file('a.ts')]);
			walked.fire([file('b.ts')]);
			await twoPrefetches;
			release();
			await ready;
			walked.fire([file('c.ts')]);
			await new Promise(resolve => setImmediate(resolve)); // past every microtask a prefetch would be posted in
			assert.deepEqual(calls, ['prefetch a.ts', 'prefetch b.ts', 'reset a.ts,b.ts']);
		} finally {
			feed.dispose();
		}
	});
});
