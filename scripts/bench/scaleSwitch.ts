// A branch switch at scale (scale section): `git checkout` of the scale repository's `switch`
// branch, which rewrites, deletes and adds thousands of files, and back, while a server serves it
// and a client watches 20 of the changed files. Per switch: the server's event-loop delay and
// main-thread CPU from the checkout until the notifications settle (every watched file updated,
// then no list_changed for 2 s), the notifications and when the last came, and whether a full
// listing then holds exactly the branch's files (`git ls-files`), in order. In the editor, a
// window as long as the longest switch with no checkout follows, as a control.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Session } from './contenders.js';
import type { DelaySpike } from './hostInspector.js';
import { medianOf, now, rangeOf, round, sleep } from './measurement.js';
import { fmt, renderTable } from './report.js';
import { SUBSCRIBED, type SwitchRepo } from './scaleTree.js';

const run = promisify(execFile);
/** No list_changed for this long after the last one (and every watched file updated) = settled. */
const QUIET_MS = 2000;
const SETTLE_CAP_MS = 60_000;

/** Event-loop delay over a window, ms. */
export interface Delay { p99Ms: number; maxMs: number }

/** What the switch reads of the server's process. */
export interface SwitchProbe {
	/** The event-loop delay since the last call. */
	delay(): Promise<Delay | null>;
	/** The holds over 20 ms since the last call (the editor's inspector logs them; headless: none). */
	spikes(): Promise<DelaySpike[]>;
	/** CPU of the server's main thread so far, ms. */
	cpuMs(): number | null;
	/** Stamps the start of a phase (for a CPU profile's long tasks). */
	mark(phase: string): Promise<void>;
}

/** One checkout (or, for the control, the same length of window without one). */
export interface SwitchSample {
	to: 'switch' | 'main' | 'control';
	checkoutMs?: number;
	windowMs: number;
	delay: Delay | null;
	spikes: DelaySpike[];
	mainThreadCpuMs: number | null;
	listChanged?: number;
	updated?: number;
	lastNotificationMs?: number | null;
	settledBy?: 'quiet' | 'cap';
	listed?: number;
	/** Files of the branch the listing lacked, files it held that the branch does not, a few of each. */
	missing?: number;
	extra?: number;
	examples?: string[];
	/** Neighbours in the listing not in strictly increasing URI order. */
	outOfOrder?: number;
	error?: string;
}

/** The list_changed and (first per URI) updated notifications a client receives, and when. */
class Received {
	listChanged: number[] = [];
	updated = new Map<string, number>();

	constructor(session: Session) {
		session.onListChanged(() => { this.listChanged.push(now()); });
		session.onUpdated(uri => { if (!this.updated.has(uri)) this.updated.set(uri, now()); });
	}

	reset(): void {
		this.listChanged = [];
		this.updated = new Map();
	}

	/** When the last notification came, ms after `t0`. */
	lastAfter(t0: number): number | null {
		const last = Math.max(...this.listChanged, ...this.updated.values());
		return Number.isFinite(last) ? round(last - t0) : null;
	}

	/** Until no list_changed came for QUIET_MS and `done()` holds, or SETTLE_CAP_MS passed. */
	async settle(done: () => boolean): Promise<'quiet' | 'cap'> {
		const start = now();
		for (;;) {
			const last = this.listChanged.length ? this.listChanged[this.listChanged.length - 1] : start;
			if (done() && now() - last >= QUIET_MS) return 'quiet';
			if (now() - start > SETTLE_CAP_MS) return 'cap';
			await sleep(100);
		}
	}
}

/** Every file URI a full listing holds, in its order. */
export async function listedUris(session: Session): Promise<string[]> {
	const uris: string[] = [];
	let cursor: string | undefined;
	do {
		const page = await session.listPage(cursor, 120_000);
		for (const r of page.resources) if (r.uri.startsWith('file://')) uris.push(r.uri);
		cursor = page.nextCursor;
	} while (cursor !== undefined);
	return uris;
}

async function branchUris(root: string): Promise<Set<string>> {
	const { stdout } = await run('git', ['ls-files', '-z'], { cwd: root, maxBuffer: 1 << 28 });
	return new Set(stdout.split('\0').filter(Boolean).map(file => pathToFileURL(path.join(root, file)).href));
}

async function oneSwitch(to: 'switch' | 'main', session: Session, repo: SwitchRepo, probe: SwitchProbe, received: Received, uris: readonly string[]): Promise<SwitchSample> {
	await received.settle(() => true); // whatever came before is not this switch's
	received.reset();
	await probe.delay();
	await probe.spikes();
	await probe.mark(`switch-to-${to}`);
	const cpuBefore = probe.cpuMs();
	const t0 = now();
	await run('git', ['checkout', '-q', to], { cwd: repo.root });
	const checkoutMs = round(now() - t0);
	const settledBy = await received.settle(() => uris.every(uri => received.updated.has(uri)));
	const windowMs = round(now() - t0);
	const delay = await probe.delay();
	const spikes = await probe.spikes();
	const cpuAfter = probe.cpuMs();
	await probe.mark(`switch-to-${to}-listing`);
	const listed = await listedUris(session);
	const branch = await branchUris(repo.root);
	const seen = new Set(listed);
	const missing = [...branch].filter(uri => !seen.has(uri));
	const extra = [...seen].filter(uri => !branch.has(uri));
	return {
		to, checkoutMs, windowMs, delay, spikes, mainThreadCpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null,
		listChanged: received.listChanged.length, updated: received.updated.size, lastNotificationMs: received.lastAfter(t0), settledBy, listed: listed.length,
		missing: missing.length, extra: extra.length, examples: [...missing, ...extra].slice(0, 5),
		outOfOrder: listed.filter((uri, i) => i > 0 && !(listed[i - 1] < uri)).length,
	};
}

/** `switch` and back to `main` with `session` watching the repository's subscribed files; with `control`, then a window without a checkout. */
export async function measureSwitches(session: Session, repo: SwitchRepo, probe: SwitchProbe, control = false): Promise<SwitchSample[]> {
	const received = new Received(session);
	const uris = repo.subscribed.map(file => pathToFileURL(file).href);
	await session.watch(uris, true);
	const samples: SwitchSample[] = [];
	try {
		for (const to of ['switch', 'main'] as const) samples.push(await oneSwitch(to, session, repo, probe, received, uris));
	} finally {
		// Leave the shared repository on main whatever happened, for the next run.
		await run('git', ['checkout', '-q', '-f', 'main'], { cwd: repo.root });
	}
	if (control) {
		await received.settle(() => true);
		const windowMs = Math.max(...samples.map(s => s.windowMs));
		await probe.delay();
		await probe.spikes();
		await probe.mark('switch-control');
		const cpuBefore = probe.cpuMs();
		await sleep(windowMs);
		const cpuAfter = probe.cpuMs();
		samples.push({ to: 'control', windowMs, delay: await probe.delay(), spikes: await probe.spikes(), mainThreadCpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null });
		await probe.mark('switch-end');
	}
	return samples;
}

/** The switches of each column (a build, or the editor's switches and its control), median (range). */
export function renderSwitches(title: string, columns: Record<string, SwitchSample[]>): string {
	const cell = (samples: readonly SwitchSample[], pick: (s: SwitchSample) => number | null | undefined) => {
		const range = rangeOf(samples, pick);
		return range ? `${fmt(medianOf(samples, pick))} (${fmt(range[0])}-${fmt(range[1])})` : '';
	};
	const rows: [string, (s: SwitchSample) => number | null | undefined][] = [
		['git checkout (ms)', s => s.checkoutMs],
		['checkout to settled (ms)', s => s.windowMs],
		['event-loop delay p99 (ms)', s => s.delay?.p99Ms],
		['event-loop delay max (ms)', s => s.delay?.maxMs],
		['event-loop holds over 20 ms (editor)', s => (s.delay && 'samples' in s.delay ? s.spikes.length : undefined)],
		['server main-thread CPU (ms)', s => s.mainThreadCpuMs],
		['list_changed received', s => s.listChanged],
		[`updated received (of ${SUBSCRIBED} watched)`, s => s.updated],
		['last notification after the checkout (ms)', s => s.lastNotificationMs],
		["branch's files missing from the listing", s => s.missing],
		['files listed the branch does not have', s => s.extra],
		['neighbours out of URI order', s => s.outOfOrder],
	];
	const names = Object.keys(columns);
	const cells = rows.map(([label, pick]) => [label, ...names.map(n => cell(columns[n], pick))]).filter(row => row.slice(1).some(Boolean));
	return [title, renderTable(['median (range)', ...names], cells)].join('\n');
}

/** What went wrong in any switch, for the problems list. */
export function switchProblems(column: string, samples: readonly SwitchSample[]): string[] {
	return samples.flatMap(s => [
		s.error ? `${column}: switch failed: ${s.error}` : undefined,
		s.settledBy === 'cap' ? `${column}: the switch to ${s.to} did not settle within ${SETTLE_CAP_MS / 1000} s` : undefined,
		s.missing || s.extra ? `${column}: after the switch to ${s.to} the listing lacked ${s.missing} of the branch's files and held ${s.extra} others (e.g. ${s.examples?.join(' ')})` : undefined,
		s.outOfOrder ? `${column}: after the switch to ${s.to} ${s.outOfOrder} neighbours in the listing were out of URI order` : undefined,
	].filter((p): p is string => p !== undefined));
}
