import * as assert from 'node:assert/strict';
import { isoDate } from '../../../src/core/isoDate';

describe('isoDate', () => {
	it('writes what toISOString writes, for any time of years 1 to 9999 and beyond', () => {
		const samples = [0, -0, 1, -1, 0.5, -0.5, 999.999, 951_782_400_000, 951_868_800_000 - 1, 4_107_542_400_000, 1_700_000_000_123.9,
			-62_135_596_800_000, -62_135_596_800_001, 253_402_300_799_999, 253_402_300_800_000, -8.64e15, 8.64e15];
		let seed = 7;
		for (let i = 0; i < 20_000; i++) {
			seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
			samples.push((seed / 2 ** 31 - 0.3) * 2.6e14);
		}
		for (const ms of samples) {
			assert.equal(isoDate(ms), new Date(ms).toISOString(), String(ms));
		}
		assert.throws(() => isoDate(Number.NaN), RangeError);
	});

	it('answers repeated times, and times of the same or the next second, as toISOString does', () => {
		// Runs of one time or one second, as files written together have: the remembered second
		// must never leak into the next time.
		const times = [1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_999, 1_700_000_001_000, -0, 0, 0.5, 0.5, 1_700_000_000_000, -1, -1, -999, -1000, -1001];
		for (const ms of times) {
			assert.equal(isoDate(ms), new Date(ms).toISOString(), String(ms));
		}
		assert.throws(() => isoDate(Number.NaN), RangeError);
		assert.equal(isoDate(-1), new Date(-1).toISOString());
	});
});
