import * as assert from 'node:assert/strict';
import { FileBatch, IndexSetup } from '../../../../src/core/search/ports';
import { SearchIndex } from '../../../../src/core/search/searchIndex';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { countingIndex, indexListing } from '../../../helpers/indexFixtures';

/** A list of files the feed sends in parts (`reset` with `more`, then `extendReset`), on real files. */
describe('search index: a list given in parts', () => {
	let fx: Fixture;
	let setup: IndexSetup;

	beforeEach(() => {
		fx = createFixture();
		['a.txt', 'b.txt', 'c.txt'].forEach(rel => fx.write(`s/${rel}`, `the words of ${rel}\n`));
		setup = { roots: [{ path: fx.file('s'), realPath: fx.file('s'), name: 's' }], maxFileSize: 1 << 20 };
	});
	afterEach(() => fx.dispose());

	const part = (...rels: string[]): FileBatch => indexListing(fx, rels);
	const built = countingIndex;

	const held = (index: SearchIndex) => index.order().map(slot => index.display(slot));

	it('searches the list before until the last part, then the new one, reading only the files it did not hold', async () => {
		const { index, reads } = built();
		index.reset(setup, part('a.txt', 'b.txt'));
		await index.whenIdle();
		const before = index.signatureOf(index.slotOfDisplay('a.txt')!);
		reads.length = 0;

		index.reset(setup, part('a.txt'), true);
		assert.deepEqual(held(index), ['a.txt', 'b.txt'], 'the first part alone changes nothing');
		index.extendReset(part('c.txt'));
		assert.deepEqual(held(index), ['a.txt', 'c.txt']);
		await index.whenIdle();
		assert.deepEqual(reads, [fx.file('s/c.txt')]);
		assert.deepEqual(index.signatureOf(index.slotOfDisplay('a.txt')!), before, 'a.txt kept its signature');
		assert.notEqual(index.signatureOf(index.slotOfDisplay('c.txt')!), undefined, 'c.txt is indexed');
		assert.deepEqual(index.progress(), { ...index.progress(), indexed: 2, total: 2 });
	});

	it('takes a part that no reset began as nothing', async () => {
		const { index } = built();
		index.reset(setup, part('a.txt'));
		index.extendReset(part('b.txt'));
		index.extendReset(part('c.txt'), true);
		await index.whenIdle();
		assert.deepEqual(held(index), ['a.txt']);
	});
});
