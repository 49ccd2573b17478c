import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Check { id: string; status: string; errorMessage?: string }
interface Entry { scenario: string; check?: string }
interface ConformanceModule {
	readBaseline(file: string): Entry[];
	judgeScenario(input: { checks: Check[]; entries: Entry[]; exitCode: number; baselineName: string }): { ok: boolean | 'known'; detail: string };
}

// scripts/outside/conformance.ts decides whether a conformance scenario passes `npm run
// test:outside`. A per-check baseline entry may only excuse what conformance itself calls
// "Not testable"; a real failure under the same check id must still fail the run.
describe('scripts: judging a conformance scenario', () => {
	let conformance: ConformanceModule;
	const untestable: Check = { id: 'sep-x', status: 'FAILURE', errorMessage: 'Not testable: server lists no tools' };
	const judge = (checks: Check[], entries: Entry[], exitCode = 0) => conformance.judgeScenario({ checks, entries, exitCode, baselineName: 'b.yml' });

	before(async () => {
		// The tooling is TypeScript that runs through its own loader: load it the same way.
		const scripts = path.join(__dirname, '../../../../scripts');
		register(pathToFileURL(path.join(scripts, 'bootstrap', 'typescriptHooks.mjs')).href);
		conformance = await import(pathToFileURL(path.join(scripts, 'outside', 'conformance.ts')).href) as ConformanceModule;
	});

	it('passes a scenario whose only failures are excused "Not testable" checks', () => {
		const verdict = judge([{ id: 'ok', status: 'SUCCESS' }, untestable], [{ scenario: 's', check: 'sep-x' }]);
		assert.equal(verdict.ok, true);
		assert.match(verdict.detail, /not testable without the test server's diagnostic tools \(baselined\): sep-x/);
	});

	it('names a baselined warning apart from warnings conformance was not told of', () => {
		const warning: Check = { id: 'sep-w', status: 'WARNING', errorMessage: 'Mutated the tool list but no notification arrived' };
		const verdict = judge([{ id: 'ok', status: 'SUCCESS' }, warning], [{ scenario: 's', check: 'sep-w' }]);
		assert.equal(verdict.ok, true);
		assert.match(verdict.detail, /baselined warnings \(need a hook of the test server\): sep-w/);
		assert.doesNotMatch(verdict.detail, /warnings \(fail the run/);
		assert.match(judge([warning], [{ scenario: 's', check: 'other' }], 1).detail, /warnings \(fail the run under a baseline\): sep-w/);
	});

	it('fails a real failure that shares an excused check id', () => {
		const real: Check = { id: 'sep-x', status: 'FAILURE', errorMessage: 'Expected HTTP 400, got 200' };
		assert.equal(judge([untestable, real], [{ scenario: 's', check: 'sep-x' }]).ok, false);
	});

	it('fails a failure nobody excused, and a run conformance itself failed', () => {
		assert.equal(judge([{ id: 'other', status: 'FAILURE', errorMessage: 'Not testable: x' }], [{ scenario: 's', check: 'sep-x' }], 1).ok, false);
		assert.equal(judge([{ id: 'ok', status: 'SUCCESS' }], [{ scenario: 's', check: 'sep-x' }], 1).ok, false);
		assert.equal(judge([], []).ok, false);
	});

	it('counts a whole-scenario entry as a known failure, apart from passes', () => {
		assert.equal(judge([{ id: 'sep-y', status: 'FAILURE', errorMessage: 'broken' }], [{ scenario: 's' }]).ok, 'known');
	});

	it('reads whole-scenario and per-check entries from a baseline file', () => {
		const dir = mkdtempSync(path.join(os.tmpdir(), 'mwr-baseline-'));
		try {
			const file = path.join(dir, 'b.yml');
			writeFileSync(file, '# comment\nserver:\n  - whole # why\n  - stateless:sep-2575-a\nclient:\n  - not-ours\n');
			assert.deepEqual(conformance.readBaseline(file), [{ scenario: 'whole' }, { scenario: 'stateless', check: 'sep-2575-a' }]);
			writeFileSync(file, 'server: []\n');
			assert.deepEqual(conformance.readBaseline(file), []);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
