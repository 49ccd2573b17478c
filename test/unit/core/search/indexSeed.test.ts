import * as assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { FileBatchBuilder, IndexSetup } from '../../../../src/core/search/ports';
import { CachedFile, SeedFiles } from '../../../../src/core/search/searchIndex';
import { SignatureStore } from '../../../../src/core/search/signatureStore';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { countingIndex, indexListing } from '../../../helpers/indexFixtures';

/** Files as a cache read back gives them: each signature in a store of the seed's own. */
function seedOf(files: Iterable<CachedFile>): SeedFiles {
	const signatures = new SignatureStore();
	const seeded = new Map<string, CachedFile & { address: number }>();
	for (const file of files) {
		const address = file.signature ? signatures.put(file.signature) : -1;
		seeded.set(file.display, { ...file, signature: file.signature && signatures.get(address, file.signature.length), address });
	}
	return { files: seeded, signatures };
}

/** The index's seed (files a cache kept) and snapshot (what a cache may keep), on real files. */
describe('search index: seeded from a cache, snapshot for one', () => {
	let fx: Fixture;
	let setup: IndexSetup;
	const rels = ['a.txt', 'b.txt', 'c.txt'];

	beforeEach(() => {
		fx = createFixture();
		rels.forEach((rel, i) => fx.write(`s/${rel}`, `text of ${rel} number ${i}\n`));
		setup = { roots: [{ path: fx.file('s'), realPath: fx.file('s'), name: 's' }], maxFileSize: 1 << 20 };
	});
	afterEach(() => fx.dispose());

	const listing = () => indexListing(fx, rels);
	const built = countingIndex;

	it('a file whose size and time match takes the seed\'s signature unread; one that changed is read', async () => {
		const first = built();
		first.index.reset(setup, listing());
		await first.index.whenIdle();
		const kept = new Map<string, CachedFile>([...first.index.snapshot()].map(f => [f.display, f]));
		assert.deepEqual([...kept.keys()].sort(), rels);
		utimesSync(fx.file('s/b.txt'), new Date(), new Date(Date.now() + 60_000));
		const second = built();
		second.index.seed(seedOf(kept.values()));
		second.index.reset(setup, listing());
		await second.index.whenIdle();
		assert.equal(second.index.reused, 2);
		assert.deepEqual(second.reads, [fx.file('s/b.txt')]);
		const a = second.index.slotOfDisplay('a.txt')!;
		assert.deepEqual(second.index.signatureOf(a), kept.get('a.txt')!.signature);
	});

	it('a process\'s first list takes over the seed\'s store: signatures stay where they were read to, the rest is freed', async () => {
		const first = built();
		first.index.reset(setup, listing());
		await first.index.whenIdle();
		const seed = seedOf(first.index.snapshot());
		const second = built();
		second.index.seed(seed);
		second.index.reset(setup, indexListing(fx, ['a.txt', 'c.txt']));
		await second.index.whenIdle();
		assert.equal(second.index.reused, 2);
		const a = second.index.signatureOf(second.index.slotOfDisplay('a.txt')!)!;
		assert.equal(a.buffer, seed.files.get('a.txt')!.signature!.buffer, 'the very words the seed read, not a copy');
		seed.signatures.free(seed.files.get('a.txt')!.address, a.length);
		seed.signatures.free(seed.files.get('c.txt')!.address, seed.files.get('c.txt')!.signature!.length);
		assert.equal(seed.signatures.empty, true, 'b.txt, not listed, was freed when the list was taken');
	});

	it('a list after the first copies from the seed, leaving the index\'s own store as it was', async () => {
		const { index } = built();
		index.reset(setup, listing());
		await index.whenIdle();
		const before = index.signatureOf(index.slotOfDisplay('a.txt')!)!;
		const seed = seedOf([{ display: 'a.txt', size: 1, mtimeMs: 1, state: 1, signature: Int32Array.from([7, 7]) }]);
		index.seed(seed);
		index.reset(setup, listing());
		await index.whenIdle();
		assert.notEqual(index.signatureOf(index.slotOfDisplay('a.txt')!)!.buffer, seed.signatures.get(seed.files.get('a.txt')!.address, 2).buffer);
		assert.deepEqual(index.signatureOf(index.slotOfDisplay('a.txt')!), before, 'its own signature, kept: the seed\'s size and time do not match');
	});

	it('a file with unsaved text is never in the snapshot; saved again, it is', async () => {
		const { index } = built();
		index.reset(setup, listing());
		await index.whenIdle();
		index.update(new FileBatchBuilder(0).build(), [], [{ path: fx.file('s/c.txt'), text: 'unsaved words only in the buffer' }]);
		await index.whenIdle();
		assert.notEqual(index.signatureOf(index.slotOfDisplay('c.txt')!), undefined, 'indexed, from the buffer');
		assert.deepEqual([...index.snapshot()].map(f => f.display).sort(), ['a.txt', 'b.txt']);
		index.update(new FileBatchBuilder(0).build(), [], [{ path: fx.file('s/c.txt'), text: undefined }]);
		await index.whenIdle();
		assert.deepEqual([...index.snapshot()].map(f => f.display).sort(), rels);
	});
});
