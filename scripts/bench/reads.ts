// The reads section: a generated workspace of 20,000 text files (~2 KB) and 200 binaries (~50 KB)
// listed and read by this build, the previous build and the minimal SDK server, each in both
// eras over stdio and HTTP, beside the floor (plain fs) and @modelcontextprotocol/server-filesystem
// (stdio, its tools). Every contender reads the same seeded sample, checked against the floor's
// bytes. Per contender: listing, first page, reads one at a time and 8 in flight with the CPU
// each side spent per read, binary reads, ping (2025), memory.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtScript } from './builtScript.js';
import { Contender, ERAS, ServerFilesystem, TRANSPORTS, floor, type Era, type Transport } from './contenders.js';
import {
	cpuMark, cpuPerItem, indexLine, median, now, processMemory, round, summarize, timeEach, timesBetter, type LatencySummary,
} from './measurement.js';
import { fmt, fmtRatio, renderTable } from './report.js';
import type { AimVerdict, SectionContext, SectionReport } from './section.js';
import { ensureWorkspace, seededOrder } from './workspace.js';

/** The aims a user feels: read p50 per transport, stdio reads/s against server-filesystem, the first page. */
const READ_P50_AIM_MS: Record<Transport, number> = { stdio: 1, http: 2 };
const FIRST_PAGE_AIM_MS = 20;

/** Reads of one kind: rate, latency, failures. */
export interface ReadSummary { readsPerSec: number; latency: LatencySummary; errors: number }

/** What the section records of one contender (fields it could not measure are left out). */
export interface ContenderResult {
	error?: string;
	coldFirstPageMs?: number;
	indexMs?: number;
	enumerateMs?: number | null;
	pages?: number;
	warmFirstPageMs?: number | null;
	ping?: LatencySummary;
	readSeq?: ReadSummary;
	read8?: ReadSummary;
	read8Sessions?: ReadSummary;
	readBinary?: ReadSummary;
	serverCpuPerReadUs?: number | null;
	clientCpuPerReadUs?: number | null;
	rssMiB?: number | null;
	exitedCleanly?: boolean;
}

/** The contenders measured, by key: `floor`, `server-filesystem`, `<build> <transport> <era>` for the rest. */
export type ReadsResults = Record<string, ContenderResult>;

const BUILDS = ['this build', 'previous', 'minimal SDK'] as const;
type Build = (typeof BUILDS)[number];
export const contenderKey = (build: Build, transport: Transport, era: Era) => `${build} ${transport} ${era}`;

interface Plan { root: string; sample: string[]; binaries: string[]; expected: Map<string, string>; expectedFiles: number; reps: number; home: string }

/** A timed pass after a warm-up of up to 100 reads; throws when a read fails or returns other text than the floor's. */
async function timedReads(plan: Plan, concurrency: number, read: (absPath: string, worker: number) => Promise<string>): Promise<ReadSummary> {
	await timeEach(plan.sample.slice(0, 100), concurrency, read);
	const run = await timeEach(plan.sample, concurrency, read);
	if (run.errors) throw new Error(`${run.errors} of ${plan.sample.length} reads failed; first: ${run.firstError instanceof Error ? run.firstError.message : String(run.firstError)}`);
	const wrong = plan.sample.filter((p, i) => run.results[i] !== plan.expected.get(p));
	if (wrong.length) throw new Error(`${wrong.length} reads returned other text than the file's, e.g. ${wrong[0]}`);
	return { readsPerSec: round(run.readsPerSec, 1), latency: summarize(run.latencies), errors: run.errors };
}

async function timedBinaryReads(plan: Plan, read: (absPath: string) => Promise<Uint8Array>): Promise<ReadSummary | undefined> {
	if (plan.binaries.length === 0) return undefined;
	const run = await timeEach(plan.binaries, 1, read);
	if (run.errors) throw new Error(`${run.errors} binary reads failed; first: ${run.firstError instanceof Error ? run.firstError.message : String(run.firstError)}`);
	for (const [i, p] of plan.binaries.entries()) {
		if (!Buffer.from(run.results[i] ?? []).equals(await fsp.readFile(p))) throw new Error(`a binary read returned other bytes than ${p}`);
	}
	return { readsPerSec: round(run.readsPerSec, 1), latency: summarize(run.latencies), errors: 0 };
}

async function timed<T>(reps: number, work: () => Promise<T>): Promise<{ ms: number | null; last: T }> {
	let last = await work(); // warm-up
	const times: number[] = [];
	for (let i = 0; i < reps; i++) {
		const t = now();
		last = await work();
		times.push(now() - t);
	}
	return { ms: round(median(times), 1) ?? null, last };
}

async function pingLatency(ping: () => Promise<unknown>, n = 200): Promise<LatencySummary> {
	const times: number[] = [];
	for (let i = 0; i < n; i++) {
		const t = now();
		await ping();
		times.push(now() - t);
	}
	return summarize(times);
}

async function measureFloor(plan: Plan): Promise<ContenderResult> {
	const listing = await timed(plan.reps, () => floor.enumerate(plan.root));
	for (const p of plan.sample) plan.expected.set(p, await floor.read(p));
	return {
		enumerateMs: listing.ms,
		readSeq: await timedReads(plan, 1, p => floor.read(p)),
		read8: await timedReads(plan, 8, p => floor.read(p)),
		readBinary: await timedBinaryReads(plan, p => floor.readBinary(p)),
	};
}

async function measureServerFilesystem(plan: Plan): Promise<ContenderResult> {
	const peer = new ServerFilesystem(plan.root);
	try {
		await peer.start();
		const listing = await timed(plan.reps, () => peer.enumerate());
		if (listing.last.length < plan.expectedFiles) throw new Error(`directory_tree listed ${listing.last.length} of ${plan.expectedFiles} files`);
		return {
			enumerateMs: listing.ms, ping: await pingLatency(() => peer.ping()),
			readSeq: await timedReads(plan, 1, p => peer.read(p)),
			read8: await timedReads(plan, 8, p => peer.read(p)),
			readBinary: peer.tools.includes('read_media_file') ? await timedBinaryReads(plan, p => peer.readBinary(p)) : undefined,
			rssMiB: processMemory(peer.pid)?.rssMiB,
		};
	} catch (err) {
		throw new Error(`${err instanceof Error ? err.message : String(err)}\n${peer.stderr.tail(800)}`);
	} finally {
		await peer.close();
	}
}

async function measureContender(contender: Contender, plan: Plan): Promise<ContenderResult> {
	const r: ContenderResult = {};
	await contender.start();
	await contender.firstPage();
	r.coldFirstPageMs = round(now() - contender.startedAt, 1);
	const first = await contender.enumerate(); // the first listing builds the index, if it is not built yet
	const listing = await timed(plan.reps, () => contender.enumerate());
	r.indexMs = indexLine(contender.stderr.tail(Infinity))?.ms;
	r.enumerateMs = listing.ms;
	r.pages = listing.last.pages;
	const listed = new Set(listing.last.files);
	if (listed.size < plan.expectedFiles || listed.size !== listing.last.files.length) {
		throw new Error(`the listing holds ${listed.size} distinct files (${listing.last.files.length} entries) of ${plan.expectedFiles} (first listing: ${first.files.length})`);
	}
	const firstPages: number[] = [];
	for (let i = 0; i < 5; i++) {
		const t = now();
		await contender.firstPage();
		firstPages.push(now() - t);
	}
	r.warmFirstPageMs = round(median(firstPages), 2);
	if (contender.era === '2025') r.ping = await pingLatency(() => contender.client.ping());
	const mark = cpuMark(contender.pid);
	r.readSeq = await timedReads(plan, 1, p => contender.read(p));
	({ serverUs: r.serverCpuPerReadUs, clientUs: r.clientCpuPerReadUs } = cpuPerItem(mark, contender.pid, plan.sample.length + Math.min(100, plan.sample.length)));
	r.read8 = await timedReads(plan, 8, p => contender.read(p));
	if (contender.transport === 'http') {
		// Eight clients, each with a session of its own and one read in flight on it.
		const sessions = await Promise.all(Array.from({ length: 8 }, () => contender.openSession()));
		r.read8Sessions = await timedReads(plan, 8, (p, w) => contender.read(p, undefined, sessions[w]));
		for (const s of sessions) await contender.closeSession(s);
	}
	r.readBinary = await timedBinaryReads(plan, p => contender.readBinary(p));
	r.rssMiB = processMemory(contender.pid)?.rssMiB;
	if (contender.counts.textAsBlob) throw new Error(`${contender.counts.textAsBlob} text files came back as base64 blobs`);
	return r;
}

interface Row { label: string; unit: string; better: 'lower' | 'higher'; pick(r: ContenderResult): number | null | undefined; transports?: readonly Transport[]; eras?: readonly Era[] }

const ROWS: Row[] = [
	{ label: 'list every file (median)', unit: 'ms', better: 'lower', pick: r => r.enumerateMs },
	{ label: 'first page, once indexed (median of 5)', unit: 'ms', better: 'lower', pick: r => r.warmFirstPageMs },
	{ label: 'first page after spawn (cold)', unit: 'ms', better: 'lower', pick: r => r.coldFirstPageMs },
	{ label: 'index built (server log)', unit: 'ms', better: 'lower', pick: r => r.indexMs },
	{ label: 'reads/s, 1 at a time', unit: 'reads/s', better: 'higher', pick: r => r.readSeq?.readsPerSec },
	{ label: 'read p50, 1 at a time', unit: 'ms', better: 'lower', pick: r => r.readSeq?.latency.p50 },
	{ label: 'read p99, 1 at a time', unit: 'ms', better: 'lower', pick: r => r.readSeq?.latency.p99 },
	{ label: 'reads/s, 8 in flight', unit: 'reads/s', better: 'higher', pick: r => r.read8?.readsPerSec },
	{ label: 'reads/s, 8 clients x 1', unit: 'reads/s', better: 'higher', pick: r => r.read8Sessions?.readsPerSec, transports: ['http'] },
	{ label: 'server CPU per read, 1 at a time', unit: 'µs', better: 'lower', pick: r => r.serverCpuPerReadUs },
	{ label: 'bench client CPU per read', unit: 'µs', better: 'lower', pick: r => r.clientCpuPerReadUs },
	{ label: 'binary reads/s (~50 KB), 1 at a time', unit: 'reads/s', better: 'higher', pick: r => r.readBinary?.readsPerSec },
	{ label: 'ping p50', unit: 'ms', better: 'lower', pick: r => r.ping?.p50, eras: ['2025'] },
	{ label: 'server RSS after reads', unit: 'MiB', better: 'lower', pick: r => r.rssMiB },
];

/** One table per transport and era: this build, the previous build (and how many times better this one is), the anchors. */
export function renderReads(results: ReadsResults, files: number): string {
	const out: string[] = [];
	for (const transport of TRANSPORTS) {
		for (const era of ERAS) {
			const [ours, previous, minimal] = BUILDS.map(b => results[contenderKey(b, transport, era)]);
			if (!ours && !previous && !minimal) continue;
			const anchors = transport === 'stdio' ? [results['server-filesystem'], results.floor] : [];
			const rows = ROWS.filter(row => (row.transports ?? TRANSPORTS).includes(transport) && (row.eras ?? ERAS).includes(era)).map(row => {
				const at = (r: ContenderResult | undefined) => (r ? row.pick(r) : undefined);
				return [`${row.label} (${row.unit})`, fmt(at(ours)), fmt(at(previous)), fmtRatio(timesBetter(at(ours), at(previous), row.better)), fmt(at(minimal)), ...anchors.map(a => fmt(at(a)))];
			});
			const header = [`${transport}, ${era} (${files.toLocaleString('en-US')} files)`, 'this build', 'previous', 'vs previous', 'minimal SDK', ...transport === 'stdio' ? ['server-fs', 'floor'] : []];
			out.push(renderTable(header, rows), '');
		}
	}
	out.push('vs previous: how many times better this build is (>1 better, for times and rates alike); server-fs: @modelcontextprotocol/server-filesystem (stdio, 2025, its tools); floor: plain fs');
	return out.join('\n');
}

/** The aims this section judges, for this build, beside the previous build's value and an anchor's. */
export function readsAims(results: ReadsResults, files: number): AimVerdict[] {
	const aims: AimVerdict[] = [];
	const size = `${files.toLocaleString('en-US')} files`;
	for (const transport of TRANSPORTS) {
		for (const era of ERAS) {
			const ours = results[contenderKey('this build', transport, era)];
			if (!ours) continue;
			const previous = results[contenderKey('previous', transport, era)];
			const minimal = results[contenderKey('minimal SDK', transport, era)];
			const where = `${transport}, ${era}, ${size}`;
			const p50 = ours.readSeq?.latency.p50;
			aims.push({
				aim: `read p50 <= ${READ_P50_AIM_MS[transport]} ms`, where, unit: 'ms', value: p50, previous: previous?.readSeq?.latency.p50,
				anchor: { name: 'minimal SDK', value: minimal?.readSeq?.latency.p50 }, met: typeof p50 === 'number' ? p50 <= READ_P50_AIM_MS[transport] : null,
			});
			if (transport === 'stdio') {
				const peer = results['server-filesystem'];
				for (const [label, pick] of [['1 at a time', (r?: ContenderResult) => r?.readSeq?.readsPerSec], ['8 in flight', (r?: ContenderResult) => r?.read8?.readsPerSec]] as const) {
					const value = pick(ours);
					const anchor = pick(peer);
					aims.push({
						aim: `reads/s ${label} >= server-filesystem's`, where, unit: 'reads/s', value, previous: pick(previous), anchor: { name: 'server-fs', value: anchor },
						met: typeof value === 'number' && typeof anchor === 'number' ? value >= anchor : null,
					});
				}
			}
			const page = ours.warmFirstPageMs;
			aims.push({
				aim: `first page <= ${FIRST_PAGE_AIM_MS} ms`, where, unit: 'ms', value: page, previous: previous?.warmFirstPageMs,
				anchor: { name: 'minimal SDK', value: minimal?.warmFirstPageMs }, met: typeof page === 'number' ? page <= FIRST_PAGE_AIM_MS : null,
			});
		}
	}
	return aims;
}

/** The reads section: `npm run bench -- --section reads`. */
export async function runReads(ctx: SectionContext): Promise<SectionReport> {
	const { flags, quick, log } = ctx;
	const files = flags.number('--files', quick ? 2000 : 20_000, 1);
	const binaries = flags.number('--binaries', quick ? 20 : 200);
	const seed = flags.number('--seed', 1);
	const reads = flags.number('--reads', quick ? 300 : 2000, 1);
	const reps = flags.number('--reps', quick ? 1 : 3, 1);
	const ws = await ensureWorkspace({ files, binaries, seed, log });
	log(`workspace ${ws.root} (${ws.reused ? 'reused' : `generated in ${Math.round(ws.genMs)} ms`})`);
	const plan: Plan = {
		root: ws.root, sample: seededOrder(ws, seed, reads).sample, binaries: ws.plan.bins.map(e => path.join(ws.root, e.rel)), expected: new Map(),
		expectedFiles: files + binaries, reps, home: ctx.home,
	};
	const results: ReadsResults = {};
	const errors: string[] = [];
	const problems: string[] = [];
	const measure = async (key: string, work: () => Promise<ContenderResult>, mine: boolean) => {
		log(`\n== reads: ${key}`);
		try {
			results[key] = await work();
			const r = results[key];
			log(`  listing ${r.enumerateMs} ms, first page ${r.warmFirstPageMs ?? '—'} ms, ${r.readSeq?.readsPerSec} reads/s (p50 ${r.readSeq?.latency.p50} ms), 8 in flight ${r.read8?.readsPerSec} reads/s`);
		} catch (err) {
			const message = err instanceof Error ? err.message : String(err);
			results[key] = { error: message };
			log(`  !! ${message}`);
			(mine ? errors : problems).push(`reads, ${key}: ${message.split('\n')[0]}`);
		}
	};
	await measure('floor', () => measureFloor(plan), true);
	if (results.floor.error) return { results, text: 'reads: the floor failed, nothing else can be checked', errors };
	await measure('server-filesystem', () => measureServerFilesystem(plan), false);
	const clis: Record<Build, string | null> = { 'this build': ctx.cli, previous: ctx.previousCli(), 'minimal SDK': await builtScript('minimalServer', fileURLToPath(new URL('./minimalServer.ts', import.meta.url))) };
	for (const transport of TRANSPORTS) {
		for (const era of ERAS) {
			// Builds take turns within each transport and era, so a busy moment weighs on all alike.
			for (const build of BUILDS) {
				const cli = clis[build];
				if (!cli) continue;
				const key = contenderKey(build, transport, era);
				const contender = new Contender(key, { cli, root: plan.root, home: plan.home }, transport, era);
				await measure(key, async () => {
					try {
						return await measureContender(contender, plan);
					} catch (err) {
						throw new Error(contender.describeFailure(err));
					} finally {
						const { exitedCleanly } = await contender.close();
						if (!exitedCleanly) problems.push(`${key}: the server did not exit on ${transport === 'http' ? 'SIGTERM within 5 s' : 'stdin closing within 2 s'}`);
					}
				}, build === 'this build');
			}
		}
	}
	return { results: { files, binaries, reads, reps, contenders: results }, text: renderReads(results, files), aims: readsAims(results, files), errors, problems };
}
