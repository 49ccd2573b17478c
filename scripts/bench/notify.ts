// The notifications section: how long after a file is written its `updated` arrives, in both
// eras, this build beside the previous build; then a burst of 10,000 files written and deleted
// while a client keeps reading (list_changed coalesced, reads not held up, the listing right
// afterwards). Also the scale section's timings of list_changed and updated at size.
import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { killAtExit } from '../lib/processes.js';
import { Contender, ERAS, type Session, type Transport } from './contenders.js';
import type { BurstJob } from './burstWorker.js';
import { median, now, round, sleep, summarize, type LatencySummary } from './measurement.js';
import { fmt, renderTable } from './report.js';
import type { AimVerdict, SectionContext, SectionReport } from './section.js';
import { BURST_DIR_NAME, ensureWorkspace, restoreFiles, seededOrder, textContent, walkFiles, type TextEntry } from './workspace.js';

const UPDATED_AIM_MS = 100;

/** `updated` after a write, timed per target file. */
export interface UpdatedLatency { samples: number; received: number; timeouts: number; acknowledged: number; updatedPerWrite: number; latency: LatencySummary }

/**
 * Watches every target's URI (2025: resources/subscribe each; 2026-07-28: one listen), writes
 * each file in turn and times until its `updated` arrives; the generated text is put back
 * afterwards (and at exit, should the bench die in between).
 */
export async function measureUpdated(session: Session, root: string, targets: readonly TextEntry[], timeoutMs = 3000, gapMs = 60): Promise<UpdatedLatency> {
	const uris = targets.map(e => pathToFileURL(path.join(root, e.rel)).href);
	const waiters = new Map<string, (at: number) => void>();
	let notifications = 0;
	session.onUpdated(uri => {
		notifications++;
		waiters.get(uri)?.(now());
		waiters.delete(uri);
	});
	const restore = () => { for (const e of targets) { try { writeFileSync(path.join(root, e.rel), textContent(e)); } catch { /* best effort */ } } };
	const untrack = killAtExit(restore);
	const watch = await session.watch(uris);
	const latencies: number[] = [];
	let timeouts = 0;
	try {
		await sleep(200);
		notifications = 0;
		for (const [i, e] of targets.entries()) {
			const arrived = new Promise<number>(resolve => waiters.set(uris[i], resolve));
			const t0 = now();
			await fsp.writeFile(path.join(root, e.rel), `${textContent(e)}// bench touch ${i} ${Date.now()}\n`);
			const at = await Promise.race([arrived, sleep(timeoutMs).then(() => null)]);
			if (at === null) {
				timeouts++;
				waiters.delete(uris[i]);
			} else {
				latencies.push(at - t0);
			}
			await sleep(gapMs);
		}
		await sleep(500); // late duplicates count too
	} finally {
		await watch.close();
		await restoreFiles(root, targets);
		untrack();
	}
	await sleep(300);
	return { samples: targets.length, received: latencies.length, timeouts, acknowledged: watch.acknowledged, updatedPerWrite: round(notifications / targets.length), latency: summarize(latencies) };
}

function runBurstWorker(job: BurstJob): Promise<{ ms: number }> {
	return new Promise((resolve, reject) => {
		const worker = new Worker(new URL('./burstWorker.ts', import.meta.url), {
			workerData: job, execArgv: ['--import', new URL('../bootstrap/registerTypeScript.mjs', import.meta.url).href],
		});
		worker.once('message', resolve);
		worker.once('error', reject);
		worker.once('exit', code => { if (code !== 0) reject(new Error(`the burst worker exited with ${code}`)); });
	});
}

/** One phase of a burst: the files written (or deleted) and what the client saw meanwhile. */
export interface BurstPhase {
	mode: BurstJob['mode']; writeMs: number | null; listChanged: number; lastListChangedAfterMs: number | null; settledBy: 'quiet' | 'cap';
	readsDuring: number; readErrors: number; firstReadError: string | null; readLatency: LatencySummary;
	expectedListed: number; listedAfter: number | null; listError: string | null; visibleAfterMs: number | null;
}

/**
 * `count` new files written (then deleted) by a worker thread while `readPaths` are read one at a
 * time, until the writes are done and list_changed has been quiet for `quietMs` (at most
 * `settleCapMs` after the writes); then the listing is polled until it shows `expectedBase`
 * (+ `count`) files. A read stuck for 15 s counts as failed.
 */
export async function measureBurst(contender: Contender, root: string, count: number, readPaths: readonly string[], expectedBase: number, quietMs = 2000, settleCapMs = 30_000): Promise<{ create: BurstPhase; delete: BurstPhase }> {
	const burstDir = path.join(root, BURST_DIR_NAME);
	const untrack = killAtExit(() => rmSync(burstDir, { recursive: true, force: true }));
	let listChanged = 0;
	let lastListChanged = 0;
	contender.client.onListChanged(() => {
		listChanged++;
		lastListChanged = now();
	});
	contender.client.onUpdated(() => { /* nothing is subscribed any more; strays are fine */ });
	await sleep(300);
	const phase = async (mode: BurstJob['mode'], expectedListed: number): Promise<BurstPhase> => {
		const before = listChanged;
		const readLatencies: number[] = [];
		let readErrors = 0;
		let firstReadError: string | null = null;
		let writeMs: number | null = null;
		let writesDoneAt: number | undefined;
		let writerError: unknown;
		const t0 = now();
		const writer = runBurstWorker({ dir: burstDir, count, perDir: 100, concurrency: 16, mode }).then(m => { writeMs = m.ms; }, err => { writerError = err; }).finally(() => { writesDoneAt = now(); });
		let settledBy: BurstPhase['settledBy'] = 'quiet';
		for (let i = 0; ; i++) {
			const t = now();
			if (writesDoneAt !== undefined) {
				if (listChanged > before && t - Math.max(writesDoneAt, lastListChanged) >= quietMs) break;
				if (t - writesDoneAt >= settleCapMs) {
					settledBy = 'cap';
					break;
				}
			}
			try {
				await contender.read(readPaths[i % readPaths.length], 15_000);
			} catch (err) {
				readErrors++;
				firstReadError ??= err instanceof Error ? err.message : String(err);
			}
			readLatencies.push(now() - t);
		}
		await writer;
		if (writerError) throw writerError;
		let listedAfter: number | null = null;
		let listError: string | null = null;
		let visibleAfterMs: number | null = null;
		for (const deadline = now() + 30_000; ;) {
			try {
				listedAfter = (await contender.enumerate(15_000)).files.length;
			} catch (err) {
				listError = err instanceof Error ? err.message : String(err);
				break;
			}
			if (listedAfter === expectedListed) {
				visibleAfterMs = round(now() - t0);
				break;
			}
			if (now() > deadline) break;
			await sleep(500);
		}
		return {
			mode, writeMs: round(writeMs) ?? null, listChanged: listChanged - before, lastListChangedAfterMs: lastListChanged > t0 ? round(lastListChanged - t0) : null, settledBy,
			readsDuring: readLatencies.length, readErrors, firstReadError, readLatency: summarize(readLatencies), expectedListed, listedAfter, listError, visibleAfterMs,
		};
	};
	try {
		const create = await phase('create', expectedBase + count);
		await sleep(quietMs);
		return { create, delete: await phase('delete', expectedBase) };
	} finally {
		await fsp.rm(burstDir, { recursive: true, force: true });
		untrack();
	}
}

/**
 * The scale section's notification timings: list_changed for a file created in `leafDir` and
 * `updated` for a watched file there that changes, `samples` times each; the files written are
 * named after `prefix` and removed afterwards.
 */
export async function measureNotifyAtScale(session: Session, leafDir: string, { prefix, settleMs, samples = 5 }: { prefix: string; settleMs: number; samples?: number }) {
	let onListChanged: ((at: number) => void) | null = null;
	let onUpdated: ((uri: string, at: number) => void) | null = null;
	session.onListChanged(() => onListChanged?.(now()));
	session.onUpdated(uri => onUpdated?.(uri, now()));
	const wait = (install: (resolve: (at: number) => void) => void, timeoutMs = 10_000) => Promise.race([new Promise<number>(install), sleep(timeoutMs).then(() => null)]);
	const created: number[] = [];
	const updated: number[] = [];
	let listChangedTimeouts = 0;
	let updatedTimeouts = 0;
	const target = path.join(leafDir, `${prefix}-target.ts`);
	writeFileSync(target, 'export {};\n');
	try {
		await sleep(settleMs); // the target's own list_changed, and the gap after it
		const uri = pathToFileURL(target).href;
		await session.watch([uri], true);
		for (let i = 0; i < samples; i++) {
			const file = path.join(leafDir, `${prefix}-${i}.ts`);
			const t0 = now();
			const arrived = wait(resolve => { onListChanged = resolve; });
			writeFileSync(file, `export const n = ${i};\n`);
			const at = await arrived;
			if (at === null) listChangedTimeouts++; else created.push(at - t0);
			// The delete's own list_changed, then more than the server's shortest gap between two,
			// so the next create is timed alone.
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
		for (let i = 0; i < samples; i++) rmSync(path.join(leafDir, `${prefix}-${i}.ts`), { force: true });
		rmSync(target, { force: true });
	}
	return { listChangedP50Ms: round(median(created), 1) ?? null, updatedP50Ms: round(median(updated), 1) ?? null, listChangedTimeouts, updatedTimeouts };
}

/** What measureNotifyAtScale finds. */
export type NotifyAtScale = Awaited<ReturnType<typeof measureNotifyAtScale>>;

/** The notifications section: `npm run bench -- --section notify`. */
export async function runNotify(ctx: SectionContext): Promise<SectionReport> {
	const { flags, quick, log } = ctx;
	const files = flags.number('--files', quick ? 2000 : 20_000, 1);
	const binaries = flags.number('--binaries', quick ? 20 : 200);
	const seed = flags.number('--seed', 1);
	const samples = flags.number('--notify-samples', quick ? 10 : 50);
	const burst = flags.number('--burst', quick ? 1000 : 10_000);
	const transport = flags.choice<Transport>('--notify-transport', ['stdio', 'http'], 'stdio');
	const ws = await ensureWorkspace({ files, binaries, seed, log });
	const { sample, targets } = seededOrder(ws, seed, quick ? 300 : 2000, samples);
	await restoreFiles(ws.root, targets); // in case an earlier run died mid-way
	const expectedBase = (await walkFiles(ws.root)).length;
	const builds = [['this build', ctx.cli], ['previous', ctx.previousCli()]] as const;
	const updated: Record<string, UpdatedLatency | { error: string }> = {};
	const errors: string[] = [];
	const problems: string[] = [];
	for (const era of ERAS) {
		for (const [build, cli] of builds) {
			if (!cli) continue;
			const key = `${build}, ${era}`;
			log(`\n== notify: updated after a write, ${key} over ${transport}`);
			const contender = new Contender(key, { cli, root: ws.root, home: ctx.home }, transport, era);
			try {
				await contender.start();
				await contender.enumerate(); // the index is complete before the first write
				const result = await measureUpdated(contender.client, ws.root, targets);
				updated[key] = result;
				log(`  ${result.received}/${result.samples} arrived, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`);
			} catch (err) {
				updated[key] = { error: contender.describeFailure(err) };
				(build === 'this build' ? errors : problems).push(`notify ${key}: ${contender.describeFailure(err).split('\n')[0]}`);
			} finally {
				await contender.close();
			}
		}
	}
	let burstResult: Awaited<ReturnType<typeof measureBurst>> | undefined;
	if (burst > 0) {
		log(`\n== notify: a burst of ${burst} files written, then deleted, while a client reads (this build, 2025, ${transport})`);
		const contender = new Contender('burst', { cli: ctx.cli, root: ws.root, home: ctx.home }, transport, '2025');
		try {
			await contender.start();
			await contender.enumerate();
			burstResult = await measureBurst(contender, ws.root, burst, sample, expectedBase);
			for (const p of [burstResult.create, burstResult.delete]) {
				log(`  ${p.mode}: ${p.listChanged} list_changed, reads p99 ${p.readLatency.p99} ms over ${p.readsDuring}, listed ${p.listedAfter}/${p.expectedListed}`);
				if (p.readErrors) errors.push(`burst ${p.mode}: ${p.readErrors} reads failed (${p.firstReadError})`);
				if (p.listError) errors.push(`burst ${p.mode}: resources/list failed: ${p.listError}`);
				else if (p.listedAfter !== p.expectedListed) problems.push(`burst ${p.mode}: the listing shows ${p.listedAfter} files after 30 s, expected ${p.expectedListed}`);
				if (p.settledBy === 'cap') problems.push(`burst ${p.mode}: list_changed never went quiet within 30 s of the writes`);
			}
		} catch (err) {
			errors.push(`burst: ${contender.describeFailure(err).split('\n')[0]}`);
		} finally {
			await contender.close();
		}
	}
	const aims: AimVerdict[] = ERAS.map(era => {
		const of = (build: string) => { const r = updated[`${build}, ${era}`]; return r && 'latency' in r ? r.latency.p50 : undefined; };
		const value = of('this build');
		return {
			aim: `updated p50 <= ${UPDATED_AIM_MS} ms`, where: `${transport}, ${era}`, unit: 'ms', value, previous: ctx.previousCli() ? of('previous') ?? null : undefined,
			met: typeof value === 'number' ? value <= UPDATED_AIM_MS : null,
		};
	});
	const rows = Object.entries(updated).map(([key, r]) => 'error' in r
		? [key, 'error', '', '', '']
		: [key, `${r.received}/${r.samples}`, fmt(r.latency.p50), fmt(r.latency.p99), fmt(r.updatedPerWrite)]);
	const text = [`notifications: updated after a file is written (${files.toLocaleString('en-US')} files, over ${transport})`, renderTable(['build, era', 'arrived', 'p50 ms', 'p99 ms', 'per write'], rows)];
	if (burstResult) {
		text.push('', `a burst of ${burst.toLocaleString('en-US')} new files, then their deletion, while a client reads one file at a time (this build, 2025)`, renderTable(
			['phase', 'list_changed', 'last after ms', 'read p50 ms', 'read p99 ms', 'slowest read ms', 'listed', 'expected', 'listed after ms'],
			[burstResult.create, burstResult.delete].map(p => [p.mode, String(p.listChanged), fmt(p.lastListChangedAfterMs), fmt(p.readLatency.p50), fmt(p.readLatency.p99), fmt(p.readLatency.max), fmt(p.listedAfter), fmt(p.expectedListed), fmt(p.visibleAfterMs)]),
		));
	}
	return { results: { files, transport, updated, burst: burstResult }, text: text.join('\n'), aims, errors, problems };
}
