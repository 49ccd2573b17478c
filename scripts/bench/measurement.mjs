// Shared helpers for scripts/bench/bench.mjs: seeded PRNG, statistics, timing, process bookkeeping.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Seeded 32-bit PRNG (mulberry32). Returns floats in [0, 1). */
export function createRng(seed) {
	let a = seed >>> 0;
	return function next() {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function randInt(rng, lo, hiInclusive) {
	return lo + Math.floor(rng() * (hiInclusive - lo + 1));
}

export function pick(rng, list) {
	return list[Math.floor(rng() * list.length)];
}

/** Deterministic Fisher-Yates shuffle (returns a copy). */
export function shuffled(rng, list) {
	const out = list.slice();
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(rng() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

export const now = () => performance.now();

export function sleep(ms) {
	return new Promise(resolve => setTimeout(resolve, ms));
}

/** Nearest-rank percentile of an unsorted array of numbers. */
export function percentile(values, p) {
	if (values.length === 0) return null;
	const sorted = Float64Array.from(values).sort();
	const rank = Math.ceil((p / 100) * sorted.length);
	return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function median(values) {
	if (values.length === 0) return null;
	const sorted = Float64Array.from(values).sort();
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarize(latencies) {
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

export function round(v, digits = 3) {
	if (v === null || v === undefined || !Number.isFinite(v)) return v;
	const f = 10 ** digits;
	return Math.round(v * f) / f;
}

/** Run `fn` with a timeout; rejects with a descriptive error. */
export async function withTimeout(promise, ms, what) {
	let timer;
	try {
		return await Promise.race([
			promise,
			new Promise((_, reject) => {
				timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
			}),
		]);
	} finally {
		clearTimeout(timer);
	}
}

/** VmRSS / VmHWM of a live process in KiB (Linux /proc), or null. */
export function readProcMemory(pid) {
	if (!pid) return null;
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const grab = key => {
			const m = status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
			return m ? Number(m[1]) : null;
		};
		return { rssKiB: grab('VmRSS'), hwmKiB: grab('VmHWM') };
	} catch {
		return null;
	}
}

export class TailBuffer {
	constructor(limit = 16_384) {
		this.limit = limit;
		this.text = '';
	}
	attach(stream) {
		if (!stream) return this;
		stream.setEncoding?.('utf8');
		stream.on('data', chunk => this.push(String(chunk)));
		stream.on('error', () => { /* the process is going away */ });
		return this;
	}
	push(chunk) {
		this.text += chunk;
		if (this.text.length > this.limit * 2) this.text = this.text.slice(-this.limit);
	}
	tail(chars = 2000) {
		return this.text.slice(-chars);
	}
}

/**
 * The SDK's HTTP client shares one AbortSignal across requests and trips
 * MaxListenersExceededWarning under load. Count those, print every other warning.
 */
export function filterMaxListenersWarnings() {
	const state = { suppressed: 0 };
	process.removeAllListeners('warning');
	process.on('warning', warning => {
		if (warning?.name === 'MaxListenersExceededWarning') {
			state.suppressed++;
			return;
		}
		process.stderr.write(`${warning?.name ?? 'Warning'}: ${warning?.message ?? warning}\n`);
	});
	return state;
}
