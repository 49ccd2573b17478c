// Both protocol eras side by side for scripts/bench/bench.ts, next to the previous build.
//
//   - legacy era: the existing contenders (SDK v1 client, initialize + sessions, resources/subscribe).
//   - modern era: SDK v2 client pinned to 2026-07-28 (`versionNegotiation: { mode: { pin } }`, so a
//     server that does not offer it fails instead of falling back): stateless HTTP, one page per
//     raw resources/list request (v2's listResources() without a cursor walks every page), reads
//     with `cacheMode: 'bypass'` (the v2 client otherwise serves reads from its own cache while
//     ttlMs says fresh, and the bench would measure the cache), updates through `client.listen`.
//     There is no ping in this era.
//   - previous build: the legacy contenders against another build's dist/cli.js (`--previous REF`
//     builds a git ref into .cache/bench/previous/<sha>, once; `--previous PATH` takes a cli.js).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';
import {
	CLIENT_INFO, OursHttp, OursStdio, REQUEST_TIMEOUT_MS, extractBinary, extractText,
	type EraRequests, type OursOptions, type ReadStats, type ResourcePage, type ServerCapabilitiesSeen, type SessionReader,
} from './contenders.js';
import { timeUpdatedNotifications } from './notify.js';
import type { TextEntry } from './workspace.js';
import { killPidAtExit } from '../lib/processes.js';
import { now, round, summarize, withTimeout, type LatencySummary } from './measurement.js';

export const MODERN_VERSION = '2026-07-28';

/**
 * The v2 client and its requests, which both modern contenders hold (composition: the legacy
 * contenders' `client` is the v1 type, so the modern ones keep theirs here and delegate to it).
 */
export class ModernRequests implements EraRequests {
	client: Client | null = null;
	constructor(private readonly owner: { readonly name: string; readonly readStats: ReadStats; connectionError: Error | null }) {}

	newClient(): Client {
		const client = new Client(CLIENT_INFO, { capabilities: {}, versionNegotiation: { mode: { pin: MODERN_VERSION } } });
		client.onerror = err => {
			this.owner.connectionError ??= err;
		};
		return client;
	}

	/** The connected client (start() first). */
	get connected(): Client {
		if (!this.client) throw new Error(`${this.owner.name}: not started`);
		return this.client;
	}

	/** One raw resources/list request: v2's listResources() without a cursor walks every page. */
	listPage(cursor: string | undefined, timeout = REQUEST_TIMEOUT_MS): Promise<ResourcePage> {
		return this.connected.request({ method: 'resources/list', params: cursor ? { cursor } : {} }, { timeout });
	}

	read(absPath: string, timeout = REQUEST_TIMEOUT_MS): Promise<string> {
		return this.readWith(this.connected, absPath, timeout);
	}

	serverCapabilities(): ServerCapabilitiesSeen | undefined {
		return this.client?.getServerCapabilities();
	}

	serverVersion(): unknown {
		return this.client?.getServerVersion();
	}

	async readWith(client: Client, absPath: string, timeout = REQUEST_TIMEOUT_MS): Promise<string> {
		const uri = pathToFileURL(absPath).href;
		return extractText(await client.readResource({ uri }, { timeout, cacheMode: 'bypass' }), uri, this.owner.readStats);
	}

	async readBinary(absPath: string): Promise<Buffer> {
		const uri = pathToFileURL(absPath).href;
		return extractBinary(await this.connected.readResource({ uri }, { timeout: REQUEST_TIMEOUT_MS, cacheMode: 'bypass' }), uri, this.owner.readStats);
	}

	async close(): Promise<void> {
		await this.client?.close();
	}
}

export class OursModernStdio extends OursStdio {
	override readonly era = MODERN_VERSION;
	readonly modern = new ModernRequests(this);
	protected override readonly requests: EraRequests = this.modern;
	constructor(opts: OursOptions) {
		super(opts, 'ours modern (stdio)');
	}

	override async start(): Promise<this> {
		this.t0 = now();
		const transport = new StdioClientTransport({
			command: process.execPath,
			args: this.serverArgs(['--stdio']),
			env: { ...process.env, MCP_WORKSPACE_RESOURCES_HOME: this.home } as Record<string, string>,
			stderr: 'pipe',
			cwd: this.repoRoot,
		});
		this.stderr.attach(transport.stderr as Readable | null);
		const client = this.modern.newClient();
		this.modern.client = client;
		await withTimeout(client.connect(transport), 30_000, `${this.name} connect`);
		this.pid = transport.pid ?? undefined;
		this.untrack = killPidAtExit(this.pid);
		this.connectMs = now() - this.t0;
		return this;
	}

	protected override closeClient(): Promise<void> {
		return this.modern.close();
	}
}

export class OursModernHttp extends OursHttp {
	override readonly era = MODERN_VERSION;
	readonly modern = new ModernRequests(this);
	protected override readonly requests: EraRequests = this.modern;
	constructor(opts: OursOptions) {
		super(opts, 'ours modern (http)');
	}

	private async connectModernClient(): Promise<Client> {
		const transport = new StreamableHTTPClientTransport(new URL(this.url), {
			requestInit: { headers: { Authorization: `Bearer ${this.token}` } },
		});
		const client = this.modern.newClient();
		await withTimeout(client.connect(transport), 30_000, `${this.name} connect`);
		return client;
	}

	protected override async connect(): Promise<void> {
		this.modern.client = await this.connectModernClient();
	}

	override async openSession(): Promise<SessionReader> {
		const client = await this.connectModernClient();
		return {
			read: absPath => this.modern.readWith(client, absPath),
			close: async () => {
				await (client.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => {});
				await client.close().catch(() => {});
			},
		};
	}

	protected override async closeClient(): Promise<void> {
		await (this.modern.client?.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => {});
		await this.modern.close();
	}
}

/** The previous build's contenders: the legacy era, as that build served it. */
export function previousContender(kind: 'stdio' | 'http', opts: OursOptions): OursStdio | OursHttp {
	return kind === 'http' ? new OursHttp(opts, 'previous (http)') : new OursStdio(opts, 'previous (stdio)');
}

/**
 * `--previous`: a path to a cli.js, or a git ref built (once per commit) from `git archive` into
 * .cache/bench/previous/<sha>/ with this checkout's node_modules linked in. Returns the cli.js path.
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
		// The old build bundles its SDK; the v1 package stays installed here beside v2 (see README).
		symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
		execFileSync(process.execPath, ['esbuild.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
	} catch (err) {
		rmSync(dir, { recursive: true, force: true });
		const stderr = err instanceof Error && 'stderr' in err ? String(err.stderr) : undefined;
		throw new Error(`--previous ${value}: could not build it: ${(stderr ?? (err instanceof Error ? err.message : String(err))).slice(0, 500)}`);
	}
	if (!existsSync(cli)) throw new Error(`--previous ${value}: the build made no dist/cli.js`);
	return cli;
}

/**
 * `notifications/resources/updated` latency through `subscriptions/listen` (the modern era's
 * subscribe): one listen stream naming every target, then each file written in turn.
 */
export interface UpdatedLatencyListen {
	samples: number; received: number; timeouts: number; acknowledged: number; listenMs: number; updatedPerWrite: number; latency: LatencySummary;
}

export async function measureUpdatedLatencyListen({ contender, root, targets, timeoutMs = 3000, gapMs = 60, log }: {
	contender: { modern: ModernRequests }; root: string; targets: readonly TextEntry[]; timeoutMs?: number; gapMs?: number; log?: (message: string) => void;
}): Promise<UpdatedLatencyListen> {
	const client = contender.modern.connected;
	const uris = targets.map(e => pathToFileURL(path.join(root, e.rel)).href);
	let listenMs = 0;
	let honored = new Set<string>();
	const { latencies, timeouts, updatedPerWrite } = await timeUpdatedNotifications({
		root, targets, uris, timeoutMs, gapMs,
		onUpdated: handler => client.setNotificationHandler('notifications/resources/updated', n => handler(n.params.uri)),
		subscribe: async () => {
			const tListen = now();
			const subscription = await client.listen({ resourceSubscriptions: uris });
			listenMs = now() - tListen;
			honored = new Set(subscription.honoredFilter?.resourceSubscriptions ?? []);
			return () => subscription.close().catch(() => {});
		},
	});
	log?.(`  updated latency (listen): ${latencies.length}/${targets.length} arrived, ${timeouts} timed out, ${honored.size}/${uris.length} URIs acknowledged`);
	return {
		samples: targets.length,
		received: latencies.length,
		timeouts,
		acknowledged: honored.size,
		listenMs: round(listenMs),
		updatedPerWrite,
		latency: summarize(latencies),
	};
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
	['oursStdio', 'legacy stdio'], ['oursModernStdio', 'modern stdio'], ['prevStdio', 'previous stdio'],
	['oursHttp', 'legacy http'], ['oursModernHttp', 'modern http'], ['prevHttp', 'previous http'],
] as const;
const PREVIOUS_OF: Partial<Record<string, string>> = { oursStdio: 'prevStdio', oursModernStdio: 'prevStdio', oursHttp: 'prevHttp', oursModernHttp: 'prevHttp' };

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
			const prevKey = PREVIOUS_OF[key];
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
		// The bench client's CPU is the client's (the previous build is read by the v1 client), not the server's to beat.
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
	const out = ['both eras (legacy: SDK v1 client, 2025 era; modern: SDK v2 client pinned 2026-07-28) and the previous build', '', line(header), widths.map(w => '-'.repeat(w)).join('  ')];
	body.forEach((b, i) => {
		if (i > 0 && b[0]) out.push('');
		out.push(line(b));
	});
	const r = httpOverStdio(results);
	out.push('');
	out.push(`new-era HTTP reads/s / stdio reads/s (aim >= 0.5x): 1-way ${fmt(r.modernHttpOverModernStdio1)}x vs modern stdio, ${fmt(r.modernHttpOverLegacyStdio1)}x vs legacy stdio; 8 in flight ${fmt(r.modernHttpOverModernStdio8)}x vs modern stdio, ${fmt(r.modernHttpOverLegacyStdio8)}x vs legacy stdio (legacy HTTP 1-way: ${fmt(r.legacyHttpOverLegacyStdio1)}x)`);
	return out.join('\n');
}
