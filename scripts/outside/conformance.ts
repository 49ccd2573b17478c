// @modelcontextprotocol/conformance against the headless host, once per protocol era: the 2025
// scenarios at --spec-version 2025-11-25 (initialize, sessions, subscribe) and the 2026-07-28
// scenarios (stateless POST, per-request _meta, server/discover, caching hints, header checks,
// -32602 for unknown resources). Only scenarios that apply to a resources server are listed: the
// rest need a test server's own tools, prompts or test:// fixtures (see `conformance list --server`).
//
// Each era has its own baseline file (conformance's --expected-failures format), because the same
// scenario name (resources-list, dns-rebinding-protection, ...) runs in both eras and must be
// judged per era. A per-check entry (`scenario:check-id`) is accepted here only while every failing
// occurrence of that check says "Not testable: ..." (conformance's own words for a check that needs
// a tool the server does not have): a real failure of an excused check id still fails the run. A
// warning (a SHOULD) under a per-check entry passes, as conformance itself then exits 0: such an
// entry is for a check that needs a hook of conformance's test server. A
// whole-scenario entry counts the scenario as a known failure. A baselined check that passes fails
// the run (conformance exits 1: stale entry).
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { mapLimited } from '../lib/mapLimited.js';
import type { OutsideTools, Verdict } from './context.js';

/** A check conformance wrote to checks.json. */
export interface ConformanceCheck { id: string; status: string; errorMessage?: string }

/** A baseline entry: a whole scenario, or one check of it (`scenario:check-id`). */
export interface BaselineEntry { scenario: string; check?: string }

interface Era { specVersion: string; baseline: string; scenarios: string[] }

interface ScenarioJob { era: Era; scenario: string; baselineFile: string; entries: BaselineEntry[] }

interface ScenarioOutcome { specVersion: string; scenario: string; ok: Verdict; detail: string; stdout: string }

/** The scenario sets, per era. */
export const CONFORMANCE_RUNS: Era[] = [
	{
		specVersion: '2025-11-25',
		baseline: 'conformance-baseline.yml',
		scenarios: [
			'server-initialize', 'server-session-lifecycle', 'ping', 'resources-list', 'resources-subscribe',
			'resources-unsubscribe', 'server-sse-multiple-streams', 'dns-rebinding-protection',
		],
	},
	{
		specVersion: '2026-07-28',
		baseline: 'conformance-baseline-2026-07-28.yml',
		scenarios: [
			'server-stateless', 'resources-list', 'sep-2164-resource-not-found', 'caching',
			'http-header-validation', 'dns-rebinding-protection', 'server-sse-multiple-streams',
		],
	},
];

/**
 * Entries of a baseline file's flat `server:` list: `{ scenario }` for a whole scenario,
 * `{ scenario, check }` for one check (`scenario:check-id`).
 */
export function readBaseline(file: string): BaselineEntry[] {
	if (!existsSync(file)) {
		return [];
	}
	const entries: BaselineEntry[] = [];
	let inServer = false;
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		if (/^\S/.test(line)) {
			inServer = /^server:\s*(\[\])?\s*(#.*)?$/.test(line);
		} else if (inServer) {
			const match = /^\s+-\s+([^\s#]+)/.exec(line);
			if (match) {
				const [scenario, check] = match[1].split(':');
				entries.push(check ? { scenario, check } : { scenario });
			}
		}
	}
	return entries;
}

const PARALLEL = 4;

/**
 * Runs every scenario of every era, a few side by side (each is its own set of connections),
 * and records them in the listed order; `url` is the host's (through the proxy that adds the token).
 */
export async function conformanceChecks(ctx: OutsideTools & { url: string }): Promise<void> {
	const jobs: ScenarioJob[] = CONFORMANCE_RUNS.flatMap(era => {
		const baselineFile = path.join(ctx.baselineDir, era.baseline);
		const entries = readBaseline(baselineFile);
		return era.scenarios.map(scenario => ({ era, scenario, baselineFile, entries: entries.filter(e => e.scenario === scenario) }));
	});
	// A few at a time: some checks wait a second or so for a listen frame, and fifteen Node
	// processes at once on two cores were enough to make one miss it.
	const outcomes = await mapLimited(jobs, PARALLEL, job => runScenario(ctx, job));
	for (const outcome of outcomes) {
		if (ctx.verbose) {
			console.log(outcome.stdout);
		}
		ctx.record(`conformance ${outcome.specVersion}`, outcome.scenario, outcome.ok, outcome.detail);
	}
}

async function runScenario(ctx: OutsideTools & { url: string }, { era, scenario, baselineFile, entries }: ScenarioJob): Promise<ScenarioOutcome> {
	const outDir = path.join(ctx.tmp, 'conformance', era.specVersion, scenario);
	mkdirSync(outDir, { recursive: true });
	const args = [ctx.conformance, 'server', '--url', ctx.url, '--scenario', scenario, '--spec-version', era.specVersion, '-o', outDir];
	if (entries.length > 0) {
		args.push('--expected-failures', baselineFile);
	}
	const result = await ctx.run(ctx.node22, args, { cwd: ctx.tmp });
	const verdict = judgeScenario({ checks: collectChecks(outDir), entries, exitCode: result.code, baselineName: path.basename(baselineFile) });
	const exit = verdict.checks === 0 ? `; exit ${result.code}: ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' | ')}` : '';
	return { specVersion: era.specVersion, scenario, ok: verdict.ok, detail: verdict.detail + exit, stdout: result.stdout };
}

/**
 * One scenario's verdict from the checks conformance wrote, the baseline entries for that scenario
 * and conformance's exit code: `ok` is true, false, or 'known' (a baselined real failure).
 */
export function judgeScenario({ checks, entries, exitCode, baselineName }: { checks: ConformanceCheck[]; entries: BaselineEntry[]; exitCode: number | null; baselineName: string }): { ok: Verdict; detail: string; checks: number } {
	const failed = checks.filter(c => c.status === 'FAILURE');
	const excusedIds = new Set(entries.flatMap(e => e.check ? [e.check] : []));
	// A baselined warning is one conformance was told of (it then exits 0): a check that needs a hook of its test server.
	const warnings = checks.filter(c => c.status === 'WARNING' && !excusedIds.has(c.id));
	const excusedWarnings = checks.filter(c => c.status === 'WARNING' && excusedIds.has(c.id));
	const wholesale = entries.some(e => !e.check);
	const excused = excusedIds;
	const untestable = failed.filter(c => excused.has(c.id) && /^Not testable:/.test(c.errorMessage ?? ''));
	const knownReal = failed.filter(c => (wholesale || excused.has(c.id)) && !untestable.includes(c));
	const unexpected = failed.filter(c => !wholesale && !excused.has(c.id));
	// A per-check entry excuses "Not testable" only: a real failure of an excused check id (another
	// case sharing the id) fails the scenario, unless the whole scenario is baselined.
	const realUnderCheckEntry = wholesale ? [] : knownReal;
	// conformance exits 0 when every failure is baselined and 1 on a regression or a stale entry.
	const ok: Verdict = exitCode !== 0 || checks.length === 0 || unexpected.length > 0 || realUnderCheckEntry.length > 0 ? false : knownReal.length > 0 ? 'known' : true;
	const describe = (list: ConformanceCheck[]) => list.map(c => `${c.id}: ${(c.errorMessage ?? '').split('\n')[0].slice(0, 240)}`).join('; ');
	const detail = [
		`${checks.filter(c => c.status === 'SUCCESS').length} checks passed`,
		untestable.length ? `not testable without the test server's diagnostic tools (baselined): ${[...new Set(untestable.map(c => c.id))].join(', ')}` : '',
		excusedWarnings.length ? `baselined warnings (need a hook of the test server): ${[...new Set(excusedWarnings.map(c => c.id))].join(', ')}` : '',
		knownReal.length ? `${wholesale ? 'known failures' : 'failed (baselined only as not testable)'}: ${describe(knownReal)}` : '',
		unexpected.length ? `failed: ${describe(unexpected)}` : '',
		// Under --expected-failures conformance also fails a run on a warning it was not told about.
		warnings.length ? `warnings${entries.length ? ' (fail the run under a baseline)' : ''}: ${describe(warnings)}` : '',
		exitCode !== 0 && failed.length === 0 && warnings.length === 0 && excusedWarnings.length === 0 && checks.length > 0 ? `stale baseline entry: every check passes, remove it from ${baselineName}` : '',
		checks.length === 0 ? 'no checks written' : '',
	].filter(Boolean).join('; ');
	return { ok, detail, checks: checks.length };
}

/** The checks conformance wrote (checks.json somewhere under the output folder). */
function collectChecks(dir: string): ConformanceCheck[] {
	const found: ConformanceCheck[] = [];
	const walk = (d: string) => {
		for (const entry of (existsSync(d) ? readdirSync(d, { withFileTypes: true }) : [])) {
			const full = path.join(d, entry.name);
			if (entry.isDirectory()) {
				walk(full);
			} else if (entry.name === 'checks.json') {
				try {
					const checks: unknown = JSON.parse(readFileSync(full, 'utf8'));
					if (Array.isArray(checks)) {
						found.push(...checks as ConformanceCheck[]);
					}
				} catch {
					// an unreadable file reads as no checks: the scenario then fails with its exit output
				}
			}
		}
	};
	walk(dir);
	return found;
}
