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
// histograms: what the attached inspector costs the other numbers). Aims are reported, never asserted.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { ensureProvisioned } from '../lib/vscodeEnv.js';
import { findLogs, startCodeServer } from '../lib/codeServer.js';
import { launchBrowser, newWorkbenchPage } from '../lib/browser.js';
import { cleanupStack, descendants } from '../lib/processes.js';
import { makeMcpHome, packageExtension } from '../lib/project.js';
import { waitForWorkbench } from '../../test/e2e/workbench.js';
import { prepareScaleTree } from './scaleTree.js';
import { measureScaleNotifyLatency } from './notify.js';
import { formatCell, median, medianOf, now, rangeOf, readProcMemory, readThreadCpuMs, round, sleep, summarize, type LatencySummary } from './measurement.js';
import { connectInspector, type HostInspector, type LoopDelay } from './hostInspector.js';
import type { Browser } from 'playwright-core';
import type { ScaleTree } from './scaleTree.js';
import { errorText } from '../lib/errorText.js';

type Memory = Awaited<ReturnType<HostInspector['memory']>>;

/** One cold window (see the header for what each is). */
interface HostRun {
	lockBeforeMonitor?: boolean;
	indexedBeforeLock?: boolean;
	rssAtLockMiB?: number | null;
	indexingWindowMs?: number;
	heapAfterIndex?: Memory | null;
	indexMs?: number;
	indexedFiles?: number;
	rssAfterIndexMiB?: number | null;
	peakRssAfterIndexMiB?: number | null;
	indexingDelay?: LoopDelay | null;
	pingWhileIndexing?: LatencySummary | null;
	idleDelay?: LoopDelay | null;
	firstPageP50Ms?: number | null;
	fullListingMs?: number;
	listingDelay?: LoopDelay | null;
	listedFiles?: number;
	pages?: number;
	problem?: string;
	rssAfterListingMiB?: number | null;
	heapAfterListing?: Memory | null;
	peakRssMiB?: number | null;
	listChangedP50Ms?: number | null;
	updatedP50Ms?: number | null;
	listChangedTimeouts?: number;
	updatedTimeouts?: number;
	error?: string;
	loadAvg?: number[];
	/** CPU time of the extension host's main thread (its event loop) while indexing and while listing. */
	mainThreadCpuIndexingMs?: number | null;
	mainThreadCpuListingMs?: number | null;
	/** The host's clock (µs, its CPU profile's time base) when each phase began. */
	phasesUs?: Record<string, number | null>;
}

/** The inspector's calls, or nothing (BENCH_HOST_NO_INSPECTOR=1). */
type DelaySource = Pick<HostInspector, 'startDelayMonitor' | 'startProfile' | 'stopProfile' | 'close'> & { clockUs(): Promise<number | null> } & { delay(): Promise<LoopDelay | null>; memory(): Promise<Memory | null> };

const FILES = Number(process.env.BENCH_HOST_FILES ?? 100_000);
const RUNS = Math.max(1, Number(process.env.BENCH_HOST_RUNS ?? 3));
/** BENCH_HOST_NO_INSPECTOR=1: no delay histograms, to see what the attached inspector costs. */
const NO_INSPECTOR = process.env.BENCH_HOST_NO_INSPECTOR === '1';
const PROFILE_DIR = process.env.BENCH_HOST_PROFILE ? path.resolve(process.env.BENCH_HOST_PROFILE) : undefined;
const absentInspector: DelaySource = { startDelayMonitor: async () => {}, startProfile: async () => {}, stopProfile: async () => null, clockUs: async () => null, delay: async () => null, memory: async () => null, close: async () => {} };
const CLIENT_INFO = { name: 'mcp-workspace-resources-host-bench', version: '0.1.0' };
const log = (msg: string) => process.stderr.write(`${msg}\n`);

/** Polls `fn` every `everyMs` until it returns a value other than undefined/false. */
async function until<T>(fn: () => T | undefined | false | null | Promise<T | undefined | false | null>, what: string, timeoutMs = 120_000, everyMs = 20): Promise<T> {
	const deadline = now() + timeoutMs;
	for (;;) {
		const v = await fn();
		if (v !== undefined && v !== false && v !== null) return v as T;
		if (now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await sleep(everyMs);
	}
}

const cmdline = (pid: number) => {
	try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '); } catch { return ''; }
};

/** The extension host of this code-server: a descendant whose command line says so. */
function findExtensionHost(serverPid: number | undefined): number | undefined {
	if (serverPid === undefined) return undefined;
	return descendants(serverPid).find(pid => /--type=extensionHost/.test(cmdline(pid)));
}

function readLockFile(home: string): { url: string; token: string; pid: number } | undefined {
	const dir = path.join(home, 'servers');
	if (!fs.existsSync(dir)) return undefined;
	const file = fs.readdirSync(dir).find(f => f.endsWith('.json'));
	if (!file) return undefined;
	try { return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { url: string; token: string; pid: number }; } catch { return undefined; /* being written */ }
}

function indexLine(userDataDir: string): { files: number; ms: number } | undefined {
	const file = findLogs(userDataDir).find(f => f.endsWith('MCP Resources.log'));
	if (!file) return undefined;
	const m = /indexed ([\d,]+) files in ([\d,]+) ms/.exec(fs.readFileSync(file, 'utf8'));
	return m ? { files: Number(m[1].replace(/,/g, '')), ms: Number(m[2].replace(/,/g, '')) } : undefined;
}

async function connectClient(lock: { url: string; token: string }): Promise<Client> {
	const transport = new StreamableHTTPClientTransport(new URL(lock.url), {
		requestInit: { headers: { Authorization: `Bearer ${lock.token}` } },
	});
	const client = new Client(CLIENT_INFO, { capabilities: {} });
	await client.connect(transport);
	return client;
}

async function listAll(client: Client): Promise<{ files: number; pages: number }> {
	let cursor: string | undefined;
	let files = 0;
	let pages = 0;
	do {
		const res = await client.listResources(cursor ? { cursor } : undefined, { timeout: 120_000 });
		pages++;
		files += res.resources.filter(r => r.uri.startsWith('file://')).length;
		cursor = res.nextCursor;
	} while (cursor !== undefined);
	return { files, pages };
}

const mib = (kib: number | null | undefined) => (kib === null || kib === undefined ? null : round(kib / 1024, 1));

async function oneRun(browser: { browser: Browser }, vsix: string, tree: ScaleTree, expected: number, leafDir: string, runIndex: number): Promise<HostRun> {
	const mcpHome = makeMcpHome();
	const cleanups = cleanupStack();
	const r: HostRun = {};
	try {
		const server = await startCodeServer({ workspace: tree.root, env: { MCP_WORKSPACE_RESOURCES_HOME: mcpHome.dir }, installExtensions: [vsix] });
		cleanups.push(() => server.stop({}));
		const { page, context } = await newWorkbenchPage(browser.browser, { origin: server.url });
		cleanups.push(() => context.close());
		await page.goto(server.workbenchUrl(), { waitUntil: 'domcontentloaded', timeout: 60_000 });

		// The extension host as soon as it exists: its event loop is watched from then on.
		const hostPid = await until(() => findExtensionHost(server.pid), 'the extension host process', 120_000, 10);
		const inspector: DelaySource = NO_INSPECTOR ? absentInspector : await connectInspector(hostPid);
		cleanups.push(() => inspector.close());
		await inspector.startDelayMonitor();
		if (PROFILE_DIR) await inspector.startProfile();
		r.lockBeforeMonitor = readLockFile(mcpHome.dir) !== undefined;

		const lock = await until(() => readLockFile(mcpHome.dir), 'the lock file', 120_000, 10);
		if (lock.pid !== hostPid) throw new Error(`the lock file's pid ${lock.pid} is not the extension host ${hostPid}`);
		await inspector.delay(); // from here on: the server listens and indexes
		const lockAt = now();
		const cpuAtLock = readThreadCpuMs(hostPid);
		r.phasesUs = { indexing: await inspector.clockUs() };
		r.indexedBeforeLock = indexLine(server.userDataDir) !== undefined;
		// What the host held before the index was built, for scale: the workbench's own extensions
		// live in the same process.
		r.rssAtLockMiB = mib(readProcMemory(hostPid)?.rssKiB);
		const client = await connectClient(lock);
		cleanups.push(() => client.close());

		const pings: number[] = [];
		let indexed: { files: number; ms: number } | undefined;
		while (!(indexed = indexLine(server.userDataDir))) {
			const t = now();
			await client.ping({ timeout: 60_000 });
			pings.push(now() - t);
			await sleep(20);
		}
		const memory = readProcMemory(hostPid);
		const cpuAtIndexed = readThreadCpuMs(hostPid);
		r.mainThreadCpuIndexingMs = cpuAtLock !== null && cpuAtIndexed !== null ? cpuAtIndexed - cpuAtLock : null;
		const indexing = await inspector.delay();
		r.phasesUs.indexed = await inspector.clockUs();
		r.indexingWindowMs = round(now() - lockAt); // lock file seen to index line seen
		r.heapAfterIndex = await inspector.memory();
		r.indexMs = indexed.ms;
		r.indexedFiles = indexed.files;
		r.rssAfterIndexMiB = mib(memory?.rssKiB);
		r.peakRssAfterIndexMiB = mib(memory?.hwmKiB);
		r.indexingDelay = indexing;
		r.pingWhileIndexing = pings.length ? summarize(pings) : null;
		await waitForWorkbench(page);
		// A control: the same host doing nothing of ours for 2 s, so the delays above can be told
		// from what the machine's load and the workbench's other extensions cause anyway.
		await inspector.delay();
		r.phasesUs.idle = await inspector.clockUs();
		await sleep(2000);
		r.idleDelay = await inspector.delay();
		r.phasesUs.warmup = await inspector.clockUs();

		for (let i = 0; i < 5; i++) await client.listResources(undefined, { timeout: 60_000 });
		const firstPage: number[] = [];
		for (let i = 0; i < 21; i++) {
			const t = now();
			await client.listResources(undefined, { timeout: 60_000 });
			firstPage.push(now() - t);
		}
		r.firstPageP50Ms = round(median(firstPage), 2);

		await inspector.delay();
		r.phasesUs.listing = await inspector.clockUs();
		const t = now();
		const cpuBeforeListing = readThreadCpuMs(hostPid);
		const listed = await listAll(client);
		r.fullListingMs = round(now() - t);
		const cpuAfterListing = readThreadCpuMs(hostPid);
		r.mainThreadCpuListingMs = cpuBeforeListing !== null && cpuAfterListing !== null ? cpuAfterListing - cpuBeforeListing : null;
		r.listingDelay = await inspector.delay();
		r.phasesUs.listed = await inspector.clockUs();
		r.listedFiles = listed.files;
		r.pages = listed.pages;
		if (listed.files !== expected) r.problem = `listed ${listed.files} files, expected ${expected}`;
		const after = readProcMemory(hostPid);
		r.rssAfterListingMiB = mib(after?.rssKiB);
		r.heapAfterListing = await inspector.memory();
		r.peakRssMiB = mib(after?.hwmKiB);
		if (PROFILE_DIR) {
			fs.mkdirSync(PROFILE_DIR, { recursive: true });
			fs.writeFileSync(path.join(PROFILE_DIR, `host-run${runIndex + 1}.cpuprofile`), JSON.stringify(await inspector.stopProfile()));
		}

		Object.assign(r, await measureScaleNotifyLatency(client, leafDir, { prefix: 'host-notify', settleMs: 1500 }));
	} catch (err) {
		r.error = errorText(err);
		log(`  !! ${r.error}`);
	} finally {
		await cleanups.run();
		mcpHome.remove();
	}
	return r;
}

const ROWS: [string, (r: HostRun) => number | null | undefined, string][] = [
	['index (extension log line)', r => r.indexMs, 'ms'],
	['extension host RSS when the server started', r => r.rssAtLockMiB, 'MiB'],
	['extension host RSS after indexing', r => r.rssAfterIndexMiB, 'MiB'],
	['extension host JS heap used after indexing', r => r.heapAfterIndex?.heapUsedMiB, 'MiB'],
	['extension host RSS after full listing', r => r.rssAfterListingMiB, 'MiB'],
	['extension host peak RSS (VmHWM)', r => r.peakRssMiB, 'MiB'],
	['extension host main thread CPU while indexing', r => r.mainThreadCpuIndexingMs, 'ms'],
	['extension host main thread CPU during the full listing', r => r.mainThreadCpuListingMs, 'ms'],
	['event-loop delay while indexing p99', r => r.indexingDelay?.p99Ms, 'ms'],
	['event-loop delay while indexing max', r => r.indexingDelay?.maxMs, 'ms'],
	['event-loop delay idle for 2 s after indexing, p99', r => r.idleDelay?.p99Ms, 'ms'],
	['event-loop delay idle for 2 s after indexing, max', r => r.idleDelay?.maxMs, 'ms'],
	['ping while indexing p99', r => r.pingWhileIndexing?.p99, 'ms'],
	['ping while indexing max', r => r.pingWhileIndexing?.max, 'ms'],
	['first page p50', r => r.firstPageP50Ms, 'ms'],
	['full listing', r => r.fullListingMs, 'ms'],
	['event-loop delay while listing p99', r => r.listingDelay?.p99Ms, 'ms'],
	['event-loop delay while listing max', r => r.listingDelay?.maxMs, 'ms'],
	['list_changed after a create p50', r => r.listChangedP50Ms, 'ms'],
	['updated after a change p50', r => r.updatedP50Ms, 'ms'],
];


ensureProvisioned();
const vsix = process.env.BENCH_HOST_VSIX ? path.resolve(process.env.BENCH_HOST_VSIX) : await packageExtension();
const { tree, expected, leafDir } = prepareScaleTree(FILES, log);
const results: { startedAt: string; params: object; env: { cpus: string; loadAvgAtStart: number[]; loadAvgAtEnd?: number[] }; runs: HostRun[] } = {
	startedAt: new Date().toISOString(),
	params: { files: FILES, runs: RUNS, inspector: !NO_INSPECTOR },
	env: { cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}`, loadAvgAtStart: os.loadavg().map(v => round(v, 2)) },
	runs: [],
};
const browser = await launchBrowser();
try {
	for (let i = 0; i < RUNS; i++) {
		const run = await oneRun(browser, vsix, tree, expected, leafDir, i);
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
const ok = results.runs.filter(r => !r.error);
console.log(`\nscale in the real extension host (code-server, packaged extension): ${FILES.toLocaleString('en-US')} files (${expected.toLocaleString('en-US')} served), ${ok.length} of ${RUNS} cold windows; load average ${results.env.loadAvgAtStart.join(' ')} at start, ${results.env.loadAvgAtEnd?.join(' ')} at end`);
console.log('| metric | median | range |\n|---|---:|---|');
for (const [label, pick, unit] of ROWS) {
	const range = rangeOf(ok, pick);
	console.log(`| ${label} (${unit}) | ${formatCell(medianOf(ok, pick))} | ${range ? `${formatCell(range[0])}–${formatCell(range[1])}` : '—'} |`);
}
for (const [i, r] of results.runs.entries()) {
	for (const p of [r.problem, r.error, r.indexedBeforeLock ? 'the index line was already there when the lock file appeared: the indexing window was missed' : undefined,
		r.listChangedTimeouts ? `${r.listChangedTimeouts} list_changed did not arrive within 10 s of a create` : undefined,
		r.updatedTimeouts ? `${r.updatedTimeouts} updated did not arrive within 10 s of a change` : undefined].filter((p): p is string => !!p)) {
		console.log(`problem (run ${i + 1}): ${p}`);
	}
}
console.log(`\nwritten: ${path.relative(repoRoot, file)}`);
process.exit(results.runs.some(r => r.error) ? 1 : 0);
