import * as assert from 'node:assert/strict';
import { InvalidParams } from '../../../src/core/errors';
import { encodeCursor, pageStart, paginate, PageSection } from '../../../src/core/pager';
import { ResourceEntry } from '../../../src/core/resource';

const entries = (prefix: string, n: number): ResourceEntry[] =>
	Array.from({ length: n }, (_, i) => ({ uri: `${prefix}${String(i).padStart(4, '0')}`, name: String(i) }))
		.sort((a, b) => (a.uri < b.uri ? -1 : 1));

function walk(sections: () => PageSection[], pageSize: number, between?: (page: number) => void): string[] {
	const seen: string[] = [];
	let cursor: string | undefined;
	let page = 0;
	do {
		const result = paginate(sections(), cursor, pageSize);
		seen.push(...result.resources.map(r => r.uri));
		cursor = result.nextCursor;
		between?.(page++);
	} while (cursor);
	return seen;
}

describe('pager', () => {
	it('walks every item of every section once, in order', () => {
		const sections = [{ id: 'a', items: entries('a:', 25) }, { id: 'b', items: [] }, { id: 'c', items: entries('c:', 7) }];
		for (const size of [1, 3, 7, 25, 32, 100]) {
			const seen = walk(() => sections, size);
			assert.deepEqual(seen, [...sections[0].items, ...sections[2].items].map(e => e.uri), `page size ${size}`);
		}
	});

	it('gives no nextCursor when the last page is exactly full', () => {
		const result = paginate([{ id: 'a', items: entries('a:', 10) }], undefined, 10);
		assert.equal(result.resources.length, 10);
		assert.equal(result.nextCursor, undefined);
	});

	it('has no duplicates or gaps while items are added and removed between pages', () => {
		let items = entries('f:', 100);
		const original = new Set(items.map(e => e.uri));
		const removed = new Set<string>();
		const seen = walk(() => [{ id: 'files', items }], 10, page => {
			// Add items before and after the cursor, remove one not yet seen.
			const added = [{ uri: `f:0000-${page}`, name: 'x' }, { uri: `f:9999-${page}`, name: 'y' }];
			const victim = items[items.length - 1 - page];
			if (victim && original.has(victim.uri)) {
				removed.add(victim.uri);
			}
			items = [...items.filter(e => e !== victim), ...added].sort((a, b) => (a.uri < b.uri ? -1 : 1));
		});
		assert.equal(new Set(seen).size, seen.length, 'no duplicates');
		for (const uri of original) {
			if (!removed.has(uri)) {
				assert.ok(seen.includes(uri), `present throughout but skipped: ${uri}`);
			}
		}
	});

	for (const bad of ['', 'garbage', 'c1.', 'c1.!!!', `c1.${Buffer.from('{"s":1}').toString('base64url')}`, encodeCursor({ s: 'nope', a: 'x' }), 'c1.' + 'A'.repeat(9000)]) {
		it(`rejects the invalid cursor ${JSON.stringify(bad.slice(0, 30))}`, () => {
			assert.throws(() => paginate([{ id: 'files', items: entries('f:', 3) }], bad, 10), InvalidParams);
		});
	}

	it('decodes a cursor to the index of its section and the URI the page resumes after', () => {
		assert.deepEqual(pageStart(undefined, ['a', 'b']), { section: 0 });
		assert.deepEqual(pageStart(encodeCursor({ s: 'b', a: 'b:0003' }), ['a', 'b']), { section: 1, after: 'b:0003' });
		assert.throws(() => pageStart(encodeCursor({ s: 'gone', a: 'x' }), ['a', 'b']), { name: 'InvalidParams', message: 'Invalid cursor' });
		assert.throws(() => pageStart('garbage', ['a']), { name: 'InvalidParams', message: 'Invalid cursor' });
	});
});
