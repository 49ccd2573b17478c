// Both protocol eras side by side for scripts/bench/bench.ts, next to the previous build: the
// eras table, the HTTP/stdio ratios, building the previous build, and CPU per read.
//
//   - legacy era: the existing contenders (SDK v1 client, initialize + sessions, resources/subscribe).
//   - modern era: the SDK v2 client pinned to 2026-07-28 (v2Contenders.ts).
//   - previous build: another build's dist/cli.js (`--previous REF` builds a git ref into
//     .cache/bench/previous/<sha>, once; `--previous PATH` takes a cli.js), read by the v1 client
//     (the legacy rows' reference) and by the v2 client in its 2025 mode (the modern rows'
//     reference: one client on both sides of a comparison).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { OursHttp, OursStdio, type OursOptions } from './contenders.js';
import { round, type LatencySummary } from './measurement.js';

/** The previous build's contenders read by the v1 client: the legacy era, as that build served it. */
export function previousContender(kind: 'stdio' | 'http', opts: OursOptions): OursStdio | OursHttp {
	return kind === 'http' ? new OursHttp(opts, 'previous (http)') : new OursStdio(opts, 'previous (stdio)');
}

/**
 * `--previous`: a path to a cli.js, or a git ref built (once per commit) from `git archive` into
 * .cache/bench/previous/<sha>/ with the dependencies its own lock file names (`npm ci`, no install
 * scripts): this checkout's node_modules no longer hold what an older build imports (`ignore` and
 * `picomatch` left with the linear-time matcher). Returns the cli.js path.
 */
export function resolvePreviousCli(repoRoot: string, value: string, log: (message: string) => void): string {
	if (value.endsWith('.js')) {
		const cli = path.resolve(repoRoot, value);
		if (!existsSync(cli)) throw new Error(`--previous ${value}: no such file`);
		return cli;
	}
	const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
	const sha = git('rev-parse', '--verify', `${value}^{commit}`).toString().trim();
	const dir = path.join(repoRoot, '.cache', 'bench', 'previous', sha.slice(0, 12));
	const cli = path.join(dir, 'dist', 'cli.js');
	if (existsSync(cli)) return cli;
	log(`previous build: building ${value} (${sha.slice(0, 12)}) into ${path.relative(repoRoot, dir)}`);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	try {
		execFileSync('sh', ['-c', 'git archive --format=tar "$0" | tar -x -C "$1"', sha, dir], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
		log(`previous build: installing its dependencies (npm ci) in ${path.relative(repoRoot, dir)}`);
		execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
		execFileSync(process.execPath, ['esbuild.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
	} catch (err) {
		rmSync(dir, { recursive: true, force: true });
		const stderr = err instanceof Error && 'stderr' in err ? String(err.stderr) : undefined;
		throw new Error(`--previous ${value}: could not build it: ${(stderr ?? (err instanceof Error ? err.message : String(err))).slice(0, 500)}`);
	}
	if (!existsSync(cli)) throw new Error(`--previous ${value}: the build made no dist/cli.js`);
	return cli;
}

/** User + system CPU time of a live process in ms (Linux /proc, 10 ms ticks), or null. */
export function serverCpuMs(pid: number | undefined): number | null {
	if (pid === undefined) return null;
	try {
		// Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return (Number(fields[11]) + Number(fields[12])) * 10;
	} catch {
		return null;
	}
}

/** Server CPU per read in µs between two serverCpuMs samples, or null. */
function cpuPerReadUs(beforeMs: number | null, afterMs: number | null, reads: number): number | null {
	return beforeMs === null || afterMs === null || reads <= 0 ? null : round(((afterMs - beforeMs) * 1000) / reads, 0);
}

/** Where a timed read phase starts: the server's CPU (/proc) and the bench process's own. */
export interface ReadCpuStart { readonly serverMs: number | null; readonly client: NodeJS.CpuUsage }

export function readCpuStart(pid: number | undefined): ReadCpuStart {
	return { serverMs: serverCpuMs(pid), client: process.cpuUsage() };
}

/**
 * Server and bench-client CPU per read in µs since `start`: the round trip of a read is roughly
 * the two added up (one read at a time) or shared out over the two cores (8 in flight), so the
 * pair says which side a transport's reads/s is waiting for.
 */
export function readCpuPerRead(start: ReadCpuStart, pid: number | undefined, reads: number): { serverUs: number | null; clientUs: number | null } {
	const client = process.cpuUsage(start.client);
	return {
		serverUs: cpuPerReadUs(start.serverMs, serverCpuMs(pid), reads),
		clientUs: reads > 0 ? round((client.user + client.system) / reads, 0) : null,
	};
}

// ---------------------------------------------------------------------------------------------
// The eras table

/** What the eras table reads of one contender's results (bench.ts's ContenderResult fits). */
export interface EraResult {
	readSeq?: { readsPerSec: number; latency: LatencySummary } | null;
	read8?: { readsPerSec: number } | null;
	read8Sessions?: { readsPerSec: number } | null;
	serverCpuPerReadUs?: number | null;
	clientCpuPerReadUs?: number | null;
	serverCpuPerRead8Us?: number | null;
	clientCpuPerRead8Us?: number | null;
	enumerate?: { medianMs?: number | null };
	warmFirstPageMs?: number | null;
	coldFirstPageMs?: number | null;
	notify?: { updated?: { latency: LatencySummary } | { skipped: string } };
	memory?: { rssMiB: number | null } | null;
}

/** The contenders of a bench run by key (oursStdio, oursModernHttp, prevStdio, ...). */
export interface EraResults { contenders: Partial<Record<string, EraResult>> }

/** The updated-notification latency, when it was measured. */
function updatedLatency(r: EraResult): LatencySummary | undefined {
	const updated = r.notify?.updated;
	return updated && 'latency' in updated ? updated.latency : undefined;
}

export interface EraAim { text: string; met: boolean }
export interface EraRow { metric: string; contender: string; value: number; unit: string; vsPrevious: number | null; aim: EraAim | null }

const ERA_CONTENDERS = [
	['oursStdio', 'legacy stdio'], ['oursModernStdio', 'modern stdio'], ['prevStdio', 'previous stdio'], ['prevV2Stdio', 'previous stdio, v2'],
	['oursHttp', 'legacy http'], ['oursModernHttp', 'modern http'], ['oursModernHttpNodeHttp', 'modern http, node:http client'], ['prevHttp', 'previous http'], ['prevV2Http', 'previous http, v2'],
] as const;
/**
 * Each contender's reference in the previous build: the one read by the same client (v1 for the
 * legacy rows, v2 for the modern ones), else (a result file from before the v2 reference) the
 * previous build read by the v1 client. The modern HTTP row read with the bridge's `fetch` has
 * none: no previous build was read with that client.
 */
const PREVIOUS_OF: Partial<Record<string, readonly string[]>> = {
	oursStdio: ['prevStdio'], oursHttp: ['prevHttp'], oursModernStdio: ['prevV2Stdio', 'prevStdio'], oursModernHttp: ['prevV2Http', 'prevHttp'],
};

const CLIENT_CPU_1 = 'bench client CPU per read, 1 at a time';
const CLIENT_CPU_8 = 'bench client CPU per read, 8 in flight';

/**
 * Rows comparing the eras and the previous build: { metric, contender, value, unit, vsPrevious, aim }.
 * vsPrevious > 1 means better than the previous build on the same transport.
 */
export function eraRows(results: EraResults): EraRow[] {
	const c = results.contenders;
	const rows: EraRow[] = [];
	const metric = (name: string, unit: string, better: 'lower' | 'higher', get: (r: EraResult) => number | null | undefined, aim?: (value: number, key: string) => EraAim | null) => {
		for (const [key, label] of ERA_CONTENDERS) {
			const result = c[key];
			const value = result ? get(result) : undefined;
			if (value === undefined || value === null) continue;
			const prevKey = PREVIOUS_OF[key]?.find(k => c[k] !== undefined);
			const prevResult = prevKey ? c[prevKey] : undefined;
			const prev = prevResult ? get(prevResult) : undefined;
			const vsPrevious = typeof prev === 'number' && Number.isFinite(prev) && prev > 0 && value > 0 ? (better === 'lower' ? prev / value : value / prev) : null;
			rows.push({ metric: name, contender: label, value, unit, vsPrevious: round(vsPrevious) ?? null, aim: aim ? aim(value, key) : null });
		}
	};
	const notPrevious = (key: string) => !key.startsWith('prev');
	metric('reads/s, 1 at a time', 'reads/s', 'higher', r => r.readSeq?.readsPerSec);
	metric('reads/s, 8 in flight', 'reads/s', 'higher', r => r.read8?.readsPerSec);
	metric('reads/s, 8 clients x 1 (http)', 'reads/s', 'higher', r => r.read8Sessions?.readsPerSec);
	metric('read p50, 1 at a time', 'ms', 'lower', r => r.readSeq?.latency.p50);
	metric('server CPU per read, 1 at a time', 'µs', 'lower', r => r.serverCpuPerReadUs);
	metric('server CPU per read, 8 in flight', 'µs', 'lower', r => r.serverCpuPerRead8Us);
	metric(CLIENT_CPU_1, 'µs', 'lower', r => r.clientCpuPerReadUs);
	metric(CLIENT_CPU_8, 'µs', 'lower', r => r.clientCpuPerRead8Us);
	metric('enumerate all (median)', 'ms', 'lower', r => r.enumerate?.medianMs);
	metric('first list page once indexed', 'ms', 'lower', r => r.warmFirstPageMs, (v, key) => notPrevious(key) ? { text: '<= 20 ms', met: v <= 20 } : null);
	metric('first list page after spawn (cold)', 'ms', 'lower', r => r.coldFirstPageMs);
	metric('updated latency p50', 'ms', 'lower', r => updatedLatency(r)?.p50, (v, key) => notPrevious(key) ? { text: '<= 150 ms', met: v <= 150 } : null);
	metric('updated latency p99', 'ms', 'lower', r => updatedLatency(r)?.p99, (v, key) => notPrevious(key) ? { text: '<= 500 ms', met: v <= 500 } : null);
	metric('server RSS after reads', 'MiB', 'lower', r => r.memory?.rssMiB);
	// "Nothing slower than the previous build": every timed row of the current build that has a
	// previous-build counterpart (memory is reported, not aimed at).
	for (const row of rows) {
		// The bench client's CPU is the client's, not the server's to beat.
		if (!row.aim && row.vsPrevious !== null && row.unit !== 'MiB' && row.metric !== CLIENT_CPU_1 && row.metric !== CLIENT_CPU_8) {
			row.aim = { text: 'not slower than previous', met: row.vsPrevious >= 1 };
		}
	}
	return rows;
}

export interface HttpOverStdio {
	modernHttpOverModernStdio1: number | null;
	modernHttpOverModernStdio8: number | null;
	modernHttpOverLegacyStdio1: number | null;
	modernHttpOverLegacyStdio8: number | null;
	legacyHttpOverLegacyStdio1: number | null;
	/** The same, read by the v2 client with the bridge's `fetch` (Node's `http` module). */
	modernNodeHttpOverModernStdio1: number | null;
	modernNodeHttpOverModernStdio8: number | null;
}

/** New-era HTTP reads/s over stdio reads/s (the aim is >= 0.5x), 1-way and 8-way. */
export function httpOverStdio(results: EraResults): HttpOverStdio {
	const c = results.contenders;
	const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined && Number.isFinite(a) && Number.isFinite(b) && b > 0 ? round(a / b) : null);
	return {
		modernHttpOverModernStdio1: ratio(c.oursModernHttp?.readSeq?.readsPerSec, c.oursModernStdio?.readSeq?.readsPerSec),
		modernHttpOverModernStdio8: ratio(c.oursModernHttp?.read8?.readsPerSec, c.oursModernStdio?.read8?.readsPerSec),
		modernHttpOverLegacyStdio1: ratio(c.oursModernHttp?.readSeq?.readsPerSec, c.oursStdio?.readSeq?.readsPerSec),
		modernHttpOverLegacyStdio8: ratio(c.oursModernHttp?.read8?.readsPerSec, c.oursStdio?.read8?.readsPerSec),
		legacyHttpOverLegacyStdio1: ratio(c.oursHttp?.readSeq?.readsPerSec, c.oursStdio?.readSeq?.readsPerSec),
		modernNodeHttpOverModernStdio1: ratio(c.oursModernHttpNodeHttp?.readSeq?.readsPerSec, c.oursModernStdio?.readSeq?.readsPerSec),
		modernNodeHttpOverModernStdio8: ratio(c.oursModernHttpNodeHttp?.read8?.readsPerSec, c.oursModernStdio?.read8?.readsPerSec),
	};
}

const fmt = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? '—' : Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toFixed(Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2));

/** The eras table and the HTTP/stdio ratio line, as text. */
export function renderEras(results: EraResults): string {
	const rows = eraRows(results);
	if (rows.length === 0) return '';
	const header = ['metric', 'contender', 'value', 'unit', 'vs previous', 'aim'];
	let last: string | null = null;
	const body = rows.map(r => {
		const cells = [r.metric === last ? '' : r.metric, r.contender, fmt(r.value), r.unit, r.vsPrevious === null ? '' : `${fmt(r.vsPrevious)}x`, r.aim ? `${r.aim.text} ${r.aim.met ? 'MET' : 'MISSED'}` : ''];
		last = r.metric;
		return cells;
	});
	const widths = header.map((h, i) => Math.max(h.length, ...body.map(b => b[i].length)));
	const line = (cells: readonly string[]) => cells.map((cell, i) => ([2, 4].includes(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd();
	const out = [
		'both eras (legacy: SDK v1 client, 2025 era; modern: SDK v2 client pinned 2026-07-28) and the previous build',
		'(vs previous: through the same client; the v2 client reads the previous build in its 2025 mode)',
		'', line(header), widths.map(w => '-'.repeat(w)).join('  ')];
	body.forEach((b, i) => {
		if (i > 0 && b[0]) out.push('');
		out.push(line(b));
	});
	const r = httpOverStdio(results);
	out.push('');
	out.push(`new-era HTTP reads/s / stdio reads/s (aim >= 0.5x): 1-way ${fmt(r.modernHttpOverModernStdio1)}x vs modern stdio, ${fmt(r.modernHttpOverLegacyStdio1)}x vs legacy stdio; 8 in flight ${fmt(r.modernHttpOverModernStdio8)}x vs modern stdio, ${fmt(r.modernHttpOverLegacyStdio8)}x vs legacy stdio (legacy HTTP 1-way: ${fmt(r.legacyHttpOverLegacyStdio1)}x)`);
	out.push(`  with the bridge's node:http client instead of fetch: 1-way ${fmt(r.modernNodeHttpOverModernStdio1)}x, 8 in flight ${fmt(r.modernNodeHttpOverModernStdio8)}x vs modern stdio`);
	return out.join('\n');
}
