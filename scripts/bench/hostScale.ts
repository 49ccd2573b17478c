#!/usr/bin/env node
// The scale measurement in the real extension host: the packaged extension in code-server on the
// scale bench's generated 100,000-file tree (scripts/bench/scaleTree.mjs, the same tree the
// headless `npm run bench -- --scale` measures), a workbench opened by headless Chromium so the
// extension host starts. Per run (a fresh code-server, so a cold extension host):
//   - index time: the extension's own "indexed N files in X ms" line in its output channel log
//     file (under code-server's user data dir, logs/);
//   - RSS of the extension host process (the pid in the server's lock file, its command line
//     checked for --type=extensionHost): /proc/<pid>/status VmRSS after indexing, after the full
//     listing, and VmHWM (the peak) then;
//   - CPU time of the extension host's main thread (/proc/<pid>/task/<pid>/stat) while indexing
//     and during the full listing: what our work costs the loop, whatever the machine's load;
//   - event-loop delay inside the extension host: VS Code strips NODE_OPTIONS from the extension
//     host's environment, so nothing can be preloaded; instead the host's inspector is opened
//     from outside (SIGUSR1, as `node --inspect` would) and a perf_hooks.monitorEventLoopDelay
//     histogram is started in it over the DevTools protocol (Runtime.evaluate) as soon as the
//     process exists, reset when the server's lock file appears, and read when the index line
//     shows, then around a full listing. The inspector stays attached for the whole run;
//   - the same histogram over 2 s in which nothing of ours runs (a control for the machine's load
//     and the workbench's other extensions);
//   - pings answered (MCP ping over the server's HTTP endpoint, SDK client) while indexing;
//   - first page p50 (21 after 5 warm-up pages), full listing, and the latency of list_changed for
//     a file created and of updated for a subscribed file changed, as the headless scale bench.
//
// `npm run bench:host-scale` or `npm run bench -- --scale --host` (needs `npm run provision`).
// Env: BENCH_HOST_FILES (100000), BENCH_HOST_RUNS (3), BENCH_HOST_NO_INSPECTOR=1 (no delay
// histograms: what the attached inspector costs the other numbers), BENCH_HOST_PROFILE=DIR (a CPU
// profile of the extension host per window, for longTasks.ts), BENCH_HOST_MIN_WINDOW_MS (the
// indexing window lasts at least this long: with BENCH_HOST_FILES=1000, the start-up's own delays
// without our indexing), BENCH_HOST_VSIX (a packaged build to measure instead of this checkout),
// BENCH_HOST_SETTINGS (a JSON object of extra user settings, to see what an editor feature costs:
// '{"http.fetchAdditionalSupport":false}' leaves fetch unpatched, so no system certificates load),
// BENCH_HOST_SWITCH=1 (open the scale bench's git repository of BENCH_HOST_FILES files instead of
// the plain tree, and after the listing switch its branch there and back: hostScaleSwitch.ts),
// BENCH_HOST_SWITCH_ROUNDS (1: switches there and back per window),
// BENCH_HOST_PICKER=1 (click the picker's view open as soon as the server starts: its connection
// and first listing then fall in the indexing window, as for a user who keeps the view open).
// Aims are reported, never asserted.
//
// This file: the parameters, the windows one after another, the result file. One window:
// hostScaleRun.ts; what it reads from outside: hostScaleProbes.ts; its MCP client:
// hostScaleClient.ts; its branch switches: hostScaleSwitch.ts; the tables: hostScaleReport.ts,
// hostScaleSwitchReport.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { ensureProvisioned } from '../lib/vscodeEnv.js';
import { launchBrowser } from '../lib/browser.js';
import { packageExtension } from '../lib/project.js';
import { planScaleTree, prepareScaleTree } from './scaleTree.js';
import { prepareSwitchRepo } from './scaleSwitch.js';
import { printSwitchReport } from './hostScaleSwitchReport.js';
import { round } from './measurement.js';
import { printReport, type HostScaleResults } from './hostScaleReport.js';
import { oneRun } from './hostScaleRun.js';

const FILES = Number(process.env.BENCH_HOST_FILES ?? 100_000);
const RUNS = Math.max(1, Number(process.env.BENCH_HOST_RUNS ?? 3));
/** BENCH_HOST_NO_INSPECTOR=1: no delay histograms, to see what the attached inspector costs. */
const NO_INSPECTOR = process.env.BENCH_HOST_NO_INSPECTOR === '1';
const PROFILE_DIR = process.env.BENCH_HOST_PROFILE ? path.resolve(process.env.BENCH_HOST_PROFILE) : undefined;
const MIN_WINDOW_MS = Number(process.env.BENCH_HOST_MIN_WINDOW_MS ?? 0);
const SETTINGS = JSON.parse(process.env.BENCH_HOST_SETTINGS ?? '{}') as Record<string, unknown>;
const SWITCH = process.env.BENCH_HOST_SWITCH === '1';
const SHOW_PICKER = process.env.BENCH_HOST_PICKER === '1';
const SWITCH_ROUNDS = Math.max(1, Number(process.env.BENCH_HOST_SWITCH_ROUNDS ?? 1));
/** Files the switch branch changes, deletes or adds: as the headless scale bench's switch. */
const SWITCH_CHANGED = 5000;
const log = (msg: string) => process.stderr.write(`${msg}\n`);

await ensureProvisioned();
const vsix = process.env.BENCH_HOST_VSIX ? path.resolve(process.env.BENCH_HOST_VSIX) : await packageExtension();
// The plain tree, or the git repository with its branch to switch to.
const switchRepo = SWITCH ? prepareSwitchRepo(FILES, SWITCH_CHANGED, log) : undefined;
const { workspace, expected, leafDir } = switchRepo
	? { workspace: switchRepo.root, expected: switchRepo.expected.main, leafDir: path.join(switchRepo.root, planScaleTree(FILES).dirs[1]) }
	: (({ tree, expected, leafDir }) => ({ workspace: tree.root, expected, leafDir }))(prepareScaleTree(FILES, log));
const results: HostScaleResults = {
	startedAt: new Date().toISOString(),
	params: { files: FILES, runs: RUNS, inspector: !NO_INSPECTOR, minWindowMs: MIN_WINDOW_MS, settings: SETTINGS, switchChanged: SWITCH ? SWITCH_CHANGED : 0, switchRounds: SWITCH ? SWITCH_ROUNDS : 0, showPicker: SHOW_PICKER },
	env: { cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}`, loadAvgAtStart: os.loadavg().map(v => round(v, 2)) },
	runs: [],
};
const browser = await launchBrowser();
try {
	for (let i = 0; i < RUNS; i++) {
		const run = await oneRun(browser, vsix, workspace, expected, leafDir, i, { noInspector: NO_INSPECTOR, profileDir: PROFILE_DIR, minWindowMs: MIN_WINDOW_MS, settings: SETTINGS, switchRepo, switchRounds: SWITCH_ROUNDS, showPicker: SHOW_PICKER, log });
		run.loadAvg = os.loadavg().map(v => round(v, 2));
		log(`run ${i + 1}: ${JSON.stringify(run)}`);
		results.runs.push(run);
	}
} finally {
	await browser.close();
}
results.env.loadAvgAtEnd = os.loadavg().map(v => round(v, 2));
const outDir = path.join(repoRoot, 'bench-results');
fs.mkdirSync(outDir, { recursive: true });
const file = path.join(outDir, `host-scale-${results.startedAt.replace(/[:.]/g, '-')}.json`);
fs.writeFileSync(file, JSON.stringify(results, null, 2));
printReport(results, expected, file);
if (SWITCH) printSwitchReport(results);
process.exit(results.runs.some(r => r.error) ? 1 : 0);
