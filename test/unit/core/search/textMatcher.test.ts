import * as assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { TextQuery } from '../../../../src/core/search/searchQuery';
import { TextMatcher } from '../../../../src/core/search/textMatcher';

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
