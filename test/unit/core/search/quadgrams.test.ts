import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { literalProbes, mayHoldAll, quadgramSignature } from '../../../../src/core/search/quadgrams';

/**
 * The signature as defined (quadgrams.ts), in plain JavaScript: the WASM loop must set the very
 * bits this sets, or caches written before it and the probes of `mayHoldAll` would disagree.
 */
function definedSignature(bytes: Uint8Array): Int32Array {
	const fold = (b: number) => (b >= 0x41 && b <= 0x5a ? b | 0x20 : b);
	const single = bytes.length <= 65_536 + 1024;
	const partWords = Math.max(64, ((single ? bytes.length : 65_536 + 1024) + 31) & ~31) >>> 5;
	const parts = single ? 1 : Math.ceil((bytes.length - 1024) / 65_536);
	const signature = new Int32Array(1 + parts * partWords);
	signature[0] = partWords;
	for (let part = 0; part < parts; part++) {
		const from = part * 65_536;
		const to = Math.min(bytes.length, from + 65_536 + 1024);
		for (let i = from + 3; i < to; i++) {
			const key = (fold(bytes[i - 3]) << 24) | (fold(bytes[i - 2]) << 16) | (fold(bytes[i - 1]) << 8) | fold(bytes[i]);
			const bit = Math.floor((Math.imul(key, 0x9e3779b1) >>> 0) * partWords * 32 / 2 ** 32);
			signature[1 + part * partWords + (bit >>> 5)] |= 1 << (bit & 31);
		}
	}
	return signature;
}

describe('4-gram signatures are the bits their definition sets', () => {
	it('property: any bytes, from empty to several 64 KB parts, in any case', () => {
		const sizes = fc.oneof(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 65_000, max: 67_700 }), fc.integer({ min: 0, max: 300_000 }));
		fc.assert(fc.property(sizes, fc.integer(), (size, seed) => {
			const bytes = new Uint8Array(size);
			let state = seed | 1;
			for (let i = 0; i < size; i++) {
				state ^= state << 13;
				state ^= state >>> 17;
				state ^= state << 5;
				// Mostly letters of both cases (folded or not), some other ASCII and high bytes.
				const r = (state >>> 0) % 100;
				bytes[i] = r < 70 ? 0x41 + (r % 26) + (r % 2) * 0x20 : r < 90 ? 0x20 + r : 0x80 + r;
			}
			assert.deepEqual(quadgramSignature(bytes), definedSignature(bytes));
		}), { numRuns: 200 });
	});

	it('a file of real text: this test\'s own source', () => {
		const bytes = readFileSync(__filename);
		assert.deepEqual(quadgramSignature(bytes), definedSignature(bytes));
	});
});

/** Filler that holds no letter of the literals below, so a literal is only where it is put. */
const filler = (n: number) => Buffer.alloc(n, '.');

describe('4-gram signatures never rule out a file that holds the literal', () => {
	it('property: a literal anywhere in a text of up to 300 KB, across the 64 KB parts too, in either case', () => {
		const literal = fc.string({ unit: fc.constantFrom('a', 'B', 'c', '_', 'é', '9'), minLength: 4, maxLength: 40 });
		fc.assert(fc.property(literal, fc.integer({ min: 0, max: 300_000 }), fc.constantFrom(0, 65_536 - 3, 65_536, 131_072 - 20), fc.boolean(), (text, size, near, upper) => {
			const at = Math.min(size, near || size);
			const bytes = Buffer.concat([filler(at), Buffer.from(upper ? text.toUpperCase() : text, 'utf8'), filler(Math.max(0, size - at))]);
			const signature = quadgramSignature(bytes);
			assert.ok(mayHoldAll(signature, 0, signature.length, literalProbes(text, false)), `${text} at ${at} of ${bytes.length}`);
			if (!upper) {
				assert.ok(mayHoldAll(signature, 0, signature.length, literalProbes(text, true)), `${text} (case-sensitive) at ${at}`);
			}
		}), { numRuns: 300 });
	});

	it('property: a signature probed where it lies among others, probes reordered by earlier files, answers as alone', () => {
		const word = fc.string({ unit: fc.constantFrom('a', 'b', 'C', 'd', '_', '('), minLength: 4, maxLength: 12 });
		fc.assert(fc.property(fc.array(fc.array(word, { maxLength: 30 }), { minLength: 1, maxLength: 6 }), word, (texts, literal) => {
			const signatures = texts.map(words => quadgramSignature(Buffer.from(words.join(' '))));
			const words = new Int32Array(signatures.reduce((n, sig) => n + sig.length, 3));
			const probes = literalProbes(literal, false);
			let at = 3;
			for (const signature of signatures) {
				words.set(signature, at);
				const alone = mayHoldAll(signature, 0, signature.length, literalProbes(literal, false));
				assert.equal(mayHoldAll(words, at, at + signature.length, probes), alone);
				at += signature.length;
			}
		}), { numRuns: 300 });
	});

	it('rules out a literal none of whose grams are there', () => {
		const signature = quadgramSignature(Buffer.from('export function activate() { return 1; }\n'.repeat(100)));
		assert.ok(mayHoldAll(signature, 0, signature.length, literalProbes('ACTIVATE', false)));
		assert.ok(!mayHoldAll(signature, 0, signature.length, literalProbes('deactivateEverything', false)));
	});
});
