import * as assert from 'node:assert/strict';
import { ByteLru } from '../../../src/core/byteLru';

describe('ByteLru', () => {
	it('drops the least recently used entries once the bytes exceed the bound', () => {
		const lru = new ByteLru<string>(10);
		lru.set('a', 'A', 4);
		lru.set('b', 'B', 4);
		assert.equal(lru.get('a'), 'A'); // a is now the most recent
		lru.set('c', 'C', 4);
		assert.equal(lru.peek('b'), undefined, 'b was least recently used');
		assert.equal(lru.peek('a'), 'A');
		assert.equal(lru.peek('c'), 'C');
		assert.equal(lru.bytes, 8);
		assert.equal(lru.size, 2);
	});

	it('re-sizes an entry in place, and keeps nothing larger than the whole bound', () => {
		const lru = new ByteLru<string>(10);
		lru.set('a', 'A', 1);
		lru.set('b', 'B', 1);
		lru.set('a', 'A', 9);
		assert.equal(lru.bytes, 10);
		assert.equal(lru.set('huge', 'H', 11), false);
		assert.equal(lru.peek('huge'), undefined);
		assert.equal(lru.bytes, 10, 'a refused value evicts nothing');
	});

	it('deletes by predicate and clears, keeping the byte count exact', () => {
		const lru = new ByteLru<number>(100);
		for (let i = 0; i < 10; i++) {
			lru.set(`k${i}`, i, 5);
		}
		lru.deleteWhere((_key, value) => value % 2 === 0);
		assert.equal(lru.size, 5);
		assert.equal(lru.bytes, 25);
		lru.delete('k1');
		assert.equal(lru.bytes, 20);
		lru.clear();
		assert.equal(lru.bytes, 0);
		assert.equal(lru.size, 0);
	});
});
