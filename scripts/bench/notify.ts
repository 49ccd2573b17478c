// Notification latency and burst behaviour of our server (needs resources.subscribe / listChanged).
import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { BURST_DIR_NAME, textContent, type TextEntry } from './workspace.js';
import { killAtExit } from '../lib/processes.js';
import { median, now, round, sleep, summarize, type LatencySummary } from './measurement.js';

/** The SDK v1 client's calls these benches make. */
type NotifyClient = Pick<Client, 'setNotificationHandler' | 'subscribeResource' | 'unsubscribeResource'>;

/** What the notification benches need of a contender (contenders.ts). */
export interface NotifyContender {
	client: NotifyClient;
	read(absPath: string, timeoutMs?: number): Promise<unknown>;
	enumerate(timeoutMs?: number): Promise<{ files: unknown[] }>;
}

type Log = (message: string) => void;

const WORKER_URL = new URL('./burstWorker.mjs', import.meta.url);

/** What the burst worker (burstWorker.mjs) is asked to do, and what it reports. */
interface BurstJob { dir: string; count: number; perDir: number; concurrency: number; mode: 'create' | 'delete' }

function runWorker(workerData: BurstJob): Promise<{ ms: number }> {
	return new Promise((resolve, reject) => {
		const w = new Worker(WORKER_URL, { workerData });
		w.once('message', (m: { ms: number }) => resolve(m));
		w.once('error', reject);
		w.once('exit', code => {
			if (code !== 0) reject(new Error(`burst worker exited with ${code}`));
		});
	});
}

/**
 * The timing loop both subscribe styles share: `onUpdated` registers the handler for
 * notifications/resources/updated, `subscribe()` then subscribes to every target's URI (and
 * resolves with its undo). Each target file is written in turn and timed until its URI's
 * notification arrives; the generated content is restored afterwards (and at exit, should the
 * bench die mid-test). Resolves with the latencies, the timeouts and notifications per write.
 */
export async function timeUpdatedNotifications({ root, targets, uris, onUpdated, subscribe, timeoutMs, gapMs }: {
	root: string;
	targets: readonly TextEntry[];
	uris: readonly string[];
	onUpdated(handler: (uri: string) => void): void;
	subscribe(): Promise<() => Promise<unknown>>;
	timeoutMs: number;
	gapMs: number;
}): Promise<{ latencies: number[]; timeouts: number; updatedPerWrite: number }> {
	const waiters = new Map<string, (at: number) => void>(); // uri -> resolve
	const counts = new Map<string, number>(); // uri -> notifications received
	onUpdated(uri => {
		counts.set(uri, (counts.get(uri) ?? 0) + 1);
		const w = waiters.get(uri);
		if (w) {
			waiters.delete(uri);
			w(now());
		}
	});
	const restoreSync = () => {
		for (const e of targets) {
			try {
				writeFileSync(path.join(root, e.rel), textContent(e));
			} catch { /* best effort */ }
		}
	};
	const removeCleanup = killAtExit(restoreSync);
	const latencies: number[] = [];
	let timeouts = 0;
	let totalUpdated = 0;
	const unsubscribe = await subscribe();
	try {
		await sleep(200);
		counts.clear();
		for (let i = 0; i < targets.length; i++) {
			const e = targets[i];
			const uri = uris[i];
			const arrived = new Promise<number>(resolve => waiters.set(uri, resolve));
			const t0 = now();
			await fsp.writeFile(path.join(root, e.rel), `${textContent(e)}// bench touch ${i} ${Date.now()}\n`);
			const t1 = await Promise.race([arrived, sleep(timeoutMs).then(() => null)]);
			if (t1 === null) {
				timeouts++;
				waiters.delete(uri);
			} else {
				latencies.push(t1 - t0);
			}
			await sleep(gapMs);
		}
		await sleep(500); // late duplicates
		totalUpdated = [...counts.values()].reduce((sum, v) => sum + v, 0);
	} finally {
		await unsubscribe();
		// Restore generated content (fires more events; the measured phase is over).
		for (const e of targets) await fsp.writeFile(path.join(root, e.rel), textContent(e));
		removeCleanup();
	}
	await sleep(300);
	return { latencies, timeouts, updatedPerWrite: round(totalUpdated / targets.length) };
}

/**
 * Subscribe to `targets` (plan entries) with resources/subscribe, write each file in turn and
 * time until notifications/resources/updated for its URI arrives.
 */
/** The updated-latency measurement: samples, arrivals and latencies. */
export interface UpdatedLatency { samples: number; received: number; timeouts: number; updatedPerWrite: number; latency: LatencySummary }

export async function measureUpdatedLatency({ contender, root, targets, timeoutMs = 3000, gapMs = 60, log }: { contender: NotifyContender; root: string; targets: readonly TextEntry[]; timeoutMs?: number; gapMs?: number; log?: Log }): Promise<UpdatedLatency & { subscribeMsEach: number }> {
	const client = contender.client;
	const uris = targets.map(e => pathToFileURL(path.join(root, e.rel)).href);
	let subscribeMs = 0;
	const { latencies, timeouts, updatedPerWrite } = await timeUpdatedNotifications({
		root, targets, uris, timeoutMs, gapMs,
		onUpdated: handler => client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => handler(n.params.uri)),
		subscribe: async () => {
			const tSub = now();
			for (const uri of uris) await client.subscribeResource({ uri });
			subscribeMs = (now() - tSub) / uris.length;
			return async () => {
				for (const uri of uris) await client.unsubscribeResource({ uri }).catch(() => {});
			};
		},
	});
	log?.(`  updated latency: ${latencies.length}/${targets.length} arrived, ${timeouts} timed out`);
	return {
		samples: targets.length,
		received: latencies.length,
		timeouts,
		subscribeMsEach: round(subscribeMs),
		updatedPerWrite,
		latency: summarize(latencies),
	};
}

/**
 * Write (then delete) `count` new files from a worker thread while reading `readPaths` one at a
 * time on the contender. Reads run until the writes are done and the server has gone quiet
 * (at least one list_changed and none for quietMs; capped at maxSettleMs after the writes).
 * Then the list is polled until it shows the expected number of files (capped at maxVisibleMs).
 * Reads that take longer than readTimeoutMs fail (and make the bench exit non-zero).
 */
export async function measureBurst({ contender, root, count, readPaths, expectedBase, quietMs = 2000, maxSettleMs = 30_000, maxVisibleMs = 30_000, readTimeoutMs = 15_000, log }: {
	contender: NotifyContender;
	root: string;
	count: number;
	readPaths: readonly string[];
	expectedBase: number;
	quietMs?: number;
	maxSettleMs?: number;
	maxVisibleMs?: number;
	readTimeoutMs?: number;
	log?: Log;
}) {
	const client = contender.client;
	const burstDir = path.join(root, BURST_DIR_NAME);
	const removeCleanup = killAtExit(() => rmSync(burstDir, { recursive: true, force: true }));
	let listChanged = 0;
	let lastListChanged = 0;
	client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
		listChanged++;
		lastListChanged = now();
	});
	// Nothing is subscribed any more; tolerate stray updates.
	client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => {});
	await sleep(300);

	const phase = async (mode: BurstJob['mode'], expectedListed: number) => {
		const before = listChanged;
		const readLat: number[] = [];
		let readErrors = 0;
		let firstReadError: unknown = null;
		let writing = true;
		let writerError: unknown = null;
		const t0 = now();
		let writeMs: number | null = null;
		const writer = runWorker({ dir: burstDir, count, perDir: 100, concurrency: 16, mode }).then(m => {
			writeMs = m.ms;
			writing = false;
		}, err => {
			writerError = err;
			writing = false;
		});
		let writesDoneAt: number | null = null;
		let i = 0;
		let settledBy = 'quiet';
		for (;;) {
			const t = now();
			if (!writing) {
				writesDoneAt ??= t;
				const seen = listChanged - before;
				if (seen > 0 && t - Math.max(writesDoneAt, lastListChanged) >= quietMs) break;
				if (t - writesDoneAt >= maxSettleMs) {
					settledBy = 'cap';
					break;
				}
			}
			const p = readPaths[i++ % readPaths.length];
			try {
				await contender.read(p, readTimeoutMs); // a read stuck this long counts as failed
			} catch (err) {
				readErrors++;
				firstReadError ??= err;
			}
			readLat.push(now() - t);
		}
		await writer;
		if (writerError) throw writerError;
		const readWindowMs = now() - t0;
		// Poll the list until it shows the expected count.
		const listTimes: number[] = [];
		let listed: { files: unknown[] } | undefined;
		let visibleAfterMs: number | null = null;
		const deadline = now() + maxVisibleMs;
		let listError: string | null = null;
		for (;;) {
			const tl = now();
			try {
				listed = await contender.enumerate(readTimeoutMs); // a page stuck this long counts as failed
			} catch (err) {
				listError = err instanceof Error ? err.message : String(err);
				break;
			}
			listTimes.push(now() - tl);
			if (listed.files.length === expectedListed) {
				visibleAfterMs = now() - t0;
				break;
			}
			if (now() > deadline) break;
			await sleep(500);
		}
		const events = listChanged - before;
		const lastAfterMs = lastListChanged > t0 ? lastListChanged - t0 : null;
		log?.(`  burst ${mode}: ${count} files written in ${Math.round(writeMs ?? Number.NaN)} ms; ${events} list_changed (last ${lastAfterMs === null ? '—' : Math.round(lastAfterMs)} ms after start); reads p99 ${round(summarizeP99(readLat))} ms over ${readLat.length} reads; list shows ${listed ? listed.files.length : `nothing (${listError})`}/${expectedListed}${visibleAfterMs === null ? ' (gave up waiting)' : ` after ${Math.round(visibleAfterMs)} ms`}${readErrors ? `; ${readErrors} READS FAILED (${errorMessage(firstReadError)})` : ''}`);
		return {
			mode,
			files: count,
			writeMs: round(writeMs),
			listChanged: events,
			lastListChangedAfterMs: round(lastAfterMs),
			settledBy,
			readWindowMs: round(readWindowMs),
			readsDuring: readLat.length,
			readErrors,
			firstReadError: firstReadError ? errorMessage(firstReadError) : null,
			readLatency: summarize(readLat),
			expectedListed,
			listedAfter: listed ? listed.files.length : null,
			listError,
			visibleAfterMs: round(visibleAfterMs),
			enumerationsWhileWaiting: listTimes.length,
			listMs: summarize(listTimes),
		};
	};

	try {
		const create = await phase('create', expectedBase + count);
		await sleep(quietMs);
		const del = await phase('delete', expectedBase);
		return { create, delete: del };
	} finally {
		await fsp.rm(burstDir, { recursive: true, force: true });
		removeCleanup();
	}
}

function errorMessage(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}

function summarizeP99(values: readonly number[]): number | null {
	return summarize(values).p99 ?? null;
}

/**
 * The scale benches' notification timings: list_changed for a file created in `leafDir`, and
 * updated for a subscribed file there that changes, `samples` times each. `prefix` names the
 * files written (removed afterwards); `settleMs` lets the target's own list_changed pass first.
 */
/** What measureScaleNotifyLatency finds; the scale benches' runs take it over as it is. */
export type ScaleNotifyLatency = Awaited<ReturnType<typeof measureScaleNotifyLatency>>;

export async function measureScaleNotifyLatency(client: NotifyClient, leafDir: string, { prefix, settleMs, samples = 5 }: { prefix: string; settleMs: number; samples?: number }) {
	let onListChanged: ((at: number) => void) | null = null;
	let onUpdated: ((uri: string, at: number) => void) | null = null;
	client.setNotificationHandler(ResourceListChangedNotificationSchema, () => onListChanged?.(now()));
	client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => onUpdated?.(n.params.uri, now()));
	const wait = (install: (resolve: (at: number) => void) => void, timeoutMs = 10_000) => Promise.race([new Promise<number>(install), sleep(timeoutMs).then(() => null)]);
	const created: number[] = [];
	const updated: number[] = [];
	let createdTimeouts = 0;
	let updatedTimeouts = 0;
	const target = path.join(leafDir, `${prefix}-target.ts`);
	writeFileSync(target, 'export {};\n');
	try {
		await sleep(settleMs); // the target's own list_changed, and the gap after it
		const uri = pathToFileURL(target).href;
		await client.subscribeResource({ uri });
		for (let i = 0; i < samples; i++) {
			const file = path.join(leafDir, `${prefix}-${i}.ts`);
			const t0 = now();
			const arrived = wait(resolve => { onListChanged = resolve; });
			writeFileSync(file, `export const n = ${i};\n`);
			const at = await arrived;
			onListChanged = null;
			if (at === null) createdTimeouts++; else created.push(at - t0);
			// The delete's own list_changed, then more than the server's shortest gap between two
			// list_changed, so the next create is timed alone.
			const removed = wait(resolve => { onListChanged = resolve; }, 5000);
			unlinkSync(file);
			await removed;
			onListChanged = null;
			await sleep(800);

			const t1 = now();
			const changed = wait(resolve => { onUpdated = (u, when) => { if (u === uri) resolve(when); }; });
			writeFileSync(target, `export const n = ${i};\n`);
			const at2 = await changed;
			onUpdated = null;
			if (at2 === null) updatedTimeouts++; else updated.push(at2 - t1);
			await sleep(150);
		}
	} finally {
		for (let i = 0; i < samples; i++) {
			try { unlinkSync(path.join(leafDir, `${prefix}-${i}.ts`)); } catch { /* gone */ }
		}
		try { unlinkSync(target); } catch { /* gone */ }
	}
	return {
		listChangedP50Ms: created.length ? round(median(created), 1) : null,
		updatedP50Ms: updated.length ? round(median(updated), 1) : null,
		listChangedTimeouts: createdTimeouts, updatedTimeouts,
	};
}
