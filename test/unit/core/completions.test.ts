import * as assert from 'node:assert/strict';
import { cappedCompletion, matchCompletion, MAX_COMPLETIONS } from '../../../src/core/completions';

describe('completions', () => {
	it('puts prefix matches first, then case-insensitive substring matches', () => {
		assert.deepEqual(matchCompletion(['src/Main.ts', 'main.ts', 'lib/main.js', 'other'], 'main').values, ['main.ts', 'src/Main.ts', 'lib/main.js']);
		assert.deepEqual(matchCompletion(['b', 'a'], '').values, ['b', 'a']);
	});

	it('caps the values at the spec\'s 100 and says there are more', () => {
		const many = Array.from({ length: MAX_COMPLETIONS + 5 }, (_, i) => `f${i}`);
		const answer = matchCompletion(many, 'f');
		assert.equal(answer.values.length, MAX_COMPLETIONS);
		assert.equal(answer.total, MAX_COMPLETIONS + 5);
		assert.equal(answer.hasMore, true);
		assert.deepEqual(cappedCompletion(['a'], true), { values: ['a'], total: 1, hasMore: true });
		assert.deepEqual(cappedCompletion(['a']), { values: ['a'], total: 1, hasMore: false });
	});
});
