import * as assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { FileBatchBuilder, IndexSetup } from '../../../../src/core/search/ports';
import { CachedFile } from '../../../../src/core/search/searchIndex';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { countingIndex, indexListing } from '../../../helpers/indexFixtures';

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
		second.index.seed(kept);
		second.index.reset(setup, listing());
		await second.index.whenIdle();
		assert.equal(second.index.reused, 2);
		assert.deepEqual(second.reads, [fx.file('s/b.txt')]);
		const a = second.index.slotOfDisplay('a.txt')!;
		assert.deepEqual(second.index.signatureOf(a), kept.get('a.txt')!.signature);
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
