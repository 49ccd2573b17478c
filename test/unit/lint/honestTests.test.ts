import * as assert from 'node:assert/strict';
import { lintAs } from './linter';

/** Each way a check can be left unawaited, so that it passes whatever happens, with the rule that refuses it. */
const PROBE = `import * as assert from 'node:assert/strict';
describe('probe', () => {
	it('leaves its checks unawaited', async () => {
		assert.rejects(Promise.reject(new Error('x')));
		void assert.rejects(Promise.reject(new Error('x')));
		void assert.doesNotReject(Promise.resolve());
		[Promise.resolve()].forEach(p => assert.doesNotReject(p));
		setTimeout(async () => assert.ok(await Promise.resolve(false)), 1);
		await assert.rejects(Promise.reject(new Error('awaited: fine')));
	});
});
`;

describe('lint refuses tests whose checks cannot fail them', function () {
	this.timeout(120_000);

	for (const file of ['test/unit/lint/honestTests.test.ts', 'test/vscode/commands.test.ts']) {
		// Linted as if it stood in a real file of a plain-Node suite and of the in-editor suite.
		it(`${file}: an un-awaited, voided or callback-returned promise check`, async () => {
			const found = (await lintAs(file, PROBE)).map(m => [m.line, m.ruleId]);
			assert.deepEqual(found, [
				[4, '@typescript-eslint/no-floating-promises'],
				[5, 'no-restricted-syntax'],
				[6, 'no-restricted-syntax'],
				[7, '@typescript-eslint/no-misused-promises'],
				[8, '@typescript-eslint/no-misused-promises'],
			]);
		});
	}
});
