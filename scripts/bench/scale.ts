// Scale section of the bench (`npm run bench -- --scale`): generated trees of 100,000 and
// 1,000,000 files (kept under BENCH_WORKSPACES/scale/), this build and a previous one
// (`--previous REF`, by default the build the previous round shipped: referenceBuilds.ts; or
// `--prev-cli PATH`; `--previous none` for none) side by side in the same run, each measured against the floor (one plain
// Node readdir + stat walk of the same tree, timed in the same run, before each server run).
//
// Per server run (headless host over stdio, with bench-scale-probe.mjs preloaded):
//   index time (the host's own "indexed N files in X ms" line), RSS after indexing and its peak,
//   event-loop delay p99/max while indexing and while a client lists everything, pings answered
//   while indexing, first page p50 (after 5 warm-up pages), full listing time with the server's and the client's CPU
//   meanwhile and the server's part of the client's wait (the probe's request-to-answer time), and the latency of
//   list_changed for a file created and of updated for a subscribed file changed at that size.
// Then a branch switch of thousands of files in a git repository of that layout (scaleSwitch.ts).
// Flags: --scale-sizes 100000,1000000 --scale-reps N (3) --previous REF|none --prev-cli PATH --cli PATH (dist/cli.js)
//        --switch-files N (100000) --switch-changed M (5000; 0 skips the switch) --json-only. Aims are reported, never asserted.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProbedServer } from './probedServer.js';
import { formatCell, maxOf, median, medianOf, now, readProcMemory, round, sleep, summarize, type LatencySummary } from './measurement.js';
import { prepareScaleTree } from './scaleTree.js';
import { runSwitchBench, switchTable, type SwitchResults } from './scaleSwitch.js';
import { measureScaleNotifyLatency, type ScaleNotifyLatency } from './notify.js';
import { resolvePreviousCli, serverCpuMs } from './eras.js';
import { LAST_LANDED_BUILD, NO_PREVIOUS } from './referenceBuilds.js';
import { repoRoot } from '../bootstrap/repoRoot.mjs';

const WALK_CONCURRENCY = 16;

interface ScaleOptions { sizes: number[]; reps: number; previous: string | undefined; prevCli: string | undefined; cli: string; jsonOnly: boolean; switchFiles: number; switchChanged: number }

/** One server run at one size (see the header for what each is). */
interface ScaleRun extends Partial<ScaleNotifyLatency> {
	indexMs?: number;
	indexedFiles?: number;
	rssAfterIndexMiB?: number | null;
	peakRssAfterIndexMiB?: number | null;
	indexingDelay?: { p99Ms: number; maxMs: number };
	pingWhileIndexing?: LatencySummary;
	firstPageP50Ms?: number | null;
	fullListingMs?: number;
	/** CPU of the server and of the bench client during the full listing: a client waits for the server's part only when it is not done ahead. */
	listingServerCpuMs?: number | null;
	listingClientCpuMs?: number;
	/** The server's part of the client's wait during the full listing (scaleProbe.mjs: request arrival to answer written, summed). */
	listingRequestPathMs?: number;
	listingRequestPathCpuMs?: number;
	listingWriteMs?: number;
	listingDelay?: { p99Ms: number; maxMs: number };
	listedFiles?: number;
	pages?: number;
	problem?: string;
	rssAfterListingMiB?: number | null;
	peakRssMiB?: number | null;
	error?: string;
	floorMs?: number;
}

type RunSummary = ReturnType<typeof summarizeRuns>;

function parseScaleArgs(argv: readonly string[]): ScaleOptions {
	const opts: ScaleOptions = { sizes: [100_000, 1_000_000], reps: 3, previous: LAST_LANDED_BUILD, prevCli: undefined, cli: 'dist/cli.js', jsonOnly: false, switchFiles: 100_000, switchChanged: 5000 };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].includes('=') ? argv[i].split(/=(.*)/s, 2) : [argv[i], undefined];
		const value = () => inline ?? argv[++i];
		switch (flag) {
			case '--scale': break;
			case '--scale-sizes': opts.sizes = value().split(',').map(v => Number(v.replace(/_/g, ''))); break;
			case '--scale-reps': opts.reps = Math.max(1, Number(value())); break;
			case '--prev-cli': opts.prevCli = path.resolve(value()); break;
			case '--previous': {
				const ref = value();
				opts.previous = ref === NO_PREVIOUS ? undefined : ref;
				break;
			}
			case '--cli': opts.cli = value(); break;
			case '--json-only': opts.jsonOnly = true; break;
			case '--switch-files': opts.switchFiles = Number(value().replace(/_/g, '')); break;
			case '--switch-changed': opts.switchChanged = Number(value().replace(/_/g, '')); break;
			default: throw new Error(`unknown flag for --scale: ${argv[i]}`);
		}
	}
	if (opts.sizes.some(n => !Number.isInteger(n) || n < 1000)) throw new Error('--scale-sizes takes whole numbers of at least 1000');
	if (!Number.isInteger(opts.switchFiles) || !Number.isInteger(opts.switchChanged) || opts.switchChanged < 0 || (opts.switchChanged > 0 && opts.switchFiles < opts.switchChanged * 4)) {
		throw new Error('--switch-files N --switch-changed M take whole numbers, N at least 4M (M 0 skips the branch switch)');
	}
	return opts;
}

/** The floor: one recursive readdir + stat of every file, plain Node, 16 directories at a time. */
async function floorWalk(root: string): Promise<number> {
	let files = 0;
	const pending = [root];
	let active = 0;
	await new Promise<void>((resolve, reject) => {
		const pump = () => {
			while (active < WALK_CONCURRENCY && pending.length > 0) {
				const dir = pending.pop() as string;
				active++;
				fsp.readdir(dir, { withFileTypes: true }).then(entries => {
					for (const e of entries) {
						const full = path.join(dir, e.name);
						if (e.isDirectory()) pending.push(full);
						else if (e.isFile()) {
							statSync(full);
							files++;
						}
					}
					active--;
					pump();
				}, reject);
			}
			if (active === 0 && pending.length === 0) resolve();
		};
		pump();
	});
	return files;
}

async function runServer({ cli, root, expected, home, leafDir, log }: { cli: string; root: string; expected: number; home: string; leafDir: string; log(message: string): void }): Promise<ScaleRun> {
	const server = new ProbedServer({ repoRoot, root, home, cli });
	const r: ScaleRun = {};
	try {
		await server.start();
		await server.probe(); // drop the window of module loading: indexing is what counts
		// Pings while the index builds: what any other client (or extension) waits for.
		const pings: number[] = [];
		while (!server.stderr.indexed) {
			const t = now();
			await server.ping();
			pings.push(now() - t);
			await Promise.race([server.stderr.changed(), sleep(20)]);
		}
		const memory = readProcMemory(server.pid);
		const indexing = await server.probe();
		const indexed = server.stderr.indexed as { files: number; ms: number };
		r.indexMs = indexed.ms;
		r.indexedFiles = indexed.files;
		r.rssAfterIndexMiB = memory?.rssKiB != null ? round(memory.rssKiB / 1024, 1) : null;
		r.peakRssAfterIndexMiB = memory?.hwmKiB != null ? round(memory.hwmKiB / 1024, 1) : null;
		r.indexingDelay = { p99Ms: indexing.delayP99Ms, maxMs: indexing.delayMaxMs };
		r.pingWhileIndexing = summarize(pings);

		for (let i = 0; i < 5; i++) await server.firstPage(); // JIT warm-up, as a client's later pages see it
		const firstPage: number[] = [];
		for (let i = 0; i < 21; i++) {
			const t = now();
			await server.firstPage();
			firstPage.push(now() - t);
		}
		r.firstPageP50Ms = round(median(firstPage), 2);

		await server.probe();
		const serverCpuBefore = serverCpuMs(server.pid);
		const clientCpuBefore = process.cpuUsage();
		const t = now();
		const listed = await server.enumerate(120_000);
		r.fullListingMs = round(now() - t);
		const clientCpu = process.cpuUsage(clientCpuBefore);
		const serverCpuAfter = serverCpuMs(server.pid);
		r.listingServerCpuMs = serverCpuBefore !== null && serverCpuAfter !== null ? serverCpuAfter - serverCpuBefore : null;
		r.listingClientCpuMs = round((clientCpu.user + clientCpu.system) / 1000);
		const listing = await server.probe();
		r.listingDelay = { p99Ms: listing.delayP99Ms, maxMs: listing.delayMaxMs };
		r.listingRequestPathMs = listing.requestPathMs;
		r.listingRequestPathCpuMs = listing.requestPathCpuMs;
		r.listingWriteMs = listing.writeMs;
		r.listedFiles = listed.files.length;
		r.pages = listed.pages;
		if (listed.files.length !== expected) r.problem = `listed ${listed.files.length} files, expected ${expected}`;
		const afterListing = readProcMemory(server.pid);
		r.rssAfterListingMiB = afterListing?.rssKiB != null ? round(afterListing.rssKiB / 1024, 1) : null;
		r.peakRssMiB = afterListing?.hwmKiB != null ? round(afterListing.hwmKiB / 1024, 1) : null;

		Object.assign(r, await measureScaleNotifyLatency(server.connectedClient, leafDir, { prefix: 'scale-notify', settleMs: 1200 }));
	} catch (err) {
		r.error = server.describeFailure(err);
		log(`  !! ${r.error}`);
	} finally {
		await server.close().catch(() => {});
	}
	return r;
}

function summarizeRuns(runs: ScaleRun[], floors: number[]) {
	return {
		runs,
		floorMs: round(median(floors)),
		indexMs: medianOf(runs, r => r.indexMs),
		indexVsFloor: medianOf(runs.map((r, i) => ({ x: (r.indexMs ?? Number.NaN) / floors[i] })), r => r.x),
		rssAfterIndexMiB: medianOf(runs, r => r.rssAfterIndexMiB),
		peakRssMiB: medianOf(runs, r => r.peakRssMiB),
		indexingDelayP99Ms: medianOf(runs, r => r.indexingDelay?.p99Ms),
		indexingDelayMaxMs: maxOf(runs, r => r.indexingDelay?.maxMs),
		pingWhileIndexingP99Ms: medianOf(runs, r => r.pingWhileIndexing?.p99),
		pingWhileIndexingMaxMs: maxOf(runs, r => r.pingWhileIndexing?.max),
		firstPageP50Ms: medianOf(runs, r => r.firstPageP50Ms),
		fullListingMs: medianOf(runs, r => r.fullListingMs),
		listingServerCpuMs: medianOf(runs, r => r.listingServerCpuMs),
		listingClientCpuMs: medianOf(runs, r => r.listingClientCpuMs),
		listingRequestPathMs: medianOf(runs, r => r.listingRequestPathMs),
		listingRequestPathCpuMs: medianOf(runs, r => r.listingRequestPathCpuMs),
		listingWriteMs: medianOf(runs, r => r.listingWriteMs),
		listingVsFloor: medianOf(runs.map((r, i) => ({ x: (r.fullListingMs ?? Number.NaN) / floors[i] })), r => r.x),
		listingDelayP99Ms: medianOf(runs, r => r.listingDelay?.p99Ms),
		listingDelayMaxMs: maxOf(runs, r => r.listingDelay?.maxMs),
		listChangedP50Ms: medianOf(runs, r => r.listChangedP50Ms),
		updatedP50Ms: medianOf(runs, r => r.updatedP50Ms),
		problems: runs.flatMap(r => [r.problem, r.error, r.listChangedTimeouts ? `${r.listChangedTimeouts} list_changed did not arrive within 10 s of a create` : undefined,
			r.updatedTimeouts ? `${r.updatedTimeouts} updated did not arrive within 10 s of a change` : undefined].filter((p): p is string => !!p)),
	};
}

const ROWS: [string, (s: RunSummary) => number | null | undefined, string, string?][] = [
	['floor: readdir + stat walk', s => s.floorMs, 'ms'],
	['index (host log line)', s => s.indexMs, 'ms', 'index <= 1.5x floor'],
	['index / floor', s => s.indexVsFloor, 'x'],
	['RSS after indexing', s => s.rssAfterIndexMiB, 'MiB', '<= 90 (100k), <= 250 (1M)'],
	['peak RSS (after full listing)', s => s.peakRssMiB, 'MiB', '<= 300 (1M)'],
	['event-loop delay while indexing p99', s => s.indexingDelayP99Ms, 'ms', '<= 20'],
	['event-loop delay while indexing max', s => s.indexingDelayMaxMs, 'ms', '<= 50'],
	['ping while indexing p99', s => s.pingWhileIndexingP99Ms, 'ms'],
	['ping while indexing max', s => s.pingWhileIndexingMaxMs, 'ms'],
	['first page p50', s => s.firstPageP50Ms, 'ms', '<= 10'],
	['full listing', s => s.fullListingMs, 'ms', '<= floor'],
	['full listing / floor', s => s.listingVsFloor, 'x'],
	['server CPU during full listing', s => s.listingServerCpuMs, 'ms'],
	['bench client CPU during full listing', s => s.listingClientCpuMs, 'ms'],
	['server on the request path during full listing', s => s.listingRequestPathMs, 'ms'],
	['of which writing the answers', s => s.listingWriteMs, 'ms'],
	['server CPU on the request path during full listing', s => s.listingRequestPathCpuMs, 'ms'],
	['event-loop delay while listing p99', s => s.listingDelayP99Ms, 'ms', '<= 20'],
	['event-loop delay while listing max', s => s.listingDelayMaxMs, 'ms', '<= 50'],
	['list_changed after a create p50', s => s.listChangedP50Ms, 'ms'],
	['updated after a change p50', s => s.updatedP50Ms, 'ms'],
];

interface ScaleResults {
	startedAt: string;
	params: ScaleOptions & { builds: Record<string, string> };
	env: Record<string, unknown>;
	sizes: Record<string, Record<string, RunSummary>>;
	branchSwitch?: SwitchResults;
}

function table(results: ScaleResults): string {
	const lines: string[] = [];
	for (const [size, byBuild] of Object.entries(results.sizes)) {
		const builds = Object.keys(byBuild);
		lines.push('', `${Number(size).toLocaleString('en-US')} files (medians of ${results.params.reps} runs; max for the max rows)`);
		lines.push(`| metric | ${builds.join(' | ')} | aim |`, `|---|${builds.map(() => '---:|').join('')}---|`);
		for (const [label, pick, unit, aim] of ROWS) {
			lines.push(`| ${label} (${unit}) | ${builds.map(b => formatCell(pick(byBuild[b]))).join(' | ')} | ${aim ?? ''} |`);
		}
		for (const b of builds) for (const p of byBuild[b].problems) lines.push(`problem (${b}): ${p}`);
	}
	return lines.join('\n');
}


/** The previous build's cli.js: `--prev-cli`, else `--previous` built (a failure is said, and the run goes on without it). */
function previousBuild(opts: ScaleOptions, log: (msg: string) => void): string | undefined {
	if (opts.prevCli) return opts.prevCli;
	if (!opts.previous) return undefined;
	try {
		return resolvePreviousCli(repoRoot, opts.previous, log);
	} catch (err) {
		log(`scale: the previous build ${opts.previous} is not measured: ${err instanceof Error ? err.message : String(err)} (--previous REF names another, --previous none skips it)`);
		return undefined;
	}
}

export async function runScaleBench(argv: readonly string[]): Promise<ScaleResults> {
	const opts = parseScaleArgs(argv);
	const log = (msg: string) => process.stderr.write(`${msg}\n`);
	const builds: Record<string, string> = { current: path.resolve(repoRoot, opts.cli) };
	const previous = previousBuild(opts, log);
	if (previous) builds.previous = previous;
	const results: ScaleResults = {
		startedAt: new Date().toISOString(),
		params: { ...opts, builds },
		env: { node: process.version, cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}`, loadAvgAtStart: os.loadavg().map(v => round(v, 2)) },
		sizes: {},
	};
	const home = await fsp.mkdtemp(path.join(os.tmpdir(), 'mcpwr-scale-home-'));
	try {
		for (const size of opts.sizes) {
			log(`\n== scale: ${size.toLocaleString('en-US')} files`);
			const { tree, expected, leafDir } = prepareScaleTree(size, log);
			await floorWalk(tree.root); // page cache and JIT
			const runs = Object.fromEntries(Object.keys(builds).map(b => [b, [] as ScaleRun[]]));
			const floors = Object.fromEntries(Object.keys(builds).map(b => [b, [] as number[]]));
			for (let rep = 0; rep < opts.reps; rep++) {
				// Builds alternate within a rep, each right after its own floor walk, so a busy
				// machine weighs on both alike.
				for (const [name, cli] of Object.entries(builds)) {
					const t = now();
					await floorWalk(tree.root);
					const floorMs = now() - t;
					floors[name].push(floorMs);
					const run = await runServer({ cli, root: tree.root, expected, home, leafDir, log });
					run.floorMs = round(floorMs);
					runs[name].push(run);
					log(`  ${name} #${rep + 1}: floor ${Math.round(floorMs)} ms, index ${run.indexMs} ms, RSS ${run.rssAfterIndexMiB} MiB (peak ${run.peakRssMiB}), delay while indexing p99 ${run.indexingDelay?.p99Ms} / max ${run.indexingDelay?.maxMs} ms, first page ${run.firstPageP50Ms} ms, listing ${run.fullListingMs} ms (server CPU ${run.listingServerCpuMs} ms, client CPU ${run.listingClientCpuMs} ms, request path ${run.listingRequestPathMs} ms (CPU ${run.listingRequestPathCpuMs} ms), delay max ${run.listingDelay?.maxMs} ms), list_changed ${run.listChangedP50Ms} ms, updated ${run.updatedP50Ms} ms${run.error ? ' ERROR' : ''}`);
				}
			}
			results.sizes[size] = Object.fromEntries(Object.keys(builds).map(b => [b, summarizeRuns(runs[b], floors[b])]));
		}
		if (opts.switchChanged > 0) {
			results.branchSwitch = await runSwitchBench({ builds, reps: opts.reps, files: opts.switchFiles, changed: opts.switchChanged, home, log });
		}
	} finally {
		await fsp.rm(home, { recursive: true, force: true });
	}
	const outDir = path.join(repoRoot, 'bench-results');
	mkdirSync(outDir, { recursive: true });
	const file = path.join(outDir, `scale-${results.startedAt.replace(/[:.]/g, '-')}.json`);
	writeFileSync(file, JSON.stringify(results, null, 2));
	writeFileSync(path.join(outDir, 'scale-latest.json'), JSON.stringify(results, null, 2));
	if (!opts.jsonOnly) process.stdout.write(`${table(results)}${results.branchSwitch ? `\n${switchTable(results.branchSwitch)}` : ''}\n\nwritten: ${path.relative(repoRoot, file)}\n`);
	return results;
}
