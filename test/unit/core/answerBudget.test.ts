import * as assert from 'node:assert/strict';
import { fitJson, fitsJson, jsonBytes } from '../../../src/core/answerBudget';

describe('the answer budget', () => {
	it('count the bytes of text as JSON.stringify writes it, escapes, controls, UTF-8 and lone surrogates alike', () => {
		const samples = ['plain', 'quote " and \\ slash', 'tab\tnew\nline\r\u0008\u000c', '\u0001\u001b[31m\u007f', 'é中😀', '\ud800 lone \udc00', ''];
		for (const sample of samples) {
			assert.equal(jsonBytes(sample), Buffer.byteLength(JSON.stringify(sample), 'utf8') - 2, JSON.stringify(sample));
		}
	});

	it('tell whether a text fits as its count says, with or without counting it (controls grow sixfold)', () => {
		const samples = ['plain', 'quote " and \\ slash', '\u0001\u0002\u0003\u0004', '\u001b'.repeat(40), 'é中😀', '\ud800 lone \udc00', ''];
		for (const sample of samples) {
			for (let budget = 0; budget <= 260; budget++) {
				assert.equal(fitsJson(sample, Buffer.byteLength(sample, 'utf8'), budget), jsonBytes(sample) <= budget, `${JSON.stringify(sample)} in ${budget}`);
			}
		}
	});

	it('stop before the character that would pass the budget', () => {
		assert.deepEqual(fitJson('ab"cd', 0, 5, 3), { end: 2, bytes: 2 });
		assert.deepEqual(fitJson('ab"cd', 0, 5, 4), { end: 3, bytes: 4 });
		assert.deepEqual(fitJson('x😀', 0, 3, 4), { end: 1, bytes: 1 }, 'a pair is never split');
	});
});
