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

	it('filters 100,000 entries at the cost of a few plain indexOf passes', () => {
		// Wall-clock limits flake on a loaded machine; compare with the floor measured alongside.
		const paths = Array.from({ length: 100_000 }, (_, i) => `packages/p${i % 97}/src/module${i % 1013}/file-${i}.ts`);
		const idx = index(paths);
		const median = (f: () => void) => {
			const times = [0, 1, 2, 3, 4].map(() => {
				const started = performance.now();
				f();
				return performance.now() - started;
			});
			return times.sort((a, b) => a - b)[2];
		};
		let sink = 0;
		const floor = median(() => {
			for (const p of paths) {
				sink += p.indexOf('file-9999') >= 0 ? 1 : 0;
			}
		});
		assert.ok(sink > 0);
		for (const query of ['file-9999', 'p42 module7', 'fl99']) {
			let total = 0;
			const ms = median(() => {
				total = idx.search(query, 200).total;
			});
			assert.ok(total > 0, `"${query}" matches`);
			assert.ok(ms < floor * 15 + 30, `"${query}" took ${ms.toFixed(1)} ms; one indexOf pass takes ${floor.toFixed(1)} ms`);
		}
	});
});
