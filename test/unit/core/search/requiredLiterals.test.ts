import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { requiredLiterals } from '../../../../src/core/search/requiredLiterals';

describe('the literals every match of a regex must hold', () => {
	it('reads plain runs, cut by classes, groups, anchors and escapes; drops what a quantifier makes optional', () => {
		assert.deepEqual(requiredLiterals('function\\s+\\w+Error'), [['function', 'Error']]);
		assert.deepEqual(requiredLiterals('import .* from [\'"]react'), [['import ', ' from ', 'react']]);
		assert.deepEqual(requiredLiterals('colou?r'), [['colo']]);
		assert.deepEqual(requiredLiterals('ab+cd'), [['ab', 'cd']]);
		assert.deepEqual(requiredLiterals('x{0,3}yz'), [['yz']]);
		assert.deepEqual(requiredLiterals('a\\.b\\(c'), [['a.b(c']]);
		assert.deepEqual(requiredLiterals('^foo(bar|baz)$'), [['foo']]);
		assert.deepEqual(requiredLiterals('get|set(ter)'), [['get'], ['set']]);
	});

	it('gives up where nothing is certain: a branch without a literal, or brackets that do not balance', () => {
		assert.equal(requiredLiterals('\\w+'), undefined);
		assert.equal(requiredLiterals('foo|\\d+'), undefined);
		assert.equal(requiredLiterals('(foo'), undefined);
		assert.equal(requiredLiterals('[abc'), undefined);
		assert.equal(requiredLiterals('(foo)bar'.slice(0, 5)), undefined);
	});

	it('property: a line RE2 matches holds every literal of some alternative', () => {
		const atom = fc.constantFrom('a', 'b', 'ab', 'x', '.', '\\w', '[ab]', '(a|b)', '\\.', '\\(', 'é', '^', '$', '\\b');
		const quant = fc.constantFrom('', '', '', '?', '*', '+', '{2}', '{0,2}', '{1,3}?');
		const piece = fc.tuple(atom, quant).map(([a, q]) => (['^', '$', '\\b'].includes(a) ? a : a + q));
		const pattern = fc.array(fc.array(piece, { minLength: 1, maxLength: 6 }).map(p => p.join('')), { minLength: 1, maxLength: 3 }).map(bs => bs.join('|'));
		const line = fc.string({ unit: fc.constantFrom('a', 'b', 'x', '.', '(', 'é', ' ', 'A'), maxLength: 20 });
		fc.assert(fc.property(pattern, line, (p, text) => {
			let re: RE2JS;
			try {
				re = RE2JS.compile(p);
			} catch {
				return; // not a pattern RE2 takes: a search refuses it before this matters
			}
			const plan = requiredLiterals(p);
			if (plan && re.test(text)) {
				assert.ok(plan.some(set => set.every(l => text.includes(l))), `${p} matched ${JSON.stringify(text)} without ${JSON.stringify(plan)}`);
			}
		}), { numRuns: 3000 });
	});
});
