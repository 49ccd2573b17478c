// The scale section: generated trees of 100,000 and 1,000,000 files (scaleTree.ts), this build
// and the previous build taking turns, each run right after the floor (one plain Node readdir +
// stat walk of the same tree, timed in the same run). Per server run (the headless host over
// stdio, read in the 2025 era, with scaleProbe.ts preloaded): the index time (the host's own
// "indexed N files" line), memory after indexing and at its peak, event-loop delay while indexing
// and while a client lists everything, pings answered while indexing, the first page (p50 of 21
// after 5 warm-up pages), the full listing with the CPU of both sides and the server's part of
// the client's wait, then list_changed and updated at that size. Then a branch switch
// (scaleSwitch.ts). `--editor` measures the same in the real extension host (scaleEditor.ts).
import { statSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtScript } from './builtScript.js';
import { Contender } from './contenders.js';
import { cpuMs, indexLine, mainThreadCpuMs, maxOf, median, medianOf, now, processMemory, round, sleep, summarize, timesBetter, type LatencySummary } from './measurement.js';
import { measureNotifyAtScale, type NotifyAtScale } from './notify.js';
import { fmt, fmtRatio, renderTable } from './report.js';
import { runScaleInEditor } from './scaleEditor.js';
import type { ProbeLine } from './scaleProbe.js';
import { measureSwitches, renderSwitches, switchProblems, type SwitchSample } from './scaleSwitch.js';
import { prepareScaleTree, prepareSwitchRepo } from './scaleTree.js';
import type { AimVerdict, SectionContext, SectionReport } from './section.js';

const FIRST_PAGE_AIM_MS = 20;

/** One server run at one size (the header says what each is). */
export interface ScaleRun extends Partial<NotifyAtScale> {
	floorMs?: number;
	indexMs?: number;
	rssAfterIndexMiB?: number | null;
	peakRssMiB?: number | null;
	indexingDelay?: { p99Ms: number; maxMs: number };
	pingWhileIndexing?: LatencySummary;
	firstPageP50Ms?: number | null;
	fullListingMs?: number;
	listingServerCpuMs?: number | null;
	listingClientCpuMs?: number;
	/** The server's part of the client's wait during the full listing (scaleProbe.ts: request arrival to answer written, summed). */
	listingRequestPathMs?: number;
	listingDelay?: { p99Ms: number; maxMs: number };
	listed?: number;
	error?: string;
}

/** The floor: one recursive readdir + stat of every file, plain Node, 16 directories at a time. */
async function floorWalk(root: string): Promise<number> {
	let files = 0;
	const pending = [root];
	let active = 0;
	await new Promise<void>((resolve, reject) => {
		const pump = () => {
			while (active < 16 && pending.length > 0) {
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

/** A headless host over stdio with the probe preloaded: its SCALE-PROBE lines and index line as they come. */
class ProbedServer extends Contender {
	private readonly probes: ProbeLine[] = [];
	indexed: { files: number; ms: number } | undefined;

	constructor(cli: string, root: string, home: string, probeScript: string) {
		super('scale', { cli, root, home, nodeArgs: ['--import', pathToFileURL(probeScript).href] }, 'stdio', '2025');
		this.stderr.onLine(line => {
			if (line.startsWith('SCALE-PROBE ')) this.probes.push(JSON.parse(line.slice('SCALE-PROBE '.length)) as ProbeLine);
			this.indexed ??= indexLine(line);
		});
	}

	/** The event-loop delay (and time on requests) since the last call. */
	async probe(): Promise<ProbeLine> {
		const before = this.probes.length;
		if (this.pid === undefined) throw new Error('the server is not running');
		process.kill(this.pid, 'SIGUSR2');
		for (const deadline = now() + 30_000; this.probes.length === before;) {
			if (now() > deadline) throw new Error('the probe did not answer SIGUSR2 within 30 s');
			await sleep(20);
		}
		return this.probes[before];
	}
}

async function runServer(server: ProbedServer, expected: number, leafDir: string): Promise<ScaleRun> {
	const r: ScaleRun = {};
	await server.start();
	await server.probe(); // drop the window of module loading: indexing is what counts
	// Pings while the index builds: what any other client (or extension) waits for meanwhile.
	const pings: number[] = [];
	while (!server.indexed) {
		const t = now();
		await server.client.ping();
		pings.push(now() - t);
		await sleep(20);
	}
	const memory = processMemory(server.pid);
	const indexing = await server.probe();
	r.indexMs = server.indexed.ms;
	r.rssAfterIndexMiB = memory?.rssMiB;
	r.indexingDelay = { p99Ms: indexing.delayP99Ms, maxMs: indexing.delayMaxMs };
	r.pingWhileIndexing = summarize(pings);
	for (let i = 0; i < 5; i++) await server.firstPage(); // JIT warm-up, as a client's later pages see it
	const pages: number[] = [];
	for (let i = 0; i < 21; i++) {
		const t = now();
		await server.firstPage();
		pages.push(now() - t);
	}
	r.firstPageP50Ms = round(median(pages), 2);
	await server.probe();
	const serverCpu = cpuMs(server.pid);
	const clientCpu = process.cpuUsage();
	const t = now();
	const listed = await server.enumerate(120_000);
	r.fullListingMs = round(now() - t);
	const client = process.cpuUsage(clientCpu);
	const serverCpuAfter = cpuMs(server.pid);
	r.listingServerCpuMs = serverCpu !== null && serverCpuAfter !== null ? serverCpuAfter - serverCpu : null;
	r.listingClientCpuMs = round((client.user + client.system) / 1000);
	const listing = await server.probe();
	r.listingDelay = { p99Ms: listing.delayP99Ms, maxMs: listing.delayMaxMs };
	r.listingRequestPathMs = listing.requestPathMs;
	r.listed = listed.files.length;
	if (listed.files.length !== expected) throw new Error(`listed ${listed.files.length} files, expected ${expected}`);
	r.peakRssMiB = processMemory(server.pid)?.peakRssMiB;
	Object.assign(r, await measureNotifyAtScale(server.client, leafDir, { prefix: 'scale-notify', settleMs: 1200 }));
	return r;
}

type Summary = Record<string, number | null>;

function summarizeRuns(runs: readonly ScaleRun[]): Summary {
	const ratio = (pick: (r: ScaleRun) => number | undefined) => medianOf(runs.map(r => ({ x: pick(r) !== undefined && r.floorMs ? (pick(r) as number) / r.floorMs : undefined })), r => r.x);
	return {
		floorMs: medianOf(runs, r => r.floorMs), indexMs: medianOf(runs, r => r.indexMs), indexVsFloor: ratio(r => r.indexMs),
		rssAfterIndexMiB: medianOf(runs, r => r.rssAfterIndexMiB), peakRssMiB: medianOf(runs, r => r.peakRssMiB),
		indexingDelayP99Ms: medianOf(runs, r => r.indexingDelay?.p99Ms), indexingDelayMaxMs: maxOf(runs, r => r.indexingDelay?.maxMs),
		pingWhileIndexingMaxMs: maxOf(runs, r => r.pingWhileIndexing?.max), firstPageP50Ms: medianOf(runs, r => r.firstPageP50Ms),
		fullListingMs: medianOf(runs, r => r.fullListingMs), listingVsFloor: ratio(r => r.fullListingMs),
		listingServerCpuMs: medianOf(runs, r => r.listingServerCpuMs), listingClientCpuMs: medianOf(runs, r => r.listingClientCpuMs),
		listingRequestPathMs: medianOf(runs, r => r.listingRequestPathMs),
		listingDelayP99Ms: medianOf(runs, r => r.listingDelay?.p99Ms), listingDelayMaxMs: maxOf(runs, r => r.listingDelay?.maxMs),
		listChangedP50Ms: medianOf(runs, r => r.listChangedP50Ms), updatedP50Ms: medianOf(runs, r => r.updatedP50Ms),
	};
}

const ROWS: [string, keyof Summary & string, 'lower' | 'higher' | null][] = [
	['floor: readdir + stat walk (ms)', 'floorMs', null],
	['index built (ms)', 'indexMs', 'lower'],
	['index / floor', 'indexVsFloor', 'lower'],
	['RSS after indexing (MiB)', 'rssAfterIndexMiB', 'lower'],
	['peak RSS, after a full listing (MiB)', 'peakRssMiB', 'lower'],
	['event-loop delay while indexing p99 (ms)', 'indexingDelayP99Ms', 'lower'],
	['event-loop delay while indexing max (ms)', 'indexingDelayMaxMs', 'lower'],
	['ping while indexing, slowest (ms)', 'pingWhileIndexingMaxMs', 'lower'],
	['first page p50 (ms)', 'firstPageP50Ms', 'lower'],
	['full listing (ms)', 'fullListingMs', 'lower'],
	['full listing / floor', 'listingVsFloor', 'lower'],
	['server CPU during the full listing (ms)', 'listingServerCpuMs', 'lower'],
	['the server on the request path (ms)', 'listingRequestPathMs', 'lower'],
	['bench client CPU during the full listing (ms)', 'listingClientCpuMs', null],
	['event-loop delay while listing p99 (ms)', 'listingDelayP99Ms', 'lower'],
	['event-loop delay while listing max (ms)', 'listingDelayMaxMs', 'lower'],
	['list_changed after a create p50 (ms)', 'listChangedP50Ms', 'lower'],
	['updated after a change p50 (ms)', 'updatedP50Ms', 'lower'],
];

/** The scale section: `npm run bench -- --section scale`. */
export async function runScale(ctx: SectionContext): Promise<SectionReport> {
	const { flags, quick, log } = ctx;
	const editor = flags.has('--editor');
	const sizes = flags.numbers('--sizes', quick ? [10_000] : editor ? [100_000] : [100_000, 1_000_000], 1000);
	const reps = flags.number('--scale-reps', quick ? 1 : 3, 1);
	const switchFiles = flags.number('--switch-files', quick ? 10_000 : 100_000, 1000);
	const switchChanged = flags.number('--switch-changed', editor ? 0 : quick ? 500 : 5000);
	if (switchChanged > 0 && switchFiles < switchChanged * 4) throw new Error('--switch-files must be at least four times --switch-changed');
	if (editor) return runScaleInEditor(ctx, { files: sizes[0], windows: reps, switchFiles, switchChanged });

	const builds = Object.entries({ 'this build': ctx.cli, previous: ctx.previousCli() }).filter((e): e is [string, string] => e[1] !== null);
	const probeScript = await builtScript('scaleProbe', fileURLToPath(new URL('./scaleProbe.ts', import.meta.url)));
	const bySize: Record<number, Record<string, ScaleRun[]>> = {};
	const errors: string[] = [];
	const problems: string[] = [];
	for (const size of sizes) {
		log(`\n== scale: ${size.toLocaleString('en-US')} files`);
		const { tree, expected, leafDir } = prepareScaleTree(size, log);
		await floorWalk(tree.root); // page cache and JIT
		const runs: Record<string, ScaleRun[]> = bySize[size] = Object.fromEntries(builds.map(([b]) => [b, []]));
		for (let rep = 0; rep < reps; rep++) {
			// Builds take turns, each right after its own floor walk, so a busy moment weighs on both alike.
			for (const [build, cli] of builds) {
				const t = now();
				await floorWalk(tree.root);
				const floorMs = round(now() - t);
				const server = new ProbedServer(cli, tree.root, ctx.home, probeScript);
				let run: ScaleRun;
				try {
					run = { floorMs, ...await runServer(server, expected, leafDir) };
				} catch (err) {
					run = { floorMs, error: server.describeFailure(err) };
					(build === 'this build' ? errors : problems).push(`scale ${size}, ${build}: ${run.error?.split('\n')[0]}`);
				} finally {
					await server.close();
				}
				for (const [what, n] of [['list_changed', run.listChangedTimeouts], ['updated', run.updatedTimeouts]] as const) {
					if (n) problems.push(`scale ${size}, ${build}: ${n} ${what} did not arrive within 10 s`);
				}
				runs[build].push(run);
				log(`  ${build} #${rep + 1}: floor ${floorMs} ms, index ${run.indexMs} ms, RSS ${run.rssAfterIndexMiB} MiB (peak ${run.peakRssMiB}), first page ${run.firstPageP50Ms} ms, listing ${run.fullListingMs} ms, delay max ${run.indexingDelay?.maxMs} / ${run.listingDelay?.maxMs} ms${run.error ? ' ERROR' : ''}`);
			}
		}
	}
	const switches: Record<string, SwitchSample[]> = {};
	if (switchChanged > 0) {
		log(`\n== scale: a branch switch of ${switchChanged.toLocaleString('en-US')} files in a git repository of ${switchFiles.toLocaleString('en-US')}`);
		const repo = prepareSwitchRepo(switchFiles, switchChanged, log);
		for (let rep = 0; rep < reps; rep++) {
			for (const [build, cli] of builds) {
				const server = new ProbedServer(cli, repo.root, ctx.home, probeScript);
				try {
					await server.start();
					while (!server.indexed) await sleep(50);
					const samples = await measureSwitches(server.client, repo, {
						delay: async () => { const p = await server.probe(); return { p99Ms: p.delayP99Ms, maxMs: p.delayMaxMs }; }, spikes: async () => [], cpuMs: () => mainThreadCpuMs(server.pid), mark: async () => undefined,
					});
					(switches[build] ??= []).push(...samples);
					for (const s of samples) log(`  ${build} #${rep + 1} to ${s.to}: delay p99 ${s.delay?.p99Ms} / max ${s.delay?.maxMs} ms, CPU ${s.mainThreadCpuMs} ms, ${s.updated} updated, listed ${s.listed}`);
				} catch (err) {
					(switches[build] ??= []).push({ to: 'switch', windowMs: 0, delay: null, spikes: [], mainThreadCpuMs: null, error: server.describeFailure(err) });
				} finally {
					await server.close();
				}
			}
		}
		for (const [build, samples] of Object.entries(switches)) (build === 'this build' ? errors : problems).push(...switchProblems(build, samples));
	}
	const summaries = Object.fromEntries(Object.entries(bySize).map(([size, runs]) => [size, Object.fromEntries(Object.entries(runs).map(([b, r]) => [b, summarizeRuns(r)]))]));
	const text: string[] = [];
	const aims: AimVerdict[] = [];
	for (const [size, byBuild] of Object.entries(summaries)) {
		const [ours, previous] = [byBuild['this build'], byBuild.previous];
		text.push(renderTable([`${Number(size).toLocaleString('en-US')} files, headless (medians of ${reps}; max rows: the highest)`, 'this build', 'previous', 'vs previous'],
			ROWS.map(([label, key, better]) => [label, fmt(ours?.[key]), fmt(previous?.[key]), better ? fmtRatio(timesBetter(ours?.[key], previous?.[key], better)) : ''])), '');
		const page = ours?.firstPageP50Ms;
		aims.push({
			aim: `first page <= ${FIRST_PAGE_AIM_MS} ms`, where: `stdio, 2025, ${Number(size).toLocaleString('en-US')} files`, unit: 'ms', value: page, previous: previous?.firstPageP50Ms,
			met: typeof page === 'number' ? page <= FIRST_PAGE_AIM_MS : null,
		});
	}
	if (switchChanged > 0) {
		text.push(renderSwitches(`a branch switch: ${switchChanged.toLocaleString('en-US')} files changed, deleted or added in a git repository of ${switchFiles.toLocaleString('en-US')}, there and back, ${reps} time(s)`, switches));
	}
	return { results: { sizes, reps, runs: bySize, summaries, switch: switchChanged > 0 ? { files: switchFiles, changed: switchChanged, samples: switches } : undefined }, text: text.join('\n').trimEnd(), aims, errors, problems };
}
