import * as assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { TextQuery } from '../../../../src/core/search/searchQuery';
import { TextMatcher } from '../../../../src/core/search/textMatcher';
import { RE2JS } from 're2js';

const query = (q: string, options: Partial<TextQuery> = {}): TextQuery => ({ kind: 'text', q, regex: false, caseSensitive: false, word: false, globs: [], max: 5000, ...options });

/**
 * `mayMatchBytes` looks at a file's bytes before they are decoded (case-folding queries: read as
 * Latin-1): it may let through a file without a match, never rule out one with a match.
 */
describe('search text matcher: the look at the bytes', () => {
	const unit = fc.constantFrom('a', 'B', 'e', 'E', 'x', 'X', 'é', 'É', 'ſ', 'K', '\u212a', '(', ' ', '\n', '.', '_');

	it('property: any text a query finds a line in, its bytes may match, literals and regexes, any case', () => {
		const literal = fc.string({ unit, minLength: 1, maxLength: 6 });
		fc.assert(fc.property(fc.string({ unit, maxLength: 200 }), literal, fc.boolean(), fc.boolean(), (text, q, caseSensitive, regex) => {
			const source = regex ? `${q.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\w*` : q;
			const matcher = TextMatcher.compile(query(source, { caseSensitive, regex }));
			if (matcher.scan(text, 1).length > 0) {
				assert.ok(matcher.mayMatchBytes(Buffer.from(text, 'utf8')), `${JSON.stringify(source)} in ${JSON.stringify(text)}`);
			}
		}), { numRuns: 2000 });
	});

	it('rules out bytes without the literal in any case, and lets through the literal in another case', () => {
		for (const q of [query('Exception('), query('[A-Z][a-z]+Exception\\(', { regex: true })]) {
			const matcher = TextMatcher.compile(q);
			assert.ok(matcher.mayMatchBytes(Buffer.from('throw new RangeEXCEPTION(1)')), q.q);
			assert.ok(!matcher.mayMatchBytes(Buffer.from('throw new RangeError(1); // no exception here')), q.q);
		}
		// Not ASCII: its bytes are not its characters, so nothing is ruled out before decoding.
		assert.ok(TextMatcher.compile(query('émile')).mayMatchBytes(Buffer.from('nothing like it')));
	});
});

/**
 * `case=false` folds letters as RE2 does (and ripgrep): Unicode's simple case folding, where σ
 * and ς, ſ and s, the Kelvin sign and k are the same letter. The lines a query finds are the
 * lines RE2 finds the same pattern in, for literals and for regexes alike.
 */
describe('search text matcher: case folding as RE2 folds', () => {
	const unit = fc.constantFrom('a', 'k', 'K', '\u212a', 's', 'S', '\u017f', '\u03c3', '\u03c2', '\u03a3', '\u03b8', '\u03d1', '\u2126', '\u03c9', 'e', 'É', 'é', ' ', '\n');
	const re2Lines = (pattern: string, text: string) =>
		text.split('\n').flatMap((line, i) => (RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE).matcher(line).find() ? [i + 1] : []));

	it('property: a case-folding query finds a line exactly when RE2 finds the pattern in it', () => {
		const literal = fc.string({ unit: unit.filter(c => c !== '\n' && c !== ' '), minLength: 1, maxLength: 5 });
		fc.assert(fc.property(fc.string({ unit, maxLength: 120 }), literal, fc.boolean(), (text, q, regex) => {
			const source = regex ? `${q}\\w*` : q;
			const found = TextMatcher.compile(query(source, { regex })).scan(text, 10_000).map(hit => hit.line);
			assert.deepEqual(found, re2Lines(regex ? source : RE2JS.quote(q), text), `${JSON.stringify(source)} in ${JSON.stringify(text)}`);
		}), { numRuns: 2000 });
	});

	it('finds final sigma for sigma and the long s for s, in a regex whose literal a line holds in another form', () => {
		assert.deepEqual(TextMatcher.compile(query('λόγοσ\\s', { regex: true })).scan('x\nΛΌΓΟς \n', 10).map(h => h.line), [2]);
		assert.deepEqual(TextMatcher.compile(query('ask\\d+', { regex: true })).scan('a\u017f\u212a42', 10).map(h => h.line), [1]);
		assert.deepEqual(TextMatcher.compile(query('ask')).scan('A\u017f\u212a', 10).map(h => h.line), [1]);
	});
});
