import * as assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { FileBatchBuilder, IndexSetup } from '../../../../src/core/search/ports';
import { quadgramSignature } from '../../../../src/core/search/quadgrams';
import { SearchIndex } from '../../../../src/core/search/searchIndex';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';

/** The background reads go into one buffer, used again from file to file. */
describe('search index: background reads into one buffer', () => {
	let fx: Fixture;

	beforeEach(() => {
		fx = createFixture();
	});
	afterEach(() => fx.dispose());

	it('signs each file from its own bytes alone, a small file after a large one and after one that grew', async () => {
		const texts: Record<string, string> = {
			'1-large.txt': 'large '.repeat(40_000),
			'2-small.txt': 'small needle\n',
			'3-grew.txt': 'short',
			'4-after.txt': 'after words\n',
		};
		Object.entries(texts).forEach(([rel, text]) => fx.write(`s/${rel}`, text));
		const setup: IndexSetup = { roots: [{ path: fx.file('s'), realPath: fx.file('s'), name: 's' }], maxFileSize: 1 << 20 };
		const batch = new FileBatchBuilder(4);
		for (const rel of Object.keys(texts)) {
			const stat = statSync(fx.file(`s/${rel}`));
			batch.add({ path: fx.file(`s/${rel}`), display: rel, size: stat.size, mtimeMs: stat.mtimeMs });
		}
		// Larger on disk than listed (the change is on its way): read whole all the same.
		texts['3-grew.txt'] = 'grown '.repeat(30_000);
		fx.write('s/3-grew.txt', texts['3-grew.txt']);
		const index = new SearchIndex(new NodeFileSystem());
		index.reset(setup, batch.build());
		await index.whenIdle();
		for (const [rel, text] of Object.entries(texts)) {
			assert.deepEqual(index.signatureOf(index.slotOfDisplay(rel)!), quadgramSignature(Buffer.from(text)), rel);
		}
		const textBytes = Object.values(texts).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
		assert.equal(index.progress().textBytes, textBytes);
	});
});
