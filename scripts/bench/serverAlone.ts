// The bench's server-alone section: reads one at a time whose requests are the bytes the SDK
// clients send (recordedRequests.ts), replayed by a driver with no MCP client in the loop: a line
// per request over stdio, Node's `http` with keep-alive over HTTP. A read's round trip is then the
// server's work and the kernel's, so "not slower than the v1 build" and "new-era HTTP at least
// 0.5x stdio" can be judged for the server apart from the clients (reads, and full listings
// page by page), whose own CPU per read differs
// by up to twice between the v1 and v2 clients and between the v2 client's two eras (the eras
// table's "bench client CPU" rows). Each build and era runs in a fresh server, in rounds that
// take turns, so that a slow minute of the machine falls on all of them; medians are reported.
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import { pathToFileURL } from 'node:url';
import { startHeadlessHost } from '../lib/headlessHost.js';
import { killPidAtExit } from '../lib/processes.js';
import { serverCpuMs } from './eras.js';
import { median, now, round, sleep, withTimeout } from './measurement.js';
import { listMessage, listRequest, readMessage, readRequest, recordHttp, recordStdio, type RecordedEra, type Recording, type SentMessage, type SentRequest } from './recordedRequests.js';

type Transport = 'stdio' | 'http';
type Build = 'ours' | 'previous';

const CONTENDERS = [
	{ key: 'legacyStdio', label: 'legacy stdio', transport: 'stdio', era: 'legacy', build: 'ours' },
	{ key: 'modernStdio', label: 'modern stdio', transport: 'stdio', era: 'modern', build: 'ours' },
	{ key: 'previousStdio', label: 'previous stdio', transport: 'stdio', era: 'legacy', build: 'previous' },
	{ key: 'legacyHttp', label: 'legacy http', transport: 'http', era: 'legacy', build: 'ours' },
	{ key: 'modernHttp', label: 'modern http', transport: 'http', era: 'modern', build: 'ours' },
	{ key: 'previousHttp', label: 'previous http', transport: 'http', era: 'legacy', build: 'previous' },
] as const satisfies readonly { key: string; label: string; transport: Transport; era: RecordedEra; build: Build }[];

type ContenderKey = (typeof CONTENDERS)[number]['key'];
const PREVIOUS_OF: Partial<Record<ContenderKey, ContenderKey>> = { legacyStdio: 'previousStdio', modernStdio: 'previousStdio', legacyHttp: 'previousHttp', modernHttp: 'previousHttp' };

/** Reads of one round, after the warm-up, and the median of its full listings. */
interface Round { readsPerSec: number; serverCpuPerReadUs: number | null; listingMs: number }
export interface ServerAloneContender {
	label: string; rounds: Round[]; readsPerSec: number | null; serverCpuPerReadUs: number | null; listingMs: number | null;
	vsPrevious: number | null; listingVsPrevious: number | null; error?: string;
}
export interface ServerAloneResult { reads: number; rounds: number; contenders: Partial<Record<ContenderKey, ServerAloneContender>>; modernHttpOverModernStdio: number | null }

export interface ServerAloneOptions {
	root: string;
	home: string;
	cli: string;
	previousCli: string | null;
	/** Absolute paths read, in order, and the text each must read as. */
	sample: readonly string[];
	expected: ReadonlyMap<string, string>;
	/** A full listing must name at least this many resources. */
	listedAtLeast: number;
	rounds: number;
	log: (message: string) => void;
}

/** One page of a listing: how many resources, and the cursor of the next. */
interface Page { count: number; nextCursor: string | undefined }

/** A server being read by replayed requests. */
interface Replayer { readonly pid: number; read(id: number, uri: string): Promise<string>; list(id: number, cursor: string | undefined): Promise<Page>; close(): Promise<void> }

const WARM_UP_READS = 200;
const WARM_UP_LISTINGS = 2;
const TIMED_LISTINGS = 5;
const READY_WAIT_MS = 30_000;
const RUN_TIMEOUT_MS = 120_000;

/** A resources/list answer's page, or an error naming what came instead. */
function pageOf(answer: unknown): Page {
	const message = answer as { result?: { resources?: unknown[]; nextCursor?: string }; error?: { message?: string } };
	if (!Array.isArray(message.result?.resources)) {
		throw new Error(`no page: ${message.error?.message ?? JSON.stringify(answer).slice(0, 200)}`);
	}
	return { count: message.result.resources.length, nextCursor: message.result.nextCursor };
}

/** The text of a resources/read answer for `uri`, or an error naming what came instead. */
function textOf(answer: unknown, uri: string): string {
	const message = answer as { result?: { contents?: { uri?: string; text?: unknown }[] }; error?: { message?: string } };
	const content = message.result?.contents?.[0];
	if (content?.uri !== uri || typeof content.text !== 'string') {
		throw new Error(`no text for ${uri}: ${message.error?.message ?? JSON.stringify(answer).slice(0, 200)}`);
	}
	return content.text;
}

async function stdioReplayer(cli: string, options: ServerAloneOptions, recording: Recording<SentMessage>): Promise<Replayer> {
	const child = spawn(process.execPath, [cli, 'serve', '--root', options.root, '--stdio'], {
		env: { ...process.env, MCP_WORKSPACE_RESOURCES_HOME: options.home }, stdio: ['pipe', 'pipe', 'ignore'],
	});
	const untrack = killPidAtExit(child.pid);
	const waiting = new Map<string | number, { resolve: (answer: unknown) => void; reject: (err: Error) => void }>();
	let partial = '';
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', (chunk: string) => {
		partial += chunk;
		for (let newline = partial.indexOf('\n'); newline >= 0; newline = partial.indexOf('\n')) {
			const answer = JSON.parse(partial.slice(0, newline)) as { id?: string | number; method?: string };
			partial = partial.slice(newline + 1);
			if (answer.id !== undefined && answer.method === undefined) {
				waiting.get(answer.id)?.resolve(answer);
				waiting.delete(answer.id);
			}
		}
	});
	child.once('exit', code => {
		for (const { reject } of waiting.values()) reject(new Error(`the server exited (${code})`));
		waiting.clear();
	});
	const send = (message: SentMessage): Promise<unknown> => new Promise((resolve, reject) => {
		if (message.id !== undefined) waiting.set(message.id, { resolve, reject });
		child.stdin.write(`${JSON.stringify(message)}\n`);
		if (message.id === undefined) resolve(undefined);
	});
	for (const message of recording.handshake) await send(message);
	return {
		pid: child.pid ?? 0,
		read: async (id, uri) => textOf(await send(readMessage(recording.read, id, uri)), uri),
		list: async (id, cursor) => pageOf(await send(listMessage(recording.list, id, cursor))),
		close: async () => {
			untrack();
			child.stdin.end();
			child.kill();
		},
	};
}

/** One POST on `agent`'s kept-alive connection: the answer's headers and body. */
function post(agent: http.Agent, url: URL, request: SentRequest): Promise<{ headers: http.IncomingHttpHeaders; body: string }> {
	return new Promise((resolve, reject) => {
		const req = http.request(url, { method: 'POST', agent, headers: request.headers }, res => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (chunk: string) => { body += chunk; });
			res.on('end', () => resolve({ headers: res.headers, body }));
			res.on('error', reject);
		});
		req.on('error', reject);
		req.end(request.body);
	});
}

/** The JSON-RPC answer in a POST's body: plain JSON, or the data of an event stream's message event. */
function answerOf(body: string): unknown {
	const data = body.split('\n').filter(line => line.startsWith('data: ')).pop();
	return JSON.parse(data !== undefined ? data.slice('data: '.length) : body);
}

async function httpReplayer(cli: string, options: ServerAloneOptions, recordingFor: (url: string, token: string) => Promise<Recording<SentRequest>>): Promise<Replayer> {
	const host = await startHeadlessHost({ root: options.root, cli, home: options.home, args: ['--log-level', 'warn'] });
	const recording = await recordingFor(host.url, host.token);
	const url = new URL(host.url);
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
	const authorized = (request: SentRequest, sessionId: string | undefined): SentRequest => {
		const headers: Record<string, string> = { ...request.headers, authorization: `Bearer ${host.token}` };
		delete headers['mcp-session-id'];
		return { ...request, headers: sessionId === undefined ? headers : { ...headers, 'mcp-session-id': sessionId } };
	};
	// A 2025 session of the replay's own: the recorded initialize opens it, the rest of the
	// handshake joins it. 2026-07-28 has no session.
	let sessionId: string | undefined;
	for (const request of recording.handshake) {
		const { headers } = await post(agent, url, authorized(request, sessionId));
		const opened = headers['mcp-session-id'];
		sessionId ??= typeof opened === 'string' ? opened : undefined;
	}
	const read = authorized(recording.read, sessionId);
	const list = authorized(recording.list, sessionId);
	return {
		pid: host.pid,
		read: async (id, uri) => textOf(answerOf((await post(agent, url, readRequest(read, id, uri, sessionId))).body), uri),
		list: async (id, cursor) => pageOf(answerOf((await post(agent, url, listRequest(list, id, cursor, sessionId))).body)),
		close: async () => {
			agent.destroy();
			await host.stop();
		},
	};
}

/** A fresh server of `cli`, ready (it answers a read), read `sample` one at a time after a warm-up. */
async function measureRound(replayer: Replayer, options: ServerAloneOptions): Promise<Round> {
	const uris = options.sample.map(p => pathToFileURL(p).href);
	let id = 1_000_000;
	const readyBy = now() + READY_WAIT_MS;
	for (;;) {
		try {
			await replayer.read(id++, uris[0]);
			break;
		} catch (err) {
			if (now() > readyBy) throw err;
			await sleep(100);
		}
	}
	for (let i = 0; i < WARM_UP_READS; i++) await replayer.read(id++, uris[i % uris.length]);
	const cpuBefore = serverCpuMs(replayer.pid);
	const started = now();
	let mismatches = 0;
	for (let i = 0; i < uris.length; i++) {
		if (await replayer.read(id++, uris[i]) !== options.expected.get(options.sample[i])) mismatches++;
	}
	const wallMs = now() - started;
	const cpuAfter = serverCpuMs(replayer.pid);
	if (mismatches > 0) throw new Error(`${mismatches} of ${uris.length} reads did not match the file's text`);
	// Full listings, one page per request, each next page asked for as soon as the last arrived.
	const listings: number[] = [];
	for (let i = 0; i < WARM_UP_LISTINGS + TIMED_LISTINGS; i++) {
		const listStarted = now();
		let listed = 0;
		let cursor: string | undefined;
		do {
			const page = await replayer.list(id++, cursor);
			listed += page.count;
			cursor = page.nextCursor;
		} while (cursor !== undefined);
		if (listed < options.listedAtLeast) throw new Error(`a full listing named ${listed} resources, not at least ${options.listedAtLeast}`);
		if (i >= WARM_UP_LISTINGS) listings.push(now() - listStarted);
	}
	return {
		readsPerSec: round(uris.length / (wallMs / 1000), 0) ?? 0,
		serverCpuPerReadUs: cpuBefore !== null && cpuAfter !== null ? round(((cpuAfter - cpuBefore) * 1000) / uris.length, 0) : null,
		listingMs: round(median(listings) ?? 0, 1) ?? 0,
	};
}

export async function runServerAlone(options: ServerAloneOptions): Promise<ServerAloneResult> {
	const contenders = CONTENDERS.filter(c => c.build === 'ours' || options.previousCli !== null);
	const result: ServerAloneResult = { reads: options.sample.length, rounds: options.rounds, contenders: {}, modernHttpOverModernStdio: null };
	const recordings = new Map<string, Promise<Recording<SentMessage>> | Promise<Recording<SentRequest>>>();
	const stdioRecording = (era: RecordedEra) => {
		const key = `stdio ${era}`;
		if (!recordings.has(key)) recordings.set(key, recordStdio(era, options.cli, options.root, options.home, options.sample[0]));
		return recordings.get(key) as Promise<Recording<SentMessage>>;
	};
	const httpRecording = (era: RecordedEra, url: string, token: string) => {
		const key = `http ${era}`;
		if (!recordings.has(key)) recordings.set(key, recordHttp(era, url, token, options.sample[0]));
		return recordings.get(key) as Promise<Recording<SentRequest>>;
	};
	for (let round = 1; round <= options.rounds; round++) {
		for (const c of contenders) {
			const entry = result.contenders[c.key] ??= { label: c.label, rounds: [], readsPerSec: null, serverCpuPerReadUs: null, listingMs: null, vsPrevious: null, listingVsPrevious: null };
			if (entry.error) continue;
			const cli = c.build === 'ours' ? options.cli : options.previousCli as string;
			let replayer: Replayer | undefined;
			try {
				replayer = c.transport === 'stdio'
					? await stdioReplayer(cli, options, await stdioRecording(c.era))
					: await httpReplayer(cli, options, (url, token) => httpRecording(c.era, url, token));
				const measured = await withTimeout(measureRound(replayer, options), RUN_TIMEOUT_MS, `server alone, ${c.label}`);
				entry.rounds.push(measured);
				options.log(`  server alone, round ${round}, ${c.label}: ${measured.readsPerSec} reads/s, server CPU ${measured.serverCpuPerReadUs ?? '?'} µs per read, full listing ${measured.listingMs} ms`);
			} catch (err) {
				entry.error = err instanceof Error ? err.message : String(err);
				options.log(`  server alone, ${c.label}: ${entry.error}`);
			} finally {
				await replayer?.close();
			}
		}
	}
	for (const entry of Object.values(result.contenders)) {
		entry.readsPerSec = median(entry.rounds.map(r => r.readsPerSec));
		entry.serverCpuPerReadUs = median(entry.rounds.flatMap(r => r.serverCpuPerReadUs ?? []));
		entry.listingMs = median(entry.rounds.map(r => r.listingMs));
	}
	for (const c of contenders) {
		const entry = result.contenders[c.key];
		const previous = PREVIOUS_OF[c.key] ? result.contenders[PREVIOUS_OF[c.key] as ContenderKey] : undefined;
		if (entry?.readsPerSec && previous?.readsPerSec) entry.vsPrevious = round(entry.readsPerSec / previous.readsPerSec) ?? null;
		if (entry?.listingMs && previous?.listingMs) entry.listingVsPrevious = round(previous.listingMs / entry.listingMs) ?? null;
	}
	const modernHttp = result.contenders.modernHttp?.readsPerSec;
	const modernStdio = result.contenders.modernStdio?.readsPerSec;
	result.modernHttpOverModernStdio = modernHttp && modernStdio ? round(modernHttp / modernStdio) ?? null : null;
	return result;
}

/** The section as text. */
export function renderServerAlone(result: ServerAloneResult): string {
	const fmt = (v: number | null | undefined, digits = 0) => (v === null || v === undefined ? '—' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
	// Ratios are shown cut, not rounded, to two places: 0.996 is not "1.00x ... MISSED".
	const ratioCell = (v: number | null) => (v === null ? '' : `${fmt(Math.floor(v * 100) / 100, 2)}x ${v >= 1 ? 'MET' : 'MISSED'}`);
	const lines = [
		`the server alone: ${result.reads} reads one at a time and full listings page by page, each request the bytes the SDK client sends`,
		`(v1 client: 2025, v2 client pinned: 2026-07-28), replayed with no MCP client in the loop; median of ${result.rounds} rounds taking turns`,
		`(vs previous, aim: not slower than the previous build's 2025 era on the same transport)`,
		'',
		`${'contender'.padEnd(15)}  ${'reads/s'.padStart(8)}  ${'server CPU per read'.padStart(19)}  ${'vs previous'.padEnd(13)}  ${'full listing'.padStart(12)}  vs previous`,
	];
	for (const entry of Object.values(result.contenders)) {
		const cells = entry.error
			? `error: ${entry.error.split('\n')[0]}`
			: `${fmt(entry.readsPerSec).padStart(8)}  ${`${fmt(entry.serverCpuPerReadUs)} µs`.padStart(19)}  ${ratioCell(entry.vsPrevious).padEnd(13)}  ${`${fmt(entry.listingMs, 1)} ms`.padStart(12)}  ${ratioCell(entry.listingVsPrevious)}`;
		lines.push(`${entry.label.padEnd(15)}  ${cells}`.trimEnd());
	}
	const ratio = result.modernHttpOverModernStdio;
	lines.push('', `modern http reads/s / modern stdio reads/s, server alone: ${fmt(ratio === null ? null : Math.floor(ratio * 100) / 100, 2)}x (aim >= 0.5x) ${ratio === null ? '' : ratio >= 0.5 ? 'MET' : 'MISSED'}`.trimEnd());
	return lines.join('\n');
}
