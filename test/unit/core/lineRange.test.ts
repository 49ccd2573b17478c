import * as assert from 'node:assert/strict';
import { InvalidParams } from '../../../src/core/errors';
import { parseLineRange, sliceLines } from '../../../src/core/ranges/lineRange';
import { dottedNames, findSymbol } from '../../../src/core/ranges/rangesProvider';
import { sym } from '../../fakes/fakeOutline';

describe('line ranges', () => {
	it('parse N, N-M and N- (1-based, inclusive) and refuse everything else by name', () => {
		assert.deepEqual(parseLineRange('12'), { start: 12, end: 12 });
		assert.deepEqual(parseLineRange('12-40'), { start: 12, end: 40 });
		assert.deepEqual(parseLineRange('12-'), { start: 12, end: undefined });
		for (const bad of ['0', '0-3', '-3', '3-2', 'a', '1-2-3', ' 1', '1e3', '', '99999999999']) {
			assert.throws(() => parseLineRange(bad), (err: Error) => err instanceof InvalidParams && /N, N-M or N-|end comes before/.test(err.message), bad);
		}
	});

	it('slice lines with their endings, clamp the end, and say how many lines a file has', () => {
		const text = 'one\ntwo\r\nthree\nfour';
		assert.deepEqual(sliceLines(text, { start: 2, end: 3 }), { text: 'two\r\nthree\n', start: 2, end: 3, totalLines: 4, cut: undefined });
		assert.equal(sliceLines(text, { start: 4 }).text, 'four');
		assert.equal(sliceLines(text, { start: 3, end: 99 }).end, 4);
		assert.equal(sliceLines('a\nb\n', { start: 2 }).text, 'b\n');
		assert.equal(sliceLines('a\nb\n', { start: 2 }).totalLines, 2, 'a final newline ends a line, it starts none');
		assert.throws(() => sliceLines(text, { start: 5 }), /Line 5 is past the end: the file has 4 lines/);
		assert.throws(() => sliceLines('', { start: 1 }), /the file has 0 lines/);
	});

	it('cut a range at the line cap and say so', () => {
		const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
		const sliced = sliceLines(text, { start: 11 }, { maxLines: 10, maxBytes: 1000 });
		assert.equal(sliced.end, 20);
		assert.equal(sliced.cut, 'lines');
		assert.ok(sliced.text.startsWith('line 11\n') && sliced.text.endsWith('line 20\n'));
	});

	it('cut a range at the last whole line under the byte cap, counting bytes as JSON writes them', () => {
		// Each line is 9 bytes as text but 11 in JSON (the quotes and the newline are escaped).
		const text = Array.from({ length: 10 }, (_, i) => `"row ${i}"`).join('\n') + '\n';
		const caps = { maxLines: 100, maxBytes: 11 * 3 + 5 };
		assert.deepEqual(sliceLines(text, { start: 2 }, caps), { text: '"row 1"\n"row 2"\n"row 3"\n', start: 2, end: 4, totalLines: 10, cut: 'bytes' });
		assert.equal(sliceLines(text, { start: 8 }, { maxLines: 100, maxBytes: 11 * 3 }).cut, undefined, 'a range that just fits is whole');
	});

	it('give the head of a line longer than the byte cap alone, never half a surrogate pair', () => {
		const text = 'short\n' + '😀'.repeat(10) + '\nafter\n';
		const sliced = sliceLines(text, { start: 2, end: 3 }, { maxLines: 100, maxBytes: 4 * 3 + 2 });
		assert.deepEqual(sliced, { text: '😀'.repeat(3), start: 2, end: 2, totalLines: 3, cut: 'inside a line' });
	});

	it('find symbols by dotted name, or by a nested name alone', () => {
		const outline = [sym('Greeter', 'Class', 0, 9, [sym('greet', 'Method', 2, 4)]), sym('main', 'Function', 11, 13)];
		assert.equal(findSymbol(outline, 'Greeter.greet')?.range.start.line, 2);
		assert.equal(findSymbol(outline, 'greet')?.range.start.line, 2);
		assert.equal(findSymbol(outline, 'main')?.kind, 'Function');
		assert.equal(findSymbol(outline, 'Greeter.main'), undefined);
		assert.deepEqual(dottedNames(outline), ['Greeter', 'Greeter.greet', 'main']);
	});
});
