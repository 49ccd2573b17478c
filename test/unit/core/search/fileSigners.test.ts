import * as assert from 'node:assert/strict';
import { rmSync, symlinkSync } from 'node:fs';
import { FileBatch, FileSigners, IndexSetup, SignedFile } from '../../../../src/core/search/ports';
import { SearchIndex } from '../../../../src/core/search/searchIndex';
import { textSignature } from '../../../../src/core/search/textSignature';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { ThreadFileSigners } from '../../../../src/node/threadFileSigners';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { indexListing } from '../../../helpers/indexFixtures';

/** Signers whose batches wait until the test answers them. */
class HeldSigners implements FileSigners {
	readonly batches: { paths: readonly string[]; answer(results: (SignedFile | undefined)[]): void; fail(err: Error): void }[] = [];
	private readonly waiters: (() => void)[] = [];
	ready(): boolean {
		return true;
	}
	sign(paths: readonly string[]): Promise<(SignedFile | undefined)[]> {
		return new Promise((resolve, reject) => {
			this.batches.push({ paths, answer: resolve, fail: reject });
			this.waiters.splice(0).forEach(wake => wake());
		});
	}
	/** Resolves once a batch has come. */
	async nextBatch(): Promise<HeldSigners['batches'][number]> {
		while (this.batches.length === 0) {
			await new Promise<void>(resolve => this.waiters.push(resolve));
		}
		return this.batches.shift()!;
	}
	rest(): void {}
	dispose(): void {}
}

/** Signers that note each batch's paths before handing it on. */
function recorded(signers: FileSigners): { counting: FileSigners; batches: (readonly string[])[] } {
	const batches: (readonly string[])[] = [];
	const counting: FileSigners = {
		ready: () => signers.ready(),
		sign: (paths, max) => {
			batches.push(paths);
			return signers.sign(paths, max);
		},
		rest: () => signers.rest(),
		dispose: () => signers.dispose(),
	};
	return { counting, batches };
}

/** The search index's reading in other threads: what comes back is taken only when it still holds. */
describe('search index: files read and signed in another thread', () => {
	let fx: Fixture;
	let setup: IndexSetup;

	beforeEach(() => {
		fx = createFixture();
		setup = { roots: [{ path: fx.file('s'), realPath: fx.file('s'), name: 's' }], maxFileSize: 64 };
	});
	afterEach(() => fx.dispose());

	const listing = (rels: readonly string[]): FileBatch => indexListing(fx, rels);

	it('the signer thread gives every kind of file the state and signature this thread gives it', async () => {
		fx.write('s/text.ts', 'export const answer = 42;\n');
		fx.write('s/empty.txt', '');
		fx.write('s/binary.bin', 'PK\0\0 zipped');
		fx.write('s/large.txt', 'x'.repeat(65)); // over the 64-byte cap: listed smaller, grown since
		fx.write('s/huge.txt', 'x'.repeat(100)); // listed over the cap: never read
		fx.write('s/target.md', '# the target of a link\n');
		symlinkSync(fx.file('s/target.md'), fx.file('s/link.md'));
		fx.write('outside/secret.txt', 'not in the folder\n');
		symlinkSync(fx.file('outside/secret.txt'), fx.file('s/out.txt'));
		const rels = ['text.ts', 'huge.txt', 'empty.txt', 'binary.bin', 'large.txt', 'target.md', 'link.md', 'out.txt', 'gone.txt'];
		fx.write('s/gone.txt', 'listed, then deleted\n');
		const files = listing(rels);
		rmSync(fx.file('s/gone.txt'));
		const sizes = new Float64Array(files.sizes);
		sizes[rels.indexOf('large.txt')] = 10;
		const batch = { ...files, sizes };

		const alone = new SearchIndex(new NodeFileSystem());
		alone.reset(setup, { ...batch, sizes: new Float64Array(sizes), mtimes: new Float64Array(batch.mtimes) });
		await alone.whenIdle();
		const { counting, batches } = recorded(new ThreadFileSigners(message => assert.fail(message)));
		const helped = new SearchIndex(new NodeFileSystem(), undefined, counting);
		helped.reset(setup, batch);
		await helped.whenIdle();
		counting.dispose();

		assert.deepEqual(batches.flat().sort(), rels.filter(rel => rel !== 'huge.txt').map(rel => fx.file(`s/${rel}`)).sort(), 'every file under the cap went to the thread');
		for (const rel of rels) {
			const slot = (index: SearchIndex) => index.slotOfDisplay(rel)!;
			assert.deepEqual(helped.signatureOf(slot(helped)), alone.signatureOf(slot(alone)), rel);
		}
		assert.deepEqual(helped.signatureOf(helped.slotOfDisplay('text.ts')!), textSignature(Buffer.from('export const answer = 42;\n'), 64));
		for (const rel of ['out.txt', 'huge.txt', 'large.txt', 'binary.bin', 'gone.txt']) {
			assert.equal(helped.signatureOf(helped.slotOfDisplay(rel)!), null, `${rel}: nothing to search`);
		}
		assert.ok(helped.signatureOf(helped.slotOfDisplay('link.md')!), 'a link to a held file is searched');
	});

	it('a file that changed while the thread read it keeps its new text\'s signature', async () => {
		fx.write('s/a.ts', 'const before = 1;\n');
		const signers = new HeldSigners();
		const index = new SearchIndex(new NodeFileSystem(), undefined, signers);
		index.reset(setup, listing(['a.ts']));
		const batch = await signers.nextBatch();
		fx.write('s/a.ts', 'const after = 2;\n');
		index.update(listing(['a.ts']), [], []);
		const again = await signers.nextBatch();
		batch.answer([{ realPath: batch.paths[0], size: 18, signature: textSignature(Buffer.from('const before = 1;\n'), 64) }]);
		again.answer([{ realPath: again.paths[0], size: 17, signature: textSignature(Buffer.from('const after = 2;\n'), 64) }]);
		await index.whenIdle();
		assert.deepEqual(index.signatureOf(index.slotOfDisplay('a.ts')!), textSignature(Buffer.from('const after = 2;\n'), 64));
	});

	it('a file the thread found leading to a path the index does not hold is not searched', async () => {
		fx.write('s/a.ts', 'const a = 1;\n');
		const signers = new HeldSigners();
		const index = new SearchIndex(new NodeFileSystem(), undefined, signers);
		index.reset(setup, listing(['a.ts']));
		const batch = await signers.nextBatch();
		batch.answer([{ realPath: fx.file('outside/else.ts'), size: 13, signature: textSignature(Buffer.from('const a = 1;\n'), 64) }]);
		await index.whenIdle();
		assert.equal(index.signatureOf(index.slotOfDisplay('a.ts')!), null);
	});

	it('a folder swapped for a link after the listing: what was signed there never reaches a search\'s text', async () => {
		// The bulk reads check only a name's last part (no kernel call per file for where it is);
		// the text a search answers with is read again, checked where the opened file really is.
		for (const signers of [undefined, new ThreadFileSigners(message => assert.fail(message))]) {
			fx.write('s/dir/a.ts', 'const inside = 1;\n');
			const files = listing(['dir/a.ts']);
			fx.write('outside/a.ts', 'const secretOutside = 2;\n');
			rmSync(fx.file('s/dir'), { recursive: true });
			symlinkSync(fx.file('outside'), fx.file('s/dir'));
			const index = new SearchIndex(new NodeFileSystem(), undefined, signers);
			index.reset(setup, files);
			await index.whenIdle();
			signers?.dispose();
			const slot = index.slotOfDisplay('dir/a.ts')!;
			assert.ok(index.signatureOf(slot), 'signed under the listed name until the watcher says otherwise');
			assert.equal(await index.textOf(slot), undefined, 'the outside text is refused when read for an answer');
			const look = { mayMatch: () => true, scratch: { buffer: Buffer.alloc(16) } };
			assert.equal(await index.textOf(slot, look), undefined, 'also after a first look at the bytes, unchecked');
			rmSync(fx.file('s/dir'));
			rmSync(fx.file('outside'), { recursive: true });
		}
	});

	it('when the thread fails, its files are read in the index\'s own thread', async () => {
		fx.write('s/a.ts', 'const a = 1;\n');
		fx.write('s/b.ts', 'const b = 2;\n');
		let failed = false;
		const signers = new HeldSigners();
		const failing: FileSigners = { ready: () => !failed, sign: paths => signers.sign(paths), rest: () => {}, dispose: () => {} };
		const index = new SearchIndex(new NodeFileSystem(), undefined, failing);
		index.reset(setup, listing(['a.ts', 'b.ts']));
		const batch = await signers.nextBatch();
		failed = true;
		batch.fail(new Error('the thread stopped'));
		await index.whenIdle();
		for (const rel of ['a.ts', 'b.ts']) {
			assert.deepEqual(index.signatureOf(index.slotOfDisplay(rel)!), textSignature(Buffer.from(`const ${rel[0]} = ${rel === 'a.ts' ? 1 : 2};\n`), 64), rel);
		}
	});

	it('the signer thread stops once the index is built, and a later change starts it again', async () => {
		fx.write('s/a.ts', 'const a = 1;\n');
		const signers = new ThreadFileSigners(message => assert.fail(message));
		const { counting, batches } = recorded(signers);
		const index = new SearchIndex(new NodeFileSystem(), undefined, counting);
		try {
			index.reset(setup, listing(['a.ts']));
			await index.whenIdle();
			assert.equal(batches.length, 1);
			assert.equal(signers.running, false, 'stopped once every file is indexed');
			fx.write('s/a.ts', 'const b = 2;\n');
			index.update(listing(['a.ts']), [], []);
			await index.whenIdle();
			assert.equal(batches.length, 2, 'the change went to a thread again');
			assert.deepEqual(index.signatureOf(index.slotOfDisplay('a.ts')!), textSignature(Buffer.from('const b = 2;\n'), 64));
			assert.equal(signers.running, false);
		} finally {
			index.dispose();
			signers.dispose();
		}
	});
});
