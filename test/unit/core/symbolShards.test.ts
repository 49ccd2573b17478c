import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { nameAt, packSymbols } from '../../../src/core/symbols/fileSymbols';
import { matchName } from '../../../src/core/symbols/nameMatch';
import { Declaration } from '../../../src/core/symbols/ports';
import { SymbolShards } from '../../../src/core/symbols/symbolShards';

const RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
const declaration = (name: string, children: Declaration[] = []): Declaration =>
	({ name, kind: 'Function', start: 0, end: 0, range: RANGE, selectionRange: RANGE, children });

/** What a search of the shards finds, by file and name, against matchName over every name held. */
function compare(shards: SymbolShards, held: Map<string, string[]>, query: string): void {
	const found = new Map<string, number>();
	shards.search(query, () => true, () => true, (file, i, match) => {
		const key = `${file.absPath}#${nameAt(file, i)}#${i}`;
		assert.ok(!found.has(key), `${key} found twice`);
		found.set(key, match);
	});
	const wanted = new Map<string, number>();
	for (const [uri, names] of held) {
		names.forEach((name, i) => {
			const match = matchName(name, query);
			if (match !== undefined) {
				wanted.set(`/${uri}#${name}#${i}`, match);
			}
		});
	}
	assert.deepEqual(found, wanted, `query ${JSON.stringify(query)}`);
}

/**
 * Searching many files' names at once (one string per shard) finds exactly what matching each
 * name alone finds, through files set, replaced and deleted (shards compacted on the way).
 */
describe('symbol shards', () => {
	it('find what matchName finds, name for name, as files come, change and go', () => {
		const name = fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$.é]{0,12}$/);
		const files = fc.array(fc.array(name, { minLength: 0, maxLength: 6 }), { minLength: 1, maxLength: 60 });
		const query = fc.stringMatching(/^[a-z0-9_.é$]{1,5}$/);
		fc.assert(fc.property(files, files, fc.array(query, { minLength: 1, maxLength: 6 }), (first, second, queries) => {
			const shards = new SymbolShards();
			const held = new Map<string, string[]>();
			const put = (uri: string, names: string[]) => {
				// Nested, as a class holds its methods: the shards see every name, outermost first.
				const [outer, ...inner] = names;
				shards.set(uri, packSymbols(`/${uri}`, outer === undefined ? [] : [declaration(outer, inner.map(n => declaration(n)))], 5_000));
				held.set(uri, names);
			};
			first.forEach((names, i) => put(`f${i}`, names));
			queries.forEach(q => compare(shards, held, q));
			// Half go, some change: every shard is rebuilt, some compacted.
			first.forEach((_, i) => {
				if (i % 2 === 0) {
					shards.delete(`f${i}`);
					held.delete(`f${i}`);
				}
			});
			second.forEach((names, i) => put(`f${(i * 3) % (first.length + 5)}`, names));
			queries.forEach(q => compare(shards, held, q));
			assert.equal(shards.size, held.size);
		}), { seed: 20261128, numRuns: 150 });
	});
});
