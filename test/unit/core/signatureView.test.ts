import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { applyEdits, Edit } from '../../../src/core/symbols/signatureView';

const SEED = 20261129;

/** The edits applied as before: every edit looked at, in order, for every span. */
function applyEveryEdit(text: string, from: number, to: number, edits: readonly Edit[]): string {
	let out = '';
	let at = from;
	for (const edit of edits) {
		if (edit.start < at || edit.end > to || edit.start < from) {
			continue;
		}
		out += text.slice(at, edit.start) + edit.text;
		at = edit.end;
	}
	return out + text.slice(at, to);
}

/** `edits` behind a proxy that counts how many of them are read. */
function counted(edits: readonly Edit[]): { edits: readonly Edit[]; reads: () => number } {
	let reads = 0;
	const proxy = new Proxy(edits, {
		get(target, key, receiver) {
			if (typeof key === 'string' && /^\d+$/.test(key)) {
				reads++;
			}
			return Reflect.get(target, key, receiver) as unknown;
		},
	});
	return { edits: proxy, reads: () => reads };
}

describe('signatures view: applying the edits of one declaration', () => {
	it('reads only the edits inside the declaration, not every edit of the file', () => {
		// One edit per line of a file of 10,000 declarations, as a file of one-line functions has.
		const lines = Array.from({ length: 10_000 }, (_, i) => `function f${i}() { return ${i}; }`);
		const text = lines.join('\n');
		const edits: Edit[] = [];
		let offset = 0;
		for (const line of lines) {
			const body = offset + line.indexOf(' {');
			edits.push({ start: body, end: offset + line.length, text: ' { … }' });
			offset += line.length + 1;
		}
		const at = lines.slice(0, 5000).join('\n').length + 1;
		const { edits: proxy, reads } = counted(edits);
		assert.equal(applyEdits(text, at, at + lines[5000].length, proxy), 'function f5000() { … }');
		// A binary search (14 steps for 10,000) and the span's own edits, with one past its end.
		assert.ok(reads() <= 20, `${reads()} of ${edits.length} edits read for one declaration`);
	});

	it('gives what going through every edit gives, for any sorted edits and span', () => {
		const text = 'abcdefghijklmnopqrstuvwxyz0123456789';
		const edit = fc.tuple(fc.nat(text.length), fc.nat(6), fc.constantFrom('', '…', ' { … }', 'X'))
			.map(([start, length, replacement]) => ({ start, end: Math.min(text.length, start + length), text: replacement }));
		const cases = fc.record({
			edits: fc.array(edit, { maxLength: 12 }).map(es => [...es].sort((a, b) => a.start - b.start || a.end - b.end)),
			from: fc.nat(text.length),
			length: fc.nat(text.length),
		});
		fc.assert(fc.property(cases, ({ edits, from, length }) => {
			const to = Math.min(text.length, from + length);
			assert.equal(applyEdits(text, from, to, edits), applyEveryEdit(text, from, to, edits));
		}), { seed: SEED, numRuns: 2000 });
	});
});
