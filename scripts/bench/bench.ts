#!/usr/bin/env node
// npm run bench: generates a workspace, then measures our server (stdio and Streamable HTTP),
// @modelcontextprotocol/server-filesystem (stdio) and the fs floor on the same work. Prints a table
// with ratios and writes bench-results/bench-<ISO>.json and bench-results/latest.json.
//
// Flags: --files N (20000) --binaries N (200) --reads N (2000) --skip-peer --skip-notify
//        --notify-transport stdio|http (stdio) --burst N (10000) --notify-samples N (50)
//        --seed N (1) --reps N (3) --cli PATH (dist/cli.js, to bench another build) --json-only
//        --previous REF|PATH|none (the previous build measured too: a git ref, built once into
//        .cache/bench/previous/<sha>, or a cli.js; by default the SDK v1 build, the reference of
//        the protocol eras' aims: scripts/bench/referenceBuilds.ts) --skip-modern
// Our server runs in both protocol eras (scripts/bench/eras.ts): legacy (SDK v1 client) and
// modern (SDK v2 client pinned to 2026-07-28), then the previous build (read by the v1 client
// and, as the modern rows' reference, by the v2 client in its 2025 mode), and a second table
// compares them, with the new-era HTTP/stdio reads ratio. The legacy era's notifications and
// burst come last, so no contender's reads follow the burst's writes. E.g. npm run bench --
// --previous main
// Then the server alone (scripts/bench/serverAlone.ts): this build in both eras and the previous
// build read by requests replayed as the SDK clients send them, with no client in the loop, so
// the aims can be judged for the server apart from the clients' own CPU (--skip-server-alone).
//        --scale: only the scale section instead (scripts/bench/scale.ts, its own flags);
//        --scale --host: the same at 100,000 files in the real extension host (scripts/bench/hostScale.ts)
// Aims are reported, never asserted; the exit code is non-zero only when a contender errors out.
import { setMaxListeners } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { OursHttp, OursStdio, PeerFilesystem, floor, runReads, type OursOptions, type ReadRun, type ReadStats } from './contenders.js';
import {
	eraRows, httpOverStdio, previousContender, readCpuPerRead, readCpuStart, renderEras, resolvePreviousCli, type EraRow, type HttpOverStdio,
} from './eras.js';
import {
	MODERN_VERSION, OursV2Http, OursV2Stdio, measureUpdatedLatencyListen, modernContender, modernNodeHttpContender, previousV2Contender, type UpdatedLatencyListen,
} from './v2Contenders.js';
import { measureBurst, measureUpdatedLatency, type NotifyContender, type UpdatedLatency } from './notify.js';
import { NO_PREVIOUS, SDK_V1_BUILD } from './referenceBuilds.js';
import {
	createRng, filterMaxListenersWarnings, median, now, readProcMemory,
	round, shuffled, summarize, type LatencySummary,
} from './measurement.js';
import type { TextEntry } from './workspace.js';
import { errorText } from '../lib/errorText.js';
import { ensureWorkspace, restoreFiles } from './workspace.js';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { killAtExit, onInterrupt } from '../lib/processes.js';
import { BENCH_WORKSPACES } from './workspaceHome.js';
import { renderServerAlone, runServerAlone, type ServerAloneResult } from './serverAlone.js';
import { loopbackFetch } from '../../src/client/loopbackFetch.js';


// ---------------------------------------------------------------------------------------------
// Arguments

interface BenchOptions {
	files: number; binaries: number; reads: number; seed: number; skipPeer: boolean; skipNotify: boolean;
	jsonOnly: boolean; notifyTransport: 'stdio' | 'http'; burst: number; notifySamples: number; reps: number;
	cli: string; previous: string | null; skipModern: boolean; skipServerAlone: boolean;
	/** The previous build was named by --previous (a failure to build it is then an error, not a note). */
	previousAsked: boolean;
}

function parseArgs(argv: readonly string[]): BenchOptions {
	const opts: BenchOptions = {
		files: 20_000, binaries: 200, reads: 2000, seed: 1, skipPeer: false, skipNotify: false,
		jsonOnly: false, notifyTransport: 'stdio', burst: 10_000, notifySamples: 50, reps: 3,
		cli: 'dist/cli.js', previous: SDK_V1_BUILD, skipModern: false, skipServerAlone: false, previousAsked: false,
	};
	const num = (flag: string, v: string | undefined) => {
		const n = Number(v);
		if (!Number.isInteger(n) || n < 0) throw new Error(`${flag} needs a non-negative integer, got ${v}`);
		return n;
	};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const [flag, inline] = a.includes('=') ? a.split(/=(.*)/s, 2) : [a, undefined];
		const value = (): string | undefined => inline ?? argv[++i];
		const text = (): string => {
			const v = value();
			if (v === undefined) throw new Error(`${flag} needs a value`);
			return v;
		};
		switch (flag) {
			case '--files': opts.files = num(flag, value()); break;
			case '--binaries': opts.binaries = num(flag, value()); break;
			case '--reads': opts.reads = num(flag, value()); break;
			case '--seed': opts.seed = num(flag, value()); break;
			case '--burst': opts.burst = num(flag, value()); break;
			case '--notify-samples': opts.notifySamples = num(flag, value()); break;
			case '--reps': opts.reps = Math.max(1, num(flag, value())); break;
			case '--notify-transport': {
				const transport = value();
				if (transport !== 'stdio' && transport !== 'http') throw new Error('--notify-transport is stdio or http');
				opts.notifyTransport = transport;
				break;
			}
			case '--cli': opts.cli = text(); break;
			case '--previous': {
				const ref = text();
				opts.previous = ref === NO_PREVIOUS ? null : ref;
				opts.previousAsked = true;
				break;
			}
			case '--skip-modern': opts.skipModern = true; break;
			case '--skip-server-alone': opts.skipServerAlone = true; break;
			case '--skip-peer': opts.skipPeer = true; break;
			case '--skip-notify': opts.skipNotify = true; break;
			case '--json-only': opts.jsonOnly = true; break;
			case '-h': case '--help':
				process.stdout.write('usage: npm run bench -- [--files N] [--binaries N] [--reads N] [--skip-peer] [--skip-notify] [--notify-transport stdio|http] [--burst N] [--notify-samples N] [--seed N] [--reps N] [--cli PATH] [--previous REF|PATH|none (default: the SDK v1 build)] [--skip-modern] [--skip-server-alone] [--json-only]\n');
				process.exit(0);
				break;
			default: throw new Error(`unknown flag ${a}`);
		}
	}
	if (opts.files < 1) throw new Error('--files must be at least 1');
	return opts;
}

if (process.argv.includes('--scale') && process.argv.includes('--host')) {
	// The same at 100,000 files in the real extension host (code-server): its own script, which
	// needs a global WebSocket (Node 20: --experimental-websocket) to reach the host's inspector.
	const { spawnSync } = await import('node:child_process');
	const script = new URL('./hostScale.ts', import.meta.url).pathname;
	const r = spawnSync(process.execPath, ['--import', new URL('../bootstrap/registerTypeScript.mjs', import.meta.url).href, '--experimental-websocket', script], { stdio: 'inherit' });
	process.exit(r.status ?? 1);
}

if (process.argv.includes('--scale')) {
	// Generated trees of 100,000 and 1,000,000 files take minutes: a section of its own.
	const { runScaleBench } = await import('./scale.js');
	onInterrupt();
	await runScaleBench(process.argv.slice(2));
	process.exit(0);
}

const opts = parseArgs(process.argv.slice(2));
const tStart = now();
const log = (msg: string) => process.stderr.write(msg.startsWith('\n== ') ? `\n[${((now() - tStart) / 1000).toFixed(1)} s] ${msg.slice(1)}\n` : `${msg}\n`);

onInterrupt();
setMaxListeners(0); // the SDK HTTP client hangs many listeners on one AbortSignal
const warningState = filterMaxListenersWarnings();

// ---------------------------------------------------------------------------------------------
// Results bookkeeping

type Completeness = ReturnType<typeof completeness>;
interface ReadSummary {
	reads: number; wallMs: number; readsPerSec: number; latency: LatencySummary; errors: number; firstError: string | null;
	contentMismatches: number; mismatchExample: MismatchExample | null;
}
interface MismatchExample { path: string; expectedLength: number | undefined; gotLength: number | undefined }
interface Memory { rssMiB: number | null; peakRssMiB: number | null }
interface EnumerateResult {
	medianMs: number | null | undefined; runsMs: number[]; completeness?: Completeness; tool?: string; pages?: number; perPage?: number;
	pageMs?: LatencySummary; otherUris?: number;
}
type BurstResult = Awaited<ReturnType<typeof measureBurst>>;
interface NotifyResult {
	transport: string; subscribe: boolean; listChanged: boolean;
	updated?: (UpdatedLatency & { subscribeMsEach: number }) | { skipped: string };
	burst?: BurstResult | { skipped: string };
}

/** One contender's measurements (the JSON's contenders.<key>); which fields are set depends on the contender. */
interface ContenderResult {
	name: string;
	error?: string;
	connectMs?: number;
	readyMs?: number;
	tools?: string[];
	readTool?: string;
	listing?: Record<string, { medianMs: number | null | undefined; runsMs: number[]; yieldsEveryFile: boolean; completeness: Completeness }>;
	capabilities?: unknown;
	serverVersion?: unknown;
	coldFirstPageMs?: number;
	indexBuildMs?: number;
	indexedFiles?: number;
	coldFullEnumerationMs?: number;
	coldFullEnumerationFromSpawnMs?: number;
	secondEnumerationMs?: number;
	enumerate?: EnumerateResult;
	firstEnumerationCompleteness?: Completeness;
	warmFirstPageMs?: number | null;
	ping?: LatencySummary;
	readSeq?: ReadSummary;
	serverCpuPerReadUs?: number | null;
	/** The bench process's own CPU per read (the SDK client, its transport, fetch/undici or the pipe). */
	clientCpuPerReadUs?: number | null;
	serverCpuPerRead8Us?: number | null;
	clientCpuPerRead8Us?: number | null;
	read8?: ReadSummary;
	read8Sessions?: ReadSummary;
	readBinary?: ReadSummary | null;
	readStats?: ReadStats;
	memory?: Memory | null;
	memoryAfterNotify?: Memory | null;
	notify?: { updated?: UpdatedLatency | UpdatedLatencyListen | { skipped: string } };
	shutdown?: { closeMs?: number; exitedCleanly: boolean; exit?: unknown };
}

interface TableRow {
	metric: string; unit: string; better: Better; contender: string; value: number | null;
	vsPeer: number | null | undefined; vsFloor: number | null | undefined; aim: { text: string; met: boolean | null } | null;
}

interface BenchResults {
	startedAt: string;
	finishedAt?: string;
	durationMs?: number;
	params: BenchOptions;
	env: { node: string; platform: string; cpus: string; memGiB: number; loadAvgAtStart: number[]; loadAvgAtEnd?: number[]; commit: string | null };
	workspace: { root: string; key: string; reused: boolean; genMs: number; textFiles: number; binaries: number; totalFiles: number } | null;
	contenders: Partial<Record<string, ContenderResult>>;
	notify: NotifyResult | null;
	errors: { contender: string; phase: string; message: string }[];
	problems: string[];
	previousCli?: string;
	suppressedMaxListenersWarnings?: number;
	table?: TableRow[];
	eras?: { table: EraRow[]; httpOverStdio: HttpOverStdio };
	serverAlone?: ServerAloneResult;
}

/** An Error's message, anything else as a string. */
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const results: BenchResults = {
	startedAt: new Date().toISOString(),
	params: { ...opts },
	env: {
		node: process.version,
		platform: `${os.platform()} ${os.release()}`,
		cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}`,
		memGiB: round(os.totalmem() / 2 ** 30, 1),
		loadAvgAtStart: os.loadavg().map(v => round(v, 2)),
		commit: gitCommit(),
	},
	workspace: null,
	contenders: {},
	notify: null,
	errors: [],
	problems: [],
};

function gitCommit(): string | null {
	try {
		const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
		const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
		return dirty ? `${sha}+dirty` : sha;
	} catch {
		return null;
	}
}

function recordError(contender: string, phase: string, err: unknown, describe?: (err: unknown) => string): void {
	const message = describe ? describe(err) : errorText(err);
	results.errors.push({ contender, phase, message });
	log(`\n!! ${contender} failed during ${phase}: ${message}\n`);
}

function problem(text: string): void {
	results.problems.push(text);
	log(`  problem: ${text}`);
}

const timingsMs = (xs: readonly number[]) => xs.map(x => round(x));

/** Compare enumerated paths with the expected set. */
function completeness(paths: readonly string[], expectedSet: ReadonlySet<string>) {
	const got = new Set(paths);
	let missing = 0;
	const missingExamples: string[] = [];
	for (const p of expectedSet) {
		if (!got.has(p)) {
			missing++;
			if (missingExamples.length < 3) missingExamples.push(p);
		}
	}
	let extra = 0;
	const extraExamples: string[] = [];
	for (const p of got) {
		if (!expectedSet.has(p)) {
			extra++;
			if (extraExamples.length < 3) extraExamples.push(p);
		}
	}
	return { listed: paths.length, unique: got.size, missing, extra, duplicates: paths.length - got.size, missingExamples, extraExamples };
}

function verifyTexts(items: readonly string[], run: ReadRun<string>, expected: ReadonlyMap<string, string>): { mismatches: number; example: MismatchExample | null } {
	let mismatches = 0;
	let example: MismatchExample | null = null;
	for (let i = 0; i < items.length; i++) {
		const got = run.results[i];
		if (got === undefined) continue; // counted as an error already
		if (got !== expected.get(items[i])) {
			mismatches++;
			example ??= { path: items[i], expectedLength: expected.get(items[i])?.length, gotLength: got.length };
		}
	}
	return { mismatches, example };
}

function readSummary(run: ReadRun<unknown>, verification: { mismatches: number; example: MismatchExample | null }): ReadSummary {
	return {
		reads: run.latencies.length,
		wallMs: round(run.wallMs),
		readsPerSec: round(run.readsPerSec, 1),
		latency: summarize(run.latencies),
		errors: run.errors,
		firstError: run.firstError ? messageOf(run.firstError) : null,
		contentMismatches: verification.mismatches,
		mismatchExample: verification.example,
	};
}

/** Warm up (first 100 items), then one timed pass; throws when a read fails or returns wrong bytes. */
async function measureTextReads(label: string, items: readonly string[], concurrency: number, readFn: (path: string, worker: number) => Promise<string>, expected: ReadonlyMap<string, string>): Promise<ReadSummary> {
	await runReads(items.slice(0, Math.min(100, items.length)), concurrency, readFn);
	const run = await runReads(items, concurrency, readFn);
	const verification = verifyTexts(items, run, expected);
	const summary = readSummary(run, verification);
	log(`  ${label}: ${summary.readsPerSec} reads/s, p50 ${summary.latency.p50} ms, p99 ${summary.latency.p99} ms${run.errors ? `, ${run.errors} ERRORS` : ''}${verification.mismatches ? `, ${verification.mismatches} WRONG CONTENTS` : ''}`);
	if (run.errors) throw new Error(`${label}: ${run.errors}/${items.length} reads failed; first: ${summary.firstError}`);
	if (verification.mismatches) throw new Error(`${label}: ${verification.mismatches} reads returned wrong contents, e.g. ${JSON.stringify(verification.example)}`);
	return summary;
}

async function measureBinaryReads(label: string, items: readonly string[], readFn: (path: string) => Promise<Uint8Array>): Promise<ReadSummary | null> {
	if (items.length === 0) return null;
	const run = await runReads(items, 1, readFn);
	const { readFile } = await import('node:fs/promises');
	let mismatches = 0;
	for (let i = 0; i < items.length; i++) {
		const got = run.results[i];
		if (got === undefined) continue;
		if (!Buffer.from(got).equals(await readFile(items[i]))) mismatches++;
	}
	const summary = readSummary(run, { mismatches, example: null });
	log(`  ${label}: ${summary.readsPerSec} reads/s, p50 ${summary.latency.p50} ms${run.errors ? `, ${run.errors} ERRORS` : ''}${mismatches ? `, ${mismatches} WRONG BYTES` : ''}`);
	if (run.errors) throw new Error(`${label}: ${run.errors}/${items.length} reads failed; first: ${summary.firstError}`);
	if (mismatches) throw new Error(`${label}: ${mismatches} binary reads returned wrong bytes`);
	return summary;
}

async function measurePing(contender: { ping(): Promise<unknown> }, n = 200): Promise<LatencySummary> {
	const lat: number[] = [];
	for (let i = 0; i < n; i++) {
		const t = now();
		await contender.ping();
		lat.push(now() - t);
	}
	return summarize(lat);
}

function memoryOf(pid: number | undefined): Memory | null {
	const m = readProcMemory(pid);
	return m ? { rssMiB: m.rssKiB === null ? null : round(m.rssKiB / 1024, 1), peakRssMiB: m.hwmKiB === null ? null : round(m.hwmKiB / 1024, 1) } : null;
}

// ---------------------------------------------------------------------------------------------
// Phases

/** What every phase shares: the workspace, the seeded read sample and the contents expected back. */
interface BenchContext {
	root: string;
	sample: string[];
	expectedSet: ReadonlySet<string>;
	/** Filled by the floor, which reads with plain fs; every other contender is checked against it. */
	expected: Map<string, string>;
	notifyTargets: TextEntry[];
	home: string;
	binaries: string[];
	cli: string;
}

type Ours = OursStdio | OursHttp;

/** The modern era and the previous build: the results key, the contender, and the CLI it runs. */
interface OursVariant { key?: string; make?: (opts: OursOptions) => Ours; cli?: string }

/** The legacy client's notification surface of a started contender (notify.ts). */
function notifyContender(contender: Ours): NotifyContender {
	return { client: contender.connectedClient, read: (p, t) => contender.read(p, t), enumerate: t => contender.enumerate(t) };
}

async function runFloor(ctx: BenchContext): Promise<void> {
	const r: ContenderResult = { name: floor.name };
	results.contenders.floor = r;
	log('\n== floor: readdir walk + fs.promises.readFile');
	// warm-up: page cache and JIT
	await floor.enumerate(ctx.root);
	const times: number[] = [];
	let listed: string[] = [];
	for (let i = 0; i < opts.reps; i++) {
		const t = now();
		listed = await floor.enumerate(ctx.root);
		times.push(now() - t);
	}
	r.enumerate = { medianMs: round(median(times)), runsMs: timingsMs(times), completeness: completeness(listed, ctx.expectedSet) };
	log(`  enumerate: ${r.enumerate.medianMs} ms (median of ${opts.reps}), ${listed.length} files`);
	for (const p of ctx.sample) ctx.expected.set(p, await floor.read(p));
	r.readSeq = await measureTextReads('reads 1 at a time', ctx.sample, 1, p => floor.read(p), ctx.expected);
	r.read8 = await measureTextReads('reads 8 at a time', ctx.sample, 8, p => floor.read(p), ctx.expected);
	r.readBinary = await measureBinaryReads('binary reads 1 at a time', ctx.binaries, p => floor.readBinary(p));
}

async function runPeer(ctx: BenchContext): Promise<void> {
	const r: ContenderResult = { name: 'server-filesystem (stdio)' };
	results.contenders.peer = r;
	log('\n== @modelcontextprotocol/server-filesystem over stdio');
	const peer = new PeerFilesystem({ repoRoot, root: ctx.root });
	let phase = 'start';
	try {
		await peer.start();
		r.connectMs = round(peer.connectMs);
		r.tools = peer.tools;
		r.readTool = peer.readTool;
		log(`  tools: ${peer.tools.join(', ')}`);
		phase = 'enumerate';
		const listing: NonNullable<ContenderResult['listing']> = {};
		r.listing = listing;
		for (const [name, fn] of Object.entries(peer.listingStrategies())) {
			await fn(); // warm-up
			const times: number[] = [];
			let listed: string[] = [];
			for (let i = 0; i < opts.reps; i++) {
				const t = now();
				listed = await fn();
				times.push(now() - t);
			}
			const c = completeness(listed, ctx.expectedSet);
			listing[name] = { medianMs: round(median(times)), runsMs: timingsMs(times), yieldsEveryFile: c.missing === 0, completeness: { ...c, extra: c.extra } };
			log(`  ${name}: ${listing[name].medianMs} ms (median of ${opts.reps})${c.missing ? `, misses ${c.missing} files` : ''}`);
		}
		const complete = Object.entries(listing).filter(([, v]) => v.yieldsEveryFile);
		if (complete.length === 0) throw new Error('no listing tool yielded every file path');
		const [bestName, best] = complete.sort((a, b) => (a[1].medianMs ?? NaN) - (b[1].medianMs ?? NaN))[0];
		r.enumerate = { tool: bestName, medianMs: best.medianMs, runsMs: best.runsMs };
		log(`  best listing tool: ${bestName}`);
		phase = 'ping';
		r.ping = await measurePing(peer);
		phase = 'reads';
		r.readSeq = await measureTextReads(`reads 1 at a time (${peer.readTool})`, ctx.sample, 1, p => peer.read(p), ctx.expected);
		r.read8 = await measureTextReads(`reads 8 at a time (${peer.readTool})`, ctx.sample, 8, p => peer.read(p), ctx.expected);
		if (peer.tools.includes('read_media_file')) {
			r.readBinary = await measureBinaryReads('binary reads 1 at a time (read_media_file)', ctx.binaries, p => peer.readBinary(p));
		}
		r.memory = memoryOf(peer.pid);
		log(`  server RSS ${r.memory?.rssMiB} MiB (peak ${r.memory?.peakRssMiB})`);
	} catch (err) {
		r.error = `${phase}: ${messageOf(err)}`;
		recordError(r.name, phase, err, e => peer.describeFailure(e));
	} finally {
		await peer.close().catch(() => {});
	}
}

/** `variant` (eras.ts): { key, make(opts), cli } for the modern era and the previous build. */
async function runOurs(ctx: BenchContext, kind: 'stdio' | 'http', variant: OursVariant = {}): Promise<void> {
	const isHttp = kind === 'http';
	const contenderOpts = { repoRoot, root: ctx.root, home: ctx.home, cli: variant.cli ?? ctx.cli };
	const contender: Ours = variant.make
		? variant.make(contenderOpts)
		: isHttp ? new OursHttp(contenderOpts) : new OursStdio(contenderOpts);
	const r: ContenderResult = { name: contender.name };
	results.contenders[variant.key ?? (isHttp ? 'oursHttp' : 'oursStdio')] = r;
	log(`\n== ${contender.name}: node ${path.relative(repoRoot, contenderOpts.cli)} serve --${kind}`);
	let phase = 'start';
	try {
		await contender.start();
		if (contender instanceof OursHttp) r.readyMs = round(contender.readyMs);
		r.connectMs = round(contender.connectMs);
		r.capabilities = contender.serverCapabilities() ?? null;
		r.serverVersion = contender.serverVersion() ?? null;
		phase = 'first page';
		await contender.firstPage();
		r.coldFirstPageMs = round(now() - contender.t0);
		// The server logs its own index build time on stderr ("indexed N files in M ms").
		const indexed = /indexed (\d+) files in (\d+) ms/.exec(contender.stderr.tail(Infinity));
		if (indexed) {
			r.indexBuildMs = Number(indexed[2]);
			r.indexedFiles = Number(indexed[1]);
		}
		log(`  ${isHttp ? `url line after ${r.readyMs} ms, ` : ''}connected after ${r.connectMs} ms, first resources/list page after ${r.coldFirstPageMs} ms (from spawn)`);
		phase = 'enumerate';
		const tWarm = now();
		const warm = await contender.enumerate();
		r.coldFullEnumerationMs = round(now() - tWarm);
		r.coldFullEnumerationFromSpawnMs = round(now() - contender.t0);
		const tSecond = now();
		await contender.enumerate(); // untimed warm-up (reported for information)
		r.secondEnumerationMs = round(now() - tSecond);
		const times: number[] = [];
		let listed = warm;
		for (let i = 0; i < opts.reps; i++) {
			const t = now();
			listed = await contender.enumerate();
			times.push(now() - t);
		}
		const c = completeness(listed.files, ctx.expectedSet);
		const pageMs = summarize(listed.pageMs);
		r.enumerate = {
			medianMs: round(median(times)), runsMs: timingsMs(times), pages: listed.pages,
			perPage: round(listed.files.length / listed.pages, 1), pageMs, otherUris: listed.otherUris.length, completeness: c,
		};
		r.firstEnumerationCompleteness = completeness(warm.files, ctx.expectedSet);
		const firstPageTimes: number[] = [];
		for (let i = 0; i < 5; i++) {
			const t = now();
			await contender.firstPage();
			firstPageTimes.push(now() - t);
		}
		r.warmFirstPageMs = round(median(firstPageTimes), 2);
		log(`  enumerate: ${r.enumerate.medianMs} ms (median of ${opts.reps}), ${listed.files.length} files in ${listed.pages} pages (page p50 ${pageMs.p50} ms); first full enumeration ${r.coldFullEnumerationMs} ms${listed.otherUris.length ? `; ${listed.otherUris.length} non-file resources` : ''}`);
		if (r.firstEnumerationCompleteness.missing) problem(`${r.name}: the first full enumeration after start missed ${r.firstEnumerationCompleteness.missing} files (index not ready yet?)`);
		if (c.missing || c.duplicates) {
			throw new Error(`enumeration incomplete: ${c.missing} of ${ctx.expectedSet.size} files missing, ${c.duplicates} duplicates, e.g. ${c.missingExamples.join(', ')}`);
		}
		if (c.extra) problem(`${r.name}: listed ${c.extra} unexpected file(s), e.g. ${c.extraExamples.join(', ')}`);
		if (contender.era === undefined) { // the 2026-07-28 revision has no ping
			phase = 'ping';
			r.ping = await measurePing(contender);
		}
		phase = 'reads';
		// Reads counted with their warm-up (measureTextReads does up to 100 first).
		const reads = ctx.sample.length + Math.min(100, ctx.sample.length);
		let cpu = readCpuStart(contender.pid);
		r.readSeq = await measureTextReads('reads 1 at a time', ctx.sample, 1, p => contender.read(p), ctx.expected);
		({ serverUs: r.serverCpuPerReadUs, clientUs: r.clientCpuPerReadUs } = readCpuPerRead(cpu, contender.pid, reads));
		cpu = readCpuStart(contender.pid);
		r.read8 = await measureTextReads('reads 8 at a time (1 session)', ctx.sample, 8, p => contender.read(p), ctx.expected);
		({ serverUs: r.serverCpuPerRead8Us, clientUs: r.clientCpuPerRead8Us } = readCpuPerRead(cpu, contender.pid, reads));
		if (contender instanceof OursHttp) {
			phase = 'reads (8 sessions)';
			const sessions = await contender.openSessions(8);
			// Each of the 8 workers owns one session and keeps one read in flight on it.
			r.read8Sessions = await measureTextReads('reads 8 sessions x 1 in flight', ctx.sample, 8, (p, w) => sessions[w].read(p), ctx.expected);
			await contender.closeSessions(sessions);
		}
		phase = 'binary reads';
		r.readBinary = await measureBinaryReads('binary reads 1 at a time', ctx.binaries, p => contender.readBinary(p));
		r.readStats = { ...contender.readStats };
		if (contender.readStats.textAsBlob) problem(`${r.name}: ${contender.readStats.textAsBlob} text files came back as base64 blob`);
		if (contender.readStats.binaryAsText) problem(`${r.name}: ${contender.readStats.binaryAsText} binaries came back as text`);
		r.memory = memoryOf(contender.pid);
		log(`  server RSS ${r.memory?.rssMiB} MiB (peak ${r.memory?.peakRssMiB})`);

		// The other eras and builds: updated latency only. The legacy era's notifications and its
		// burst run after every contender's reads (runDeferredNotify): the burst's 10,000 files
		// written and deleted would otherwise weigh on the contenders measured right after it.
		// The previous build read by the v2 client has its updated latency from the v1 client's.
		const v2 = contender instanceof OursV2Stdio || contender instanceof OursV2Http ? contender : undefined;
		if (!opts.skipNotify && opts.notifyTransport === kind && opts.notifySamples > 0 && variant.key && (!v2 || v2.era === MODERN_VERSION)) {
			phase = 'notifications';
			const args = { root: ctx.root, targets: ctx.notifyTargets, log };
			const updated = v2
				? await measureUpdatedLatencyListen({ ...args, contender: v2 })
				: await measureUpdatedLatency({ ...args, contender: notifyContender(contender) });
			r.notify = { updated };
			log(`  updated latency: p50 ${updated.latency.p50} ms, p99 ${updated.latency.p99} ms`);
		}
	} catch (err) {
		r.error = `${phase}: ${messageOf(err)}`;
		recordError(r.name, phase, err, e => contender.describeFailure(e));
	} finally {
		try {
			r.shutdown = await contender.close();
			if (r.shutdown && !r.shutdown.exitedCleanly) problem(`${r.name}: server did not exit on ${isHttp ? 'SIGTERM within 5 s (killed)' : 'stdin close within 2 s (SDK sent SIGTERM)'}`);
		} catch (err) {
			problem(`${r.name}: close failed: ${messageOf(err)}`);
		}
	}
}

/**
 * The legacy era's notifications and burst, on a server of their own started after every
 * contender's reads, into that era's result on `--notify-transport`.
 */
async function runDeferredNotify(ctx: BenchContext): Promise<void> {
	const kind = opts.notifyTransport;
	const r = results.contenders[kind === 'http' ? 'oursHttp' : 'oursStdio'];
	if (!r || r.error) return; // its reads failed: the error is recorded there
	const contender: Ours = kind === 'http'
		? new OursHttp({ repoRoot, root: ctx.root, home: ctx.home, cli: ctx.cli })
		: new OursStdio({ repoRoot, root: ctx.root, home: ctx.home, cli: ctx.cli });
	log(`\n== ${contender.name}: notifications and burst (a server of their own, after every contender's reads)`);
	let phase = 'start';
	try {
		await contender.start();
		phase = 'enumerate';
		const listed = await contender.enumerate(); // the index is complete before the first write
		const c = completeness(listed.files, ctx.expectedSet);
		if (c.missing) throw new Error(`enumeration incomplete before the notifications: ${c.missing} of ${ctx.expectedSet.size} files missing`);
		phase = 'notifications';
		r.notify = { updated: (await runNotify(ctx, contender)).updated };
		r.memoryAfterNotify = memoryOf(contender.pid);
	} catch (err) {
		r.error = `${phase}: ${messageOf(err)}`;
		recordError(r.name, phase, err, e => contender.describeFailure(e));
	} finally {
		await contender.close().catch(err => problem(`${contender.name} (notifications): close failed: ${messageOf(err)}`));
	}
}

async function runNotify(ctx: BenchContext, contender: Ours): Promise<NotifyResult> {
	const caps = contender.serverCapabilities()?.resources ?? {};
	const n: NotifyResult = { transport: contender.name, subscribe: !!caps.subscribe, listChanged: !!caps.listChanged };
	results.notify = n;
	log(`  notifications (resources.subscribe=${n.subscribe}, listChanged=${n.listChanged})`);
	if (n.subscribe && opts.notifySamples > 0) {
		const updated = await measureUpdatedLatency({ contender: notifyContender(contender), root: ctx.root, targets: ctx.notifyTargets, log });
		n.updated = updated;
		log(`  updated latency: p50 ${updated.latency.p50} ms, p99 ${updated.latency.p99} ms, ${updated.updatedPerWrite} notifications per write`);
	} else {
		n.updated = { skipped: n.subscribe ? 'no samples requested' : 'server does not advertise resources.subscribe' };
	}
	if (n.listChanged && opts.burst > 0) {
		const burst = await measureBurst({ contender: notifyContender(contender), root: ctx.root, count: opts.burst, readPaths: ctx.sample, expectedBase: ctx.expectedSet.size, log });
		n.burst = burst;
		const b = burst.create;
		for (const ph of [b, burst.delete]) {
			if (ph.listedAfter !== null && ph.listedAfter !== ph.expectedListed) problem(`${contender.name}: after the burst ${ph.mode} and 30 s of waiting the list shows ${ph.listedAfter} files, expected ${ph.expectedListed}`);
			if (ph.settledBy === 'cap') problem(`${contender.name}: burst ${ph.mode}: no quiet period with list_changed within 30 s after the writes`);
		}
		const failures = [b, burst.delete].flatMap(ph => [
			...(ph.readErrors ? [`${ph.readErrors} reads failed during the burst ${ph.mode} (first: ${ph.firstReadError})`] : []),
			...(ph.listError ? [`resources/list failed after the burst ${ph.mode}: ${ph.listError}`] : []),
		]);
		if (failures.length) throw new Error(failures.join('; '));
	} else {
		n.burst = { skipped: n.listChanged ? 'no burst requested' : 'server does not advertise resources.listChanged' };
	}
	return n;
}

// ---------------------------------------------------------------------------------------------
// Table

type Better = 'lower' | 'higher';

/** An aim: a ratio to server-filesystem (`check`) or an absolute bound on the value. */
interface AimSpec { text: string; check?: (ratio: number) => boolean; absolute?: (value: number) => boolean }

const fmtNum = (v: number | null | undefined, digits?: number) => {
	if (v === null || v === undefined || !Number.isFinite(v)) return '—';
	if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
	return v.toFixed(digits ?? (Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2));
};

/** >1 means the row is better than the reference. */
function ratio(value: number | null, ref: number | null | undefined, better: Better): number | null {
	if (value === null || ref === null || ref === undefined || !Number.isFinite(value) || !Number.isFinite(ref) || value <= 0 || ref <= 0) return null;
	return better === 'lower' ? ref / value : value / ref;
}

function buildRows(): TableRow[] {
	const c = results.contenders;
	const rows: (Omit<TableRow, 'aim'> & { aim: AimSpec | null })[] = [];
	type Entry = [contender: string, value: number | null | undefined, aim?: AimSpec];
	type Refs = { peer?: number | null; floor?: number | null };
	const add = (metric: string, unit: string, better: Better, entries: readonly Entry[], refs: Refs = {}) => {
		for (const [contender, value, aim] of entries) {
			if (value === undefined) continue;
			rows.push({
				metric, unit, better, contender, value,
				vsPeer: ratio(value, refs.peer, better),
				vsFloor: ratio(value, refs.floor, better),
				aim: aim ?? null,
			});
		}
	};
	const names = { floor: 'floor (fs)', peer: 'server-filesystem', stdio: 'ours stdio', http: 'ours http' };
	const aimRatio = (min: number, vs: string): AimSpec => ({ text: `>= ${min}x vs ${vs}`, check: r => r >= min });

	const enumRefs = { peer: c.peer?.enumerate?.medianMs, floor: c.floor?.enumerate?.medianMs };
	add(`enumerate all ${results.workspace?.totalFiles ?? ''} files (warm, median of ${opts.reps})`, 'ms', 'lower', [
		[names.floor, c.floor?.enumerate?.medianMs],
		[`${names.peer}${c.peer?.enumerate?.tool ? ` [${c.peer.enumerate.tool}]` : ''}`, c.peer?.enumerate?.medianMs],
		[names.stdio, c.oursStdio?.enumerate?.medianMs, aimRatio(5, 'server-fs')],
		[names.http, c.oursHttp?.enumerate?.medianMs, aimRatio(5, 'server-fs')],
	], enumRefs);
	add('time to first list page after spawn (cold)', 'ms', 'lower', [
		[names.stdio, c.oursStdio?.coldFirstPageMs],
		[names.http, c.oursHttp?.coldFirstPageMs],
	]);
	add('index build (server log)', 'ms', 'lower', [
		[names.stdio, c.oursStdio?.indexBuildMs],
		[names.http, c.oursHttp?.indexBuildMs],
	]);
	add('first list page once indexed (median of 5)', 'ms', 'lower', [
		[names.stdio, c.oursStdio?.warmFirstPageMs],
		[names.http, c.oursHttp?.warmFirstPageMs],
	]);
	add('first full enumeration after start (cold index)', 'ms', 'lower', [
		[names.stdio, c.oursStdio?.coldFullEnumerationMs],
		[names.http, c.oursHttp?.coldFullEnumerationMs],
	]);
	add('ping p50', 'ms', 'lower', [
		[names.peer, c.peer?.ping?.p50],
		[names.stdio, c.oursStdio?.ping?.p50],
		[names.http, c.oursHttp?.ping?.p50],
	], { peer: c.peer?.ping?.p50 });

	const readBlock = (label: string, key: 'readSeq' | 'read8', aims: { stdio?: AimSpec; http?: AimSpec }) => {
		const refs = { peer: c.peer?.[key]?.readsPerSec, floor: c.floor?.[key]?.readsPerSec };
		add(`${label}: reads/s`, 'reads/s', 'higher', [
			[names.floor, c.floor?.[key]?.readsPerSec],
			[names.peer, c.peer?.[key]?.readsPerSec],
			[names.stdio, c.oursStdio?.[key]?.readsPerSec, aims.stdio],
			[names.http, c.oursHttp?.[key]?.readsPerSec, aims.http],
		], refs);
		for (const p of ['p50', 'p99'] as const) {
			add(`${label}: read ${p}`, 'ms', 'lower', [
				[names.floor, c.floor?.[key]?.latency?.[p]],
				[names.peer, c.peer?.[key]?.latency?.[p]],
				[names.stdio, c.oursStdio?.[key]?.latency?.[p]],
				[names.http, c.oursHttp?.[key]?.latency?.[p]],
			], { peer: c.peer?.[key]?.latency?.[p], floor: c.floor?.[key]?.latency?.[p] });
		}
	};
	const atLeastPeer: AimSpec = { text: '>= server-fs', check: r => r >= 1 };
	readBlock(`${opts.reads} text reads, 1 at a time`, 'readSeq', { stdio: atLeastPeer });
	readBlock(`${opts.reads} text reads, 8 in flight`, 'read8', {
		stdio: atLeastPeer,
		http: { text: '>= 1,000 reads/s', absolute: v => v >= 1000 },
	});
	if (c.oursHttp?.read8Sessions) {
		const refs = { peer: c.peer?.read8?.readsPerSec, floor: c.floor?.read8?.readsPerSec };
		add(`${opts.reads} text reads, 8 sessions x 1: reads/s`, 'reads/s', 'higher', [[names.http, c.oursHttp.read8Sessions.readsPerSec, { text: '>= 1,000 reads/s', absolute: v => v >= 1000 }]], refs);
		add(`${opts.reads} text reads, 8 sessions x 1: read p99`, 'ms', 'lower', [[names.http, c.oursHttp.read8Sessions.latency.p99]], { peer: c.peer?.read8?.latency?.p99, floor: c.floor?.read8?.latency?.p99 });
	}
	if (opts.binaries > 0) {
		add(`${opts.binaries} binary reads (~50 KB), 1 at a time: reads/s`, 'reads/s', 'higher', [
			[names.floor, c.floor?.readBinary?.readsPerSec],
			['server-filesystem [read_media_file]', c.peer?.readBinary?.readsPerSec],
			[names.stdio, c.oursStdio?.readBinary?.readsPerSec],
			[names.http, c.oursHttp?.readBinary?.readsPerSec],
		], { peer: c.peer?.readBinary?.readsPerSec, floor: c.floor?.readBinary?.readsPerSec });
	}
	add('server RSS after reads', 'MiB', 'lower', [
		[names.peer, c.peer?.memory?.rssMiB],
		[names.stdio, c.oursStdio?.memory?.rssMiB],
		[names.http, c.oursHttp?.memory?.rssMiB],
	], { peer: c.peer?.memory?.rssMiB });
	add('server peak RSS (VmHWM)', 'MiB', 'lower', [
		[names.peer, c.peer?.memory?.peakRssMiB],
		[names.stdio, c.oursStdio?.memory?.peakRssMiB],
		[names.http, c.oursHttp?.memory?.peakRssMiB],
	], { peer: c.peer?.memory?.peakRssMiB });

	const n = results.notify;
	if (n) {
		const who = n.transport.replace('ours (', 'ours ').replace(')', '');
		const updated = n.updated && 'latency' in n.updated ? n.updated : undefined;
		if (updated) {
			add(`resources/updated latency p50 (${updated.received}/${updated.samples} arrived)`, 'ms', 'lower', [[who, updated.latency.p50, { text: '<= 150 ms', absolute: v => v <= 150 }]]);
			add('resources/updated latency p99', 'ms', 'lower', [[who, updated.latency.p99, { text: '<= 500 ms', absolute: v => v <= 500 }]]);
		}
		const burst = n.burst && 'create' in n.burst ? n.burst : undefined;
		if (burst) {
			const b = burst.create;
			add(`burst of ${b.files} new files: list_changed received`, 'count', 'lower', [[who, b.listChanged, { text: '<= 10', absolute: v => v <= 10 }]]);
			add('burst: read p99 during burst', 'ms', 'lower', [[who, b.readLatency.p99, { text: '<= 50 ms', absolute: v => v <= 50 }]]);
			add('burst: read p50 during burst', 'ms', 'lower', [[who, b.readLatency.p50]]);
			add(`burst: slowest read during burst (${b.readsDuring} reads)`, 'ms', 'lower', [[who, b.readLatency.max]]);
			add('burst: last list_changed after burst start', 'ms', 'lower', [[who, b.lastListChangedAfterMs]]);
			add(`burst: all new files listed after (from burst start; writes took ${fmtNum(b.writeMs)} ms)`, 'ms', 'lower', [[who, b.visibleAfterMs ?? undefined]]);
			add(`burst: files listed at the end (expected ${b.expectedListed})`, 'files', 'higher', [[who, b.listedAfter, { text: `= ${b.expectedListed}`, absolute: v => v === b.expectedListed }]]);
			const d = burst.delete;
			add(`burst delete: list_changed received`, 'count', 'lower', [[who, d.listChanged, { text: '<= 10', absolute: v => v <= 10 }]]);
			add('burst delete: read p99 during delete', 'ms', 'lower', [[who, d.readLatency.p99]]);
			add(`burst delete: slowest read during delete (${d.readsDuring} reads)`, 'ms', 'lower', [[who, d.readLatency.max]]);
			add('burst delete: last list_changed after delete start', 'ms', 'lower', [[who, d.lastListChangedAfterMs]]);
			add('burst delete: list back to the base after', 'ms', 'lower', [[who, d.visibleAfterMs ?? undefined]]);
			add(`burst delete: files listed at the end (expected ${d.expectedListed})`, 'files', 'higher', [[who, d.listedAfter, { text: `= ${d.expectedListed}`, absolute: v => v === d.expectedListed }]]);
		}
	}

	return rows.map(row => {
		if (!row.aim) return { ...row, aim: null };
		let met: boolean | null = null;
		if (row.aim.absolute) met = row.value === null ? null : row.aim.absolute(row.value);
		else if (row.aim.check && row.vsPeer !== null && row.vsPeer !== undefined) met = row.aim.check(row.vsPeer);
		return { ...row, aim: { text: row.aim.text, met } };
	});
}

function renderTable(rows: readonly TableRow[]): string {
	const header = ['metric', 'contender', 'value', 'unit', 'vs server-fs', 'vs floor', 'aim'];
	const body: string[][] = [];
	let lastMetric: string | null = null;
	for (const r of rows) {
		body.push([
			r.metric === lastMetric ? '' : r.metric,
			r.contender,
			fmtNum(r.value, r.unit === 'count' || r.unit === 'files' ? 0 : undefined),
			r.unit,
			r.vsPeer === null ? '' : `${fmtNum(r.vsPeer, 2)}x`,
			r.vsFloor === null ? '' : `${fmtNum(r.vsFloor, 2)}x`,
			r.aim ? `${r.aim.text} ${r.aim.met === null ? '(n/a)' : r.aim.met ? 'MET' : 'MISSED'}` : '',
		]);
		lastMetric = r.metric;
	}
	const widths = header.map((h, i) => Math.max(h.length, ...body.map(b => b[i].length)));
	const numeric = new Set([2, 4, 5]);
	const line = (cells: readonly string[]) => cells.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd();
	const out = [line(header), widths.map(w => '-'.repeat(w)).join('  ')];
	lastMetric = null;
	for (let i = 0; i < body.length; i++) {
		if (rows[i].metric !== lastMetric && lastMetric !== null && body[i][0]) out.push('');
		out.push(line(body[i]));
		lastMetric = rows[i].metric;
	}
	return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
	const t0 = now();
	const cacheDir = path.join(BENCH_WORKSPACES, 'bench');
	mkdirSync(cacheDir, { recursive: true });
	log(`bench: ${opts.files} text files + ${opts.binaries} binaries, ${opts.reads} reads, node ${process.version}`);
	const ws = await ensureWorkspace({ cacheDir, files: opts.files, binaries: opts.binaries, seed: opts.seed, log });
	log(`workspace ${ws.root} (${ws.reused ? 'reused' : `generated in ${Math.round(ws.genMs)} ms`})`);
	const textPaths = ws.plan.text.map(e => path.join(ws.root, e.rel));
	const expectedSet = new Set([...textPaths, ...ws.plan.bins.map(e => path.join(ws.root, e.rel))]);
	results.workspace = { root: ws.root, key: ws.key, reused: ws.reused, genMs: round(ws.genMs), textFiles: opts.files, binaries: opts.binaries, totalFiles: expectedSet.size };

	// Same seeded sample for every contender; notification targets are other files.
	const order = shuffled(createRng(opts.seed * 31 + 7), ws.plan.text.map((_, i) => i));
	const sample: string[] = [];
	for (let i = 0; i < opts.reads; i++) sample.push(textPaths[order[i % order.length]]);
	const notifyTargets: TextEntry[] = [];
	for (let i = 0; i < opts.notifySamples; i++) notifyTargets.push(ws.plan.text[order[(order.length - 1 - i + order.length) % order.length]]);
	// In case an earlier run died mid notification test: put the generated content back.
	await restoreFiles(ws.root, notifyTargets);

	const home = mkdtempSync(path.join(os.tmpdir(), 'mcp-wr-bench-home-'));
	killAtExit(() => rmSync(home, { recursive: true, force: true }));
	const cli = path.resolve(repoRoot, opts.cli);
	const ctx: BenchContext = {
		root: ws.root, sample, expectedSet, expected: new Map(), notifyTargets, home,
		binaries: ws.plan.bins.map(e => path.join(ws.root, e.rel)), cli,
	};

	try {
		await runFloor(ctx);
	} catch (err) {
		recordError('floor (fs)', 'floor', err);
		const floorResult = results.contenders.floor;
		if (floorResult) floorResult.error = messageOf(err);
		throw err; // without expected contents nothing else can be verified
	}
	if (!opts.skipPeer) await runPeer(ctx);

	if (!existsSync(cli)) {
		recordError('ours', 'start', new Error(`${cli} does not exist (run npm run build)`), messageOf);
	} else {
		await runOurs(ctx, 'stdio');
		await runOurs(ctx, 'http');
		if (!opts.skipModern) {
			await runOurs(ctx, 'stdio', { key: 'oursModernStdio', make: o => modernContender('stdio', o) });
			await runOurs(ctx, 'http', { key: 'oursModernHttp', make: o => modernContender('http', o) });
			await runOurs(ctx, 'http', { key: 'oursModernHttpNodeHttp', make: o => modernNodeHttpContender(o, loopbackFetch()) });
		}
	}
	let previousCli: string | null = null;
	if (opts.previous) {
		try {
			previousCli = resolvePreviousCli(repoRoot, opts.previous, log);
		} catch (err) {
			if (opts.previousAsked) {
				recordError('previous build', 'build', err, messageOf);
			} else {
				problem(`the default previous build (the SDK v1 build, ${opts.previous}) was not measured: ${messageOf(err)} (--previous REF names another, --previous none skips it)`);
			}
		}
		if (previousCli) {
			results.previousCli = previousCli;
			await runOurs(ctx, 'stdio', { key: 'prevStdio', cli: previousCli, make: o => previousContender('stdio', o) });
			await runOurs(ctx, 'http', { key: 'prevHttp', cli: previousCli, make: o => previousContender('http', o) });
			if (!opts.skipModern) {
				await runOurs(ctx, 'stdio', { key: 'prevV2Stdio', cli: previousCli, make: o => previousV2Contender('stdio', o) });
				await runOurs(ctx, 'http', { key: 'prevV2Http', cli: previousCli, make: o => previousV2Contender('http', o) });
			}
		}
	}
	if (!opts.skipServerAlone && existsSync(cli)) {
		log('\n== the server alone: reads replayed as the SDK clients send them');
		results.serverAlone = await runServerAlone({ root: ctx.root, home, cli, previousCli, sample, expected: ctx.expected, listedAtLeast: expectedSet.size, rounds: opts.reps, log });
	}
	if (!opts.skipNotify && existsSync(cli)) await runDeferredNotify(ctx);
	rmSync(home, { recursive: true, force: true });

	results.finishedAt = new Date().toISOString();
	results.durationMs = round(now() - t0);
	results.env.loadAvgAtEnd = os.loadavg().map(v => round(v, 2));
	results.suppressedMaxListenersWarnings = warningState.suppressed;
	const rows = buildRows();
	results.table = rows.map(r => ({ ...r, vsPeer: round(r.vsPeer), vsFloor: round(r.vsFloor) }));
	results.eras = { table: eraRows(results), httpOverStdio: httpOverStdio(results) };

	const outDir = path.join(repoRoot, 'bench-results');
	mkdirSync(outDir, { recursive: true });
	const stamp = results.startedAt.replace(/[:.]/g, '-');
	const json = JSON.stringify(results, null, 2);
	const file = path.join(outDir, `bench-${stamp}.json`);
	writeFileSync(file, json);
	writeFileSync(path.join(outDir, 'latest.json'), json);

	if (opts.jsonOnly) {
		process.stdout.write(`${json}\n`);
	} else {
		const out = [];
		out.push('');
		out.push(`MCP Workspace Resources bench — ${results.workspace.textFiles} text files (~2 KB) + ${results.workspace.binaries} binaries (~50 KB), ${opts.reads} reads, ${results.env.cpus}, node ${process.version}, commit ${results.env.commit ?? '?'}`);
		out.push(`load average (1 min) at start ${results.env.loadAvgAtStart[0]}, at end ${results.env.loadAvgAtEnd[0]} on ${os.cpus().length} CPUs — other work on the machine skews the numbers`);
		out.push('ratios: how many times better than server-filesystem / the fs floor (>1 = better, for times and for throughput alike)');
		out.push('');
		out.push(renderTable(rows));
		const eras = renderEras(results);
		if (eras) out.push('', eras);
		if (results.serverAlone) out.push('', renderServerAlone(results.serverAlone));
		if (results.problems.length) {
			out.push('');
			out.push('problems:');
			for (const p of results.problems) out.push(`  - ${p}`);
		}
		if (results.errors.length) {
			out.push('');
			out.push('ERRORS:');
			for (const e of results.errors) out.push(`  - ${e.contender} during ${e.phase}: ${e.message.split('\n')[0]}`);
		}
		out.push('');
		out.push(`wrote ${path.relative(repoRoot, file)} and bench-results/latest.json (${(results.durationMs / 1000).toFixed(1)} s)`);
		process.stdout.write(`${out.join('\n')}\n`);
	}
	return results.errors.length ? 1 : 0;
}

// Exit explicitly: the exit hook kills anything still registered, so no server outlives the bench.
main().then(code => process.exit(code), err => {
	log(`bench failed: ${err?.stack ?? err}`);
	process.exit(1);
});
