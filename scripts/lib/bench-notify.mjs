// Notification latency and burst behaviour of our server (needs resources.subscribe / listChanged).
import { rmSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { BURST_DIR_NAME, textContent } from './bench-workspace.mjs';
import { killAtExit } from './processes.js';
import { now, round, sleep, summarize } from './bench-util.mjs';

const WORKER_URL = new URL('./bench-burst-worker.mjs', import.meta.url);

function runWorker(workerData) {
	return new Promise((resolve, reject) => {
		const w = new Worker(WORKER_URL, { workerData });
		w.once('message', resolve);
		w.once('error', reject);
		w.once('exit', code => {
			if (code !== 0) reject(new Error(`burst worker exited with ${code}`));
		});
	});
}

/**
 * Subscribe to `targets` (plan entries), write each file in turn and time until
 * notifications/resources/updated for its URI arrives.
 */
export async function measureUpdatedLatency({ contender, root, targets, timeoutMs = 3000, gapMs = 60, log }) {
	const client = contender.client;
	const waiters = new Map(); // uri -> resolve
	const counts = new Map(); // uri -> notifications received
	client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => {
		const uri = n.params.uri;
		counts.set(uri, (counts.get(uri) ?? 0) + 1);
		const w = waiters.get(uri);
		if (w) {
			waiters.delete(uri);
			w(now());
		}
	});
	// If the bench dies mid-test, restore the generated content synchronously on exit.
	const removeCleanup = killAtExit(() => {
		for (const e of targets) {
			try {
				writeFileSync(path.join(root, e.rel), textContent(e));
			} catch { /* best effort */ }
		}
	});
	const latencies = [];
	let timeouts = 0;
	const uris = targets.map(e => pathToFileURL(path.join(root, e.rel)).href);
	const tSub = now();
	for (const uri of uris) await client.subscribeResource({ uri });
	const subscribeMs = (now() - tSub) / uris.length;
	await sleep(200);
	counts.clear();
	for (let i = 0; i < targets.length; i++) {
		const e = targets[i];
		const uri = uris[i];
		const arrived = new Promise(resolve => waiters.set(uri, resolve));
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
	const perWrite = [...counts.values()];
	const totalUpdated = perWrite.reduce((s, v) => s + v, 0);
	for (const uri of uris) await client.unsubscribeResource({ uri }).catch(() => {});
	// Restore generated content (fires more events; measured phase is over).
	for (const e of targets) await fsp.writeFile(path.join(root, e.rel), textContent(e));
	removeCleanup();
	await sleep(300);
	log?.(`  updated latency: ${latencies.length}/${targets.length} arrived, ${timeouts} timed out`);
	return {
		samples: targets.length,
		received: latencies.length,
		timeouts,
		subscribeMsEach: round(subscribeMs),
		updatedPerWrite: round(totalUpdated / targets.length),
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
export async function measureBurst({ contender, root, count, readPaths, expectedBase, quietMs = 2000, maxSettleMs = 30_000, maxVisibleMs = 30_000, readTimeoutMs = 15_000, log }) {
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

	const phase = async (mode, expectedListed) => {
		const before = listChanged;
		const readLat = [];
		let readErrors = 0;
		let firstReadError = null;
		let writing = true;
		let writerError = null;
		const t0 = now();
		let writeMs = null;
		const writer = runWorker({ dir: burstDir, count, perDir: 100, concurrency: 16, mode }).then(m => {
			writeMs = m.ms;
			writing = false;
		}, err => {
			writerError = err;
			writing = false;
		});
		let writesDoneAt = null;
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
		const listTimes = [];
		let listed;
		let visibleAfterMs = null;
		const deadline = now() + maxVisibleMs;
		let listError = null;
		for (;;) {
			const tl = now();
			try {
				listed = await contender.enumerate(readTimeoutMs); // a page stuck this long counts as failed
			} catch (err) {
				listError = String(err?.message ?? err);
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
		log?.(`  burst ${mode}: ${count} files written in ${Math.round(writeMs)} ms; ${events} list_changed (last ${lastAfterMs === null ? '—' : Math.round(lastAfterMs)} ms after start); reads p99 ${round(summarizeP99(readLat))} ms over ${readLat.length} reads; list shows ${listed ? listed.files.length : `nothing (${listError})`}/${expectedListed}${visibleAfterMs === null ? ' (gave up waiting)' : ` after ${Math.round(visibleAfterMs)} ms`}${readErrors ? `; ${readErrors} READS FAILED (${firstReadError?.message ?? firstReadError})` : ''}`);
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
			firstReadError: firstReadError ? String(firstReadError.message ?? firstReadError) : null,
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

function summarizeP99(values) {
	return summarize(values).p99 ?? null;
}
