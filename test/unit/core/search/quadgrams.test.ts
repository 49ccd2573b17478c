import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { literalKeys, mayHoldAll, quadgramSignature } from '../../../../src/core/search/quadgrams';

/** Filler that holds no letter of the literals below, so a literal is only where it is put. */
const filler = (n: number) => Buffer.alloc(n, '.');

describe('4-gram signatures never rule out a file that holds the literal', () => {
	it('property: a literal anywhere in a text of up to 300 KB, across the 64 KB parts too, in either case', () => {
		const literal = fc.string({ unit: fc.constantFrom('a', 'B', 'c', '_', 'é', '9'), minLength: 4, maxLength: 40 });
		fc.assert(fc.property(literal, fc.integer({ min: 0, max: 300_000 }), fc.constantFrom(0, 65_536 - 3, 65_536, 131_072 - 20), fc.boolean(), (text, size, near, upper) => {
			const at = Math.min(size, near || size);
			const bytes = Buffer.concat([filler(at), Buffer.from(upper ? text.toUpperCase() : text, 'utf8'), filler(Math.max(0, size - at))]);
			const signature = quadgramSignature(bytes);
			assert.ok(mayHoldAll(signature, literalKeys(text, false)), `${text} at ${at} of ${bytes.length}`);
			if (!upper) {
				assert.ok(mayHoldAll(signature, literalKeys(text, true)), `${text} (case-sensitive) at ${at}`);
			}
		}), { numRuns: 300 });
	});

	it('rules out a literal none of whose grams are there', () => {
		const signature = quadgramSignature(Buffer.from('export function activate() { return 1; }\n'.repeat(100)));
		assert.ok(mayHoldAll(signature, literalKeys('ACTIVATE', false)));
		assert.ok(!mayHoldAll(signature, literalKeys('deactivateEverything', false)));
	});
});
