import * as assert from 'node:assert/strict';
import { GrowArray } from '../../../src/core/files/growArray';
import { NameBuffer } from '../../../src/core/files/nameBuffer';

describe('compact index storage', () => {
	it('keeps numbers across chunks as it grows, whole and fractional', () => {
		const ids = new GrowArray('uint32');
		const lengths = new GrowArray('uint16');
		const times = new GrowArray('float64');
		const count = 200_000; // a few chunks of 65,536
		for (let i = 0; i < count; i++) {
			ids.reserve(i + 1);
			lengths.reserve(i + 1);
			times.reserve(i + 1);
			ids.set(i, (i * 2_654_435_761) >>> 0);
			lengths.set(i, i & 0xffff);
			times.set(i, 1_700_000_000_000 + i + 0.25);
		}
		for (const i of [0, 65_535, 65_536, 131_071, 131_072, count - 1]) {
			assert.equal(ids.get(i), (i * 2_654_435_761) >>> 0);
			assert.equal(lengths.get(i), i & 0xffff);
			assert.equal(times.get(i), 1_700_000_000_000 + i + 0.25);
		}
	});

	it('holds the longest names any file system allows, and refuses one no file system could hold', () => {
		const names = new NameBuffer();
		// 255 UTF-16 units (the macOS and Windows limit) of 3-byte and of 4-byte characters.
		const longest = ['€'.repeat(255), '😀'.repeat(127) + 'x', 'a'.repeat(255)];
		names.reserve(longest.length + 1);
		longest.forEach((name, i) => names.set(i, name));
		longest.forEach((name, i) => assert.equal(names.get(i), name));
		assert.throws(() => names.set(longest.length, 'ü'.repeat(40_000)), RangeError);
		longest.forEach((name, i) => assert.equal(names.get(i), name, 'the refused name left the others as they were'));
	});

	it('reads back every name when names fill several buffers, and after dead ones are reclaimed', async () => {
		const names = new NameBuffer();
		// Long multi-byte names: about 3 MB, so names meet the end of a 1 MB buffer.
		const name = (i: number) => `${'ü'.repeat(100 + (i % 27))}-${i}.txt`;
		const count = 12_000;
		for (let i = 0; i < count; i++) {
			names.reserve(i + 1);
			names.set(i, name(i));
		}
		for (let i = 0; i < count; i++) {
			assert.equal(names.get(i), name(i));
		}
		for (let i = 0; i < count; i++) {
			if (i % 10 !== 0) {
				names.release(i);
			}
		}
		await names.compact(count, () => undefined);
		for (let i = 0; i < count; i += 10) {
			assert.equal(names.get(i), name(i));
		}
		names.reserve(count + 1);
		names.set(count, name(count));
		assert.equal(names.get(count), name(count));
	});
});
