// What every section measures with: a seeded PRNG, statistics, timing, timed reads, what a
// process costs (Linux /proc: memory, CPU), a child's stderr kept and read line by line.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';

/** A seeded source of floats in [0, 1). */
export type Rng = () => number;

/** Seeded 32-bit PRNG (mulberry32). */
export function createRng(seed: number): Rng {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function randInt(rng: Rng, lo: number, hiInclusive: number): number {
	return lo + Math.floor(rng() * (hiInclusive - lo + 1));
}

export function pick<T>(rng: Rng, list: readonly T[]): T {
	return list[Math.floor(rng() * list.length)];
}

/** Deterministic Fisher-Yates shuffle (a copy). */
export function shuffled<T>(rng: Rng, list: readonly T[]): T[] {
	const out = list.slice();
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(rng() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

export const now = () => performance.now();

export function sleep(ms: number): Promise<void> {
	return new Promise(resolve => setTimeout(resolve, ms));
}

/** `promise`, or a rejection naming `what` after `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	try {
		return await Promise.race([promise, new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
		})]);
	} finally {
		clearTimeout(timer);
	}
}

/** `v` rounded to `digits` decimals; null, undefined and non-finite values pass through. */
export function round(v: number, digits?: number): number;
export function round(v: number | null | undefined, digits?: number): number | null | undefined;
export function round(v: number | null | undefined, digits = 3): number | null | undefined {
	if (v === null || v === undefined || !Number.isFinite(v)) return v;
	const f = 10 ** digits;
	return Math.round(v * f) / f;
}

/** Nearest-rank percentile of unsorted numbers. */
export function percentile(values: readonly number[], p: number): number | null {
	if (values.length === 0) return null;
	const sorted = Float64Array.from(values).sort();
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function median(values: readonly number[]): number | null {
	if (values.length === 0) return null;
	const sorted = Float64Array.from(values).sort();
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Count and percentiles of latencies (ms); only `n` when there are none. */
export interface LatencySummary { n: number; p50?: number | null; p90?: number | null; p99?: number | null; mean?: number; max?: number }

export function summarize(latencies: readonly number[]): LatencySummary {
	if (latencies.length === 0) return { n: 0 };
	let sum = 0;
	let max = 0;
	for (const v of latencies) {
		sum += v;
		if (v > max) max = v;
	}
	return {
		n: latencies.length, p50: round(percentile(latencies, 50)), p90: round(percentile(latencies, 90)), p99: round(percentile(latencies, 99)),
		mean: round(sum / latencies.length), max: round(max),
	};
}

/** The finite numbers `pick` finds in `runs` (a failed run leaves its fields out). */
function picked<T>(runs: readonly T[], pick: (run: T) => number | null | undefined): number[] {
	return runs.map(pick).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

/** The median of what `pick` finds in `runs`, to 2 decimals, or null. */
export function medianOf<T>(runs: readonly T[], pick: (run: T) => number | null | undefined): number | null {
	const values = picked(runs, pick);
	return values.length ? round(median(values), 2) ?? null : null;
}

/** The largest of what `pick` finds in `runs`, or null. */
export function maxOf<T>(runs: readonly T[], pick: (run: T) => number | null | undefined): number | null {
	const values = picked(runs, pick);
	return values.length ? Math.max(...values) : null;
}

/** The smallest and largest of what `pick` finds in `runs`, or null. */
export function rangeOf<T>(runs: readonly T[], pick: (run: T) => number | null | undefined): [number, number] | null {
	const values = picked(runs, pick);
	return values.length ? [Math.min(...values), Math.max(...values)] : null;
}

/** How many times better `value` is than `reference` (>1 better, for times and rates alike), or null. */
export function timesBetter(value: number | null | undefined, reference: number | null | undefined, better: 'lower' | 'higher'): number | null {
	if (typeof value !== 'number' || typeof reference !== 'number' || !(value > 0) || !(reference > 0) || !Number.isFinite(value) || !Number.isFinite(reference)) return null;
	return round(better === 'lower' ? reference / value : value / reference, 2);
}

/** What timeEach measured: each item's latency (ms) and result, the wall time, the failures. */
export interface TimedRun<R> { latencies: number[]; results: (R | undefined)[]; wallMs: number; errors: number; firstError: unknown; readsPerSec: number }

/** `fn(item, worker)` over `items` with `concurrency` in flight, each timed. */
export async function timeEach<T, R>(items: readonly T[], concurrency: number, fn: (item: T, worker: number) => Promise<R>): Promise<TimedRun<R>> {
	const latencies = new Array<number>(items.length);
	const results = new Array<R | undefined>(items.length);
	let next = 0;
	let firstError: unknown = null;
	let errors = 0;
	const t0 = now();
	await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async (_, w) => {
		while (next < items.length) {
			const i = next++;
			const s = now();
			try {
				results[i] = await fn(items[i], w);
			} catch (err) {
				errors++;
				firstError ??= err;
			}
			latencies[i] = now() - s;
		}
	}));
	const wallMs = now() - t0;
	return { latencies, results, wallMs, errors, firstError, readsPerSec: items.length / (wallMs / 1000) };
}

/** Fields of /proc/<pid>[/task/<tid>]/stat after the command name (which may hold spaces and parentheses). */
function statFields(file: string): string[] | null {
	try {
		const stat = readFileSync(file, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return null;
	}
}

/** User + system CPU (ms, 10 ms ticks) of a live process, or of one of its threads; null when gone or not Linux. */
export function cpuMs(pid: number | null | undefined, tid?: number): number | null {
	if (!pid) return null;
	const fields = statFields(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`);
	return fields ? (Number(fields[11]) + Number(fields[12])) * 10 : null;
}

/** CPU of a process's main thread (its event loop's), ms. */
export const mainThreadCpuMs = (pid: number | null | undefined) => (pid ? cpuMs(pid, pid) : null);

/** VmRSS and VmHWM (the peak) of a live process, MiB to one decimal, or null. */
export function processMemory(pid: number | null | undefined): { rssMiB: number | null; peakRssMiB: number | null } | null {
	if (!pid) return null;
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const mib = (key: string) => {
			const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
			return m ? round(Number(m[1]) / 1024, 1) : null;
		};
		return { rssMiB: mib('VmRSS'), peakRssMiB: mib('VmHWM') };
	} catch {
		return null;
	}
}

/** Where a timed phase started: a server's CPU and this process's own (the bench's client). */
export interface CpuMark { readonly serverMs: number | null; readonly client: NodeJS.CpuUsage }

export function cpuMark(pid: number | undefined): CpuMark {
	return { serverMs: cpuMs(pid), client: process.cpuUsage() };
}

/**
 * Server and bench-client CPU per item (µs) since `mark`: one read at a time, a round trip is
 * roughly the two added up, so the pair says which side a transport's reads/s waits for.
 */
export function cpuPerItem(mark: CpuMark, pid: number | undefined, items: number): { serverUs: number | null; clientUs: number | null } {
	const client = process.cpuUsage(mark.client);
	const server = cpuMs(pid);
	return {
		serverUs: mark.serverMs === null || server === null || items <= 0 ? null : round(((server - mark.serverMs) * 1000) / items, 0),
		clientUs: items > 0 ? round((client.user + client.system) / items, 0) : null,
	};
}

/** A child's stderr: its tail kept for a failure's report, each complete line handed to the watchers. */
export class StderrLines {
	private text = '';
	private partial = '';
	private readonly watchers = new Set<(line: string) => void>();

	attach(stream: Readable | null | undefined): this {
		stream?.setEncoding('utf8');
		stream?.on('data', (chunk: string) => this.push(chunk));
		stream?.on('error', () => { /* the process is going away */ });
		return this;
	}

	push(chunk: string): void {
		this.text += chunk;
		if (this.text.length > 32_768) this.text = this.text.slice(-16_384);
		this.partial += chunk;
		for (let nl = this.partial.indexOf('\n'); nl >= 0; nl = this.partial.indexOf('\n')) {
			const line = this.partial.slice(0, nl);
			this.partial = this.partial.slice(nl + 1);
			for (const watch of this.watchers) watch(line);
		}
	}

	tail(chars = 2000): string {
		return this.text.slice(-chars);
	}

	/** Calls `watch` with every line from now on; returns its removal. */
	onLine(watch: (line: string) => void): () => void {
		this.watchers.add(watch);
		return () => this.watchers.delete(watch);
	}
}

/** The host's own "indexed N files in M ms" line, once a server has written it. */
export function indexLine(text: string): { files: number; ms: number } | undefined {
	const m = /indexed ([\d,]+) files in ([\d,]+) ms/.exec(text);
	return m ? { files: Number(m[1].replace(/,/g, '')), ms: Number(m[2].replace(/,/g, '')) } : undefined;
}

/**
 * The SDK's HTTP clients share one AbortSignal across requests and trip
 * MaxListenersExceededWarning under load: those are counted, every other warning printed.
 */
export function quietListenerWarnings(): { suppressed: number } {
	const state = { suppressed: 0 };
	process.removeAllListeners('warning');
	process.on('warning', warning => {
		if (warning.name === 'MaxListenersExceededWarning') state.suppressed++;
		else process.stderr.write(`${warning.name}: ${warning.message}\n`);
	});
	return state;
}
