import * as assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { FirstLook } from '../../../../src/core/search/firstLook';

/** A search looks at a candidate's bytes first only while that rules enough of them out. */
describe('search: the first look at candidates', () => {
	const looks = (passing: number, failing: number) => {
		const look = new FirstLook(bytes => bytes[0] === 1);
		for (let i = 0; i < passing; i++) {
			assert.equal(look.mayMatch(Buffer.from([1])), true);
		}
		for (let i = 0; i < failing; i++) {
			assert.equal(look.mayMatch(Buffer.from([0])), false);
		}
		return look;
	};

	it('keeps looking for the first 64 candidates whatever they hold', () => {
		assert.equal(looks(63, 0).worthIt, true);
		assert.equal(looks(0, 0).worthIt, true);
	});

	it('stops once more than three in four of them may match', () => {
		assert.equal(looks(64, 0).worthIt, false);
		assert.equal(looks(49, 15).worthIt, false);
	});

	it('goes on while a quarter or more are ruled out', () => {
		assert.equal(looks(48, 16).worthIt, true);
		assert.equal(looks(10, 500).worthIt, true);
	});
});
