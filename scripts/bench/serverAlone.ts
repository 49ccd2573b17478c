// The server-alone section: reads one at a time whose requests are the bytes the SDK clients
// send (recordedRequests.ts), replayed by a driver with no MCP client in the loop: a line per
// request over stdio, Node's `http` with keep-alive over HTTP. A read's round trip is then the
// server's work and the kernel's, so this build and the previous one compare apart from the
// clients, whose own CPU per read differs by up to twice between the v1 and v2 clients (the reads
// section's "bench client CPU" row). Full listings are replayed page by page the same way. Each
// build and era runs in a fresh server, in rounds that take turns, so a slow minute of the
// machine falls on all of them; medians are reported.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import * as http from 'node:http';
import { pathToFileURL } from 'node:url';
import { startHeadlessHost } from '../lib/headlessHost.js';
import { privateServerCache } from '../lib/privateServerCache.js';
import { killPidAtExit } from '../lib/processes.js';
import { ERAS, TRANSPORTS, type Era } from './contenders.js';
import { cpuMs, median, now, round, sleep, timesBetter, withTimeout } from './measurement.js';
import { listMessage, listRequest, readMessage, readRequest, recordHttp, recordStdio, type Recording, type SentMessage, type SentRequest } from './recordedRequests.js';
import { fmt, fmtRatio, renderTable } from './report.js';
import type { SectionContext, SectionReport } from './section.js';
import { ensureWorkspace, seededOrder } from './workspace.js';

/** Reads of one round, after the warm-up, and the median of its full listings. */
interface Round { readsPerSec: number; serverCpuPerReadUs: number | null; listingMs: number }
/** One build in one transport and era, over every round. */
export interface AloneResult { rounds: Round[]; readsPerSec: number | null; serverCpuPerReadUs: number | null; listingMs: number | null; error?: string }

interface Options { root: string; home: string; sample: readonly string[]; expected: ReadonlyMap<string, string>; listedAtLeast: number }

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

async function stdioReplayer(cli: string, options: Options, recording: Recording<SentMessage>): Promise<Replayer> {
	const cache = privateServerCache();
	const child = spawn(process.execPath, [cli, 'serve', '--root', options.root, '--stdio'], {
		env: { ...process.env, ...cache.env, MCP_WORKSPACE_RESOURCES_HOME: options.home }, stdio: ['pipe', 'pipe', 'ignore'],
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
		cache.remove();
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

async function httpReplayer(cli: string, options: Options, recordingFor: (url: string, token: string) => Promise<Recording<SentRequest>>): Promise<Replayer> {
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
async function measureRound(replayer: Replayer, options: Options): Promise<Round> {
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
	const cpuBefore = cpuMs(replayer.pid);
	const started = now();
	let mismatches = 0;
	for (let i = 0; i < uris.length; i++) {
		if (await replayer.read(id++, uris[i]) !== options.expected.get(options.sample[i])) mismatches++;
	}
	const wallMs = now() - started;
	const cpuAfter = cpuMs(replayer.pid);
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

/** The server-alone section: `npm run bench -- --section alone`. */
export async function runServerAlone(ctx: SectionContext): Promise<SectionReport> {
	const { flags, quick, log } = ctx;
	const files = flags.number('--files', quick ? 2000 : 20_000, 1);
	const binaries = flags.number('--binaries', quick ? 20 : 200);
	const seed = flags.number('--seed', 1);
	const rounds = flags.number('--rounds', quick ? 1 : 3, 1);
	const ws = await ensureWorkspace({ files, binaries, seed, log });
	const { sample } = seededOrder(ws, seed, flags.number('--reads', quick ? 300 : 2000, 1));
	const options: Options = { root: ws.root, home: ctx.home, sample, expected: new Map(await Promise.all(sample.map(async p => [p, await readFile(p, 'utf8')] as const))), listedAtLeast: files + binaries };
	const builds = Object.entries({ 'this build': ctx.cli, previous: ctx.previousCli() }).filter((e): e is [string, string] => e[1] !== null);
	const results: Record<string, AloneResult> = {};
	// One recording per transport and era, from this build: the requests are the client's, whichever server answers.
	const stdioRecordings = new Map<Era, Promise<Recording<SentMessage>>>();
	const httpRecordings = new Map<Era, Promise<Recording<SentRequest>>>();
	const stdioRecording = (era: Era) => {
		const recording = stdioRecordings.get(era) ?? recordStdio(era, ctx.cli, ws.root, ctx.home, sample[0]);
		stdioRecordings.set(era, recording);
		return recording;
	};
	const httpRecording = (era: Era, url: string, token: string) => {
		const recording = httpRecordings.get(era) ?? recordHttp(era, url, token, sample[0]);
		httpRecordings.set(era, recording);
		return recording;
	};
	for (let round = 1; round <= rounds; round++) {
		for (const transport of TRANSPORTS) {
			for (const era of ERAS) {
				for (const [build, cli] of builds) {
					const key = `${build} ${transport} ${era}`;
					const entry = results[key] ??= { rounds: [], readsPerSec: null, serverCpuPerReadUs: null, listingMs: null };
					if (entry.error) continue;
					let replayer: Replayer | undefined;
					try {
						replayer = transport === 'stdio'
							? await stdioReplayer(cli, options, await stdioRecording(era))
							: await httpReplayer(cli, options, (url, token) => httpRecording(era, url, token));
						const measured = await withTimeout(measureRound(replayer, options), RUN_TIMEOUT_MS, `server alone, ${key}`);
						entry.rounds.push(measured);
						log(`  round ${round}, ${key}: ${measured.readsPerSec} reads/s, server CPU ${measured.serverCpuPerReadUs ?? '?'} µs per read, full listing ${measured.listingMs} ms`);
					} catch (err) {
						entry.error = err instanceof Error ? err.message : String(err);
						log(`  ${key}: ${entry.error}`);
					} finally {
						await replayer?.close();
					}
				}
			}
		}
	}
	for (const entry of Object.values(results)) {
		entry.readsPerSec = median(entry.rounds.map(r => r.readsPerSec));
		entry.serverCpuPerReadUs = median(entry.rounds.flatMap(r => r.serverCpuPerReadUs ?? []));
		entry.listingMs = median(entry.rounds.map(r => r.listingMs));
	}
	const rows = TRANSPORTS.flatMap(transport => ERAS.map(era => {
		const ours = results[`this build ${transport} ${era}`];
		const previous = results[`previous ${transport} ${era}`];
		if (ours?.error) return [`${transport}, ${era}`, `error: ${ours.error.split('\n')[0]}`];
		return [`${transport}, ${era}`, fmt(ours?.readsPerSec), fmt(previous?.readsPerSec), fmtRatio(timesBetter(ours?.readsPerSec, previous?.readsPerSec, 'higher')),
			fmt(ours?.serverCpuPerReadUs), fmt(previous?.serverCpuPerReadUs), fmt(ours?.listingMs), fmt(previous?.listingMs), fmtRatio(timesBetter(ours?.listingMs, previous?.listingMs, 'lower'))];
	}));
	const text = [
		`the server alone: ${sample.length} reads one at a time and full listings of ${(files + binaries).toLocaleString('en-US')} files page by page, each request the bytes the SDK client sends`,
		`(2025: the v1 client's; 2026-07-28: the v2 client's), replayed with no client in the loop; medians of ${rounds} round(s) taking turns`,
		renderTable(['transport, era', 'reads/s', 'previous', 'vs previous', 'server CPU/read µs', 'previous', 'full listing ms', 'previous', 'vs previous'], rows),
	].join('\n');
	const errors = Object.entries(results).filter(([key, r]) => r.error && key.startsWith('this build')).map(([key, r]) => `alone, ${key}: ${r.error?.split('\n')[0]}`);
	const problems = Object.entries(results).filter(([key, r]) => r.error && key.startsWith('previous')).map(([key, r]) => `alone, ${key}: ${r.error?.split('\n')[0]}`);
	return { results: { files, reads: sample.length, rounds, contenders: results }, text, errors, problems };
}
