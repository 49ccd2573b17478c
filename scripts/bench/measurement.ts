// Shared helpers for the benches: seeded PRNG, statistics, timing, a stderr tail, warnings.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';

/** A seeded source of floats in [0, 1). */
export type Rng = () => number;

/** Seeded 32-bit PRNG (mulberry32). Returns floats in [0, 1). */
export function createRng(seed: number): Rng {
	let a = seed >>> 0;
	return function next() {
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

/** Deterministic Fisher-Yates shuffle (returns a copy). */
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

/** Nearest-rank percentile of an unsorted array of numbers. */
export function percentile(values: readonly number[], p: number): number | null {
	if (values.length === 0) return null;
	const sorted = Float64Array.from(values).sort();
	const rank = Math.ceil((p / 100) * sorted.length);
	return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** The middle value of a non-empty set, the upper one of an even count (what the picker benches report). */
export function middle(values: readonly number[]): number {
	return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

export function median(values: readonly number[]): number | null {
	if (values.length === 0) return null;
	const sorted = Float64Array.from(values).sort();
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Count and percentiles of a set of latencies (ms); only `n` when there are none. */
export interface LatencySummary {
	n: number;
	p50?: number | null;
	p90?: number | null;
	p99?: number | null;
	mean?: number;
	max?: number;
}

export function summarize(latencies: readonly number[]): LatencySummary {
	if (latencies.length === 0) return { n: 0 };
	let sum = 0;
	let max = 0;
	for (const v of latencies) {
		sum += v;
		if (v > max) max = v;
	}
	return {
		n: latencies.length,
		p50: round(percentile(latencies, 50)),
		p90: round(percentile(latencies, 90)),
		p99: round(percentile(latencies, 99)),
		mean: round(sum / latencies.length),
		max: round(max),
	};
}

/** `v` rounded to `digits` decimals; null, undefined and non-finite values pass through. */
export function round(v: number, digits?: number): number;
export function round(v: number | null | undefined, digits?: number): number | null | undefined;
export function round(v: number | null | undefined, digits = 3): number | null | undefined {
	if (v === null || v === undefined || !Number.isFinite(v)) return v;
	const f = 10 ** digits;
	return Math.round(v * f) / f;
}

/** Run `fn` with a timeout; rejects with a descriptive error. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	try {
		return await Promise.race([
			promise,
			new Promise<never>((_, reject) => {
				timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
			}),
		]);
	} finally {
		clearTimeout(timer);
	}
}

/** VmRSS / VmHWM of a live process in KiB (Linux /proc), or null. */
/**
 * CPU time (user + system, ms) of one thread of a process: its main thread by default, the one
 * whose event loop the process's callbacks run on. Linux only (/proc), 10 ms resolution; null elsewhere.
 */
export function readThreadCpuMs(pid: number | null | undefined, tid = pid): number | null {
	if (!pid || !tid) return null;
	try {
		// Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are the 12th and 13th.
		const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return (Number(fields[11]) + Number(fields[12])) * 10;
	} catch {
		return null;
	}
}

export function readProcMemory(pid: number | null | undefined): { rssKiB: number | null; hwmKiB: number | null } | null {
	if (!pid) return null;
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const grab = (key: string) => {
			const m = status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
			return m ? Number(m[1]) : null;
		};
		return { rssKiB: grab('VmRSS'), hwmKiB: grab('VmHWM') };
	} catch {
		return null;
	}
}

/** The last characters a stream wrote (a child's stderr), for a failure's report. */
export class TailBuffer {
	private text = '';
	constructor(private readonly limit = 16_384) {}
	attach(stream: Readable | null | undefined): this {
		if (!stream) return this;
		stream.setEncoding('utf8');
		stream.on('data', (chunk: string) => this.push(chunk));
		stream.on('error', () => { /* the process is going away */ });
		return this;
	}
	push(chunk: string): void {
		this.text += chunk;
		if (this.text.length > this.limit * 2) this.text = this.text.slice(-this.limit);
	}
	tail(chars = 2000): string {
		return this.text.slice(-chars);
	}
}

/**
 * The SDK's HTTP client shares one AbortSignal across requests and trips
 * MaxListenersExceededWarning under load. Count those, print every other warning.
 */
export function filterMaxListenersWarnings(): { suppressed: number } {
	const state = { suppressed: 0 };
	process.removeAllListeners('warning');
	process.on('warning', warning => {
		if (warning.name === 'MaxListenersExceededWarning') {
			state.suppressed++;
			return;
		}
		process.stderr.write(`${warning.name}: ${warning.message}\n`);
	});
	return state;
}

/** The finite numbers `pick` finds in `runs` (a failed run leaves its fields out). */
function picked<T>(runs: readonly T[], pick: (run: T) => number | null | undefined): number[] {
	return runs.map(pick).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

/** The median of what `pick` finds in `runs`, to 2 decimals, or null when none has it. */
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

/** A table cell: '—' for nothing, whole numbers from 100 up, 2 decimals below. */
export function formatCell(v: number | null | undefined): string {
	return v === null || v === undefined ? '—' : Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : String(round(v, 2));
}
