import * as assert from 'node:assert/strict';
import { FilterIndex } from '../../../src/picker/filter';

function index(paths: string[]): FilterIndex<string> {
	const idx = new FilterIndex<string>();
	for (const p of paths) {
		idx.add(p, p, `file:///ws/${p}`);
	}
	return idx;
}

describe('picker: filter', () => {
	it('ranks file-name prefixes over file-name infixes over folder matches', () => {
		const idx = index(['lib/button/style.css', 'src/components/Button.tsx', 'src/components/BigButton.tsx', 'docs/readme.md']);
		const { matches, total } = idx.search('button');
		assert.equal(total, 3);
		assert.deepEqual(matches.map(m => m.item), ['src/components/Button.tsx', 'src/components/BigButton.tsx', 'lib/button/style.css']);
	});

	it('needs every space-separated term and matches URIs', () => {
		const idx = index(['src/a/index.ts', 'src/b/index.ts', 'test/a/index.ts']);
		assert.deepEqual(idx.search('src index').matches.map(m => m.item).sort(), ['src/a/index.ts', 'src/b/index.ts']);
		assert.deepEqual(idx.search('file:///ws/test').matches.map(m => m.item), ['test/a/index.ts']);
		assert.equal(idx.search('nothing-like-this').total, 0);
		assert.equal(idx.search('   ').total, 0);
	});

	it('falls back to fuzzy subsequence matches, below substring ones', () => {
		const idx = index(['src/pickerView.ts', 'src/pkv.ts', 'src/other.ts']);
		const { matches } = idx.search('pkv');
		assert.deepEqual(matches.map(m => m.item), ['src/pkv.ts', 'src/pickerView.ts']);
		// Enough substring matches: no fuzzy noise.
		const many = index([...Array.from({ length: 30 }, (_, i) => `pkv${i}.ts`), 'pickerView.ts']);
		assert.ok(!many.search('pkv').matches.some(m => m.item === 'pickerView.ts'));
	});

	it('returns only the best N but counts every match', () => {
		const idx = index(Array.from({ length: 1000 }, (_, i) => `dir${i % 10}/file${i}.txt`));
		const { matches, total } = idx.search('file', 25);
		assert.equal(total, 1000);
		assert.equal(matches.length, 25);
		for (let i = 1; i < matches.length; i++) {
			assert.ok(matches[i - 1].score >= matches[i].score, 'sorted best first');
		}
	});

	it('filters 100,000 entries correctly (timing is reported by the bench picker section, not asserted)', () => {
		const paths = Array.from({ length: 100_000 }, (_, i) => `packages/p${i % 97}/src/module${i % 1013}/file-${i}.ts`);
		const idx = index(paths);
		const started = performance.now();
		const exact = idx.search('file-9999', 200);
		const expected = paths.filter(p => p.includes('file-9999'));
		assert.ok(exact.total >= expected.length);
		assert.deepEqual(exact.matches.slice(0, expected.length).map(m => m.item).sort(), [...expected].sort(), 'substring matches rank first');
		const words = idx.search('p42 module7', 200);
		assert.ok(words.total > 0 && words.matches.length <= 200);
		const fuzzy = idx.search('fl99', 200);
		assert.ok(fuzzy.total > 0, 'fuzzy finds file-99…');
		console.log(`      three searches over 100,000 entries: ${(performance.now() - started).toFixed(0)} ms`);
	});

	it('a query typed further finds exactly what a fresh search finds (it scans only the last matches)', () => {
		const paths = Array.from({ length: 3000 }, (_, i) => `pkg${i % 7}/mod${i % 13}/file${i}.${['ts', 'md', 'json'][i % 3]}`);
		paths.push('notes/fl-99.txt', 'notes/f-l-9-9.txt');
		const typed = index(paths);
		const sequences = [
			['f', 'fi', 'fil', 'file', 'file1', 'file12', 'file123', 'file1234', 'file12345'],
			['p', 'pk', 'pkg3', 'pkg3 ', 'pkg3 m', 'pkg3 mod1', 'pkg3 mod12 ', 'pkg3 mod12 f', 'pkg3 mod12 file1'],
			['f', 'fl', 'fl9', 'fl99', 'fl999'],
			// Wider again (backspace), a new start, and a pasted URI: each must scan everything.
			['file12', 'file1', 'mod', 'md', 'file:///ws/notes', 'file:///ws/notes/fl'],
		];
		for (const queries of sequences) {
			for (const query of queries) {
				for (const limit of [5, 200]) {
					const got = typed.search(query, limit);
					const fresh = index(paths).search(query, limit);
					assert.equal(got.total, fresh.total, `total for "${query}"`);
					assert.deepEqual(got.matches, fresh.matches, `matches for "${query}" (limit ${limit})`);
				}
			}
		}
	});

	it('forgets the last matches when items are added', () => {
		const idx = index(['src/alpha.ts', 'src/beta.ts']);
		assert.equal(idx.search('alp').total, 1);
		idx.add('src/alpine.ts', 'src/alpine.ts', 'file:///ws/src/alpine.ts');
		assert.deepEqual(idx.search('alpi').matches.map(m => m.item), ['src/alpine.ts']);
		idx.clear();
		assert.equal(idx.search('alpi').total, 0);
	});
});
