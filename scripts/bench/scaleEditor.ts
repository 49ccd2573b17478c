// The scale section in the real extension host (`--section scale --editor`, needs
// `npm run provision`): the packaged extension in code-server on the scale tree (or, with
// --switch-changed N, the scale repository, switched there and back after the listing), a fresh
// window per run opened by headless Chromium, so each extension host starts cold. Per window:
//   - the index time: the extension's own "indexed N files" line in its output channel's log;
//   - the extension host's memory (the pid in the server's lock file, checked to be the host) and
//     its main thread's CPU while indexing and while listing: what our work costs the loop;
//   - its event-loop delay: VS Code strips NODE_OPTIONS from the extension host, so nothing can be
//     preloaded; SIGUSR1 opens its inspector from outside (hostInspector.ts) and a delay histogram
//     runs in it from the host's start, read when the lock file appears, when the index line
//     shows, and around a full listing; a 2 s window with nothing of ours is the control;
//   - pings answered while indexing, the first page, the full listing, list_changed and updated,
//     as headless (the client: the SDK v1 client over the window's HTTP endpoint).
// --vsix PATH measures another package; --profile DIR writes a CPU profile per window and names
// the owners of its long stretches (longTasks.ts); --show-picker opens the picker's view as the
// server starts; --settings JSON adds user settings; --min-window-ms N keeps the indexing window
// open at least that long (with a small tree: the start-up's own delays, without our indexing).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { waitForWorkbench, poll } from '../../test/e2e/workbench.js';
import { launchBrowser, newWorkbenchPage } from '../lib/browser.js';
import { findLogs, startCodeServer } from '../lib/codeServer.js';
import { errorText } from '../lib/errorText.js';
import { cleanupStack, descendants } from '../lib/processes.js';
import { makeMcpHome, packageExtension } from '../lib/project.js';
import { ensureProvisioned } from '../lib/vscodeEnv.js';
import { connectHttp } from './contenders.js';
import { connectInspector, type LoopDelay } from './hostInspector.js';
import { longTasks, type CpuProfile } from './longTasks.js';
import { indexLine, mainThreadCpuMs, median, medianOf, now, processMemory, rangeOf, round, sleep, summarize, type LatencySummary } from './measurement.js';
import { measureNotifyAtScale, type NotifyAtScale } from './notify.js';
import { fmt, renderTable } from './report.js';
import { listedUris, measureSwitches, renderSwitches, switchProblems, type SwitchSample } from './scaleSwitch.js';
import { planScaleTree, prepareScaleTree, prepareSwitchRepo } from './scaleTree.js';
import type { SectionContext, SectionReport } from './section.js';

/** One cold window (the header says what each is). */
export interface EditorWindow extends Partial<NotifyAtScale> {
	indexMs?: number;
	rssAtLockMiB?: number | null;
	rssAfterIndexMiB?: number | null;
	rssAfterListingMiB?: number | null;
	peakRssMiB?: number | null;
	cpuIndexingMs?: number | null;
	cpuListingMs?: number | null;
	indexingDelay?: LoopDelay;
	idleDelay?: LoopDelay;
	listingDelay?: LoopDelay;
	pingWhileIndexing?: LatencySummary;
	firstPageP50Ms?: number | null;
	fullListingMs?: number;
	listed?: number;
	/** The host's clock (µs, its CPU profile's time base) when each phase began. */
	phasesUs: Record<string, number | null>;
	switches?: SwitchSample[];
	longTasks?: string[];
	/** The index line was there when the lock file appeared: the indexing window was missed. */
	indexedBeforeLock?: boolean;
	error?: string;
}

interface WindowOptions { vsix: string; workspace: string; expected: number; leafDir: string; profileDir?: string; showPicker: boolean; settings: Record<string, unknown>; minWindowMs: number; repo?: ReturnType<typeof prepareSwitchRepo> }

const cmdline = (pid: number) => { try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '); } catch { return ''; } };

/** The server's lock file (its url, token and pid), once written. */
function readLockFile(home: string): { url: string; token: string; pid: number } | undefined {
	const dir = path.join(home, 'servers');
	const file = fs.existsSync(dir) ? fs.readdirSync(dir).find(f => f.endsWith('.json')) : undefined;
	try { return file ? JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { url: string; token: string; pid: number } : undefined; } catch { return undefined; /* being written */ }
}

/** The extension's index line in its output channel's log file, once there. */
function editorIndexLine(userDataDir: string): { files: number; ms: number } | undefined {
	const file = findLogs(userDataDir).find(f => f.endsWith('MCP Resources.log'));
	return file ? indexLine(fs.readFileSync(file, 'utf8')) : undefined;
}

async function oneWindow(browser: Browser, index: number, o: WindowOptions): Promise<EditorWindow> {
	const mcpHome = makeMcpHome();
	const cleanups = cleanupStack();
	const r: EditorWindow = { phasesUs: {} };
	try {
		const server = await startCodeServer({ workspace: o.workspace, env: { MCP_WORKSPACE_RESOURCES_HOME: mcpHome.dir }, installExtensions: [o.vsix], settings: o.settings });
		cleanups.push(() => server.stop({}));
		const { page, context } = await newWorkbenchPage(browser, { origin: server.url });
		cleanups.push(() => context.close());
		await page.goto(server.workbenchUrl(), { waitUntil: 'domcontentloaded', timeout: 60_000 });
		// The extension host as soon as it exists: its event loop is watched from then on.
		const hostPid = await poll(() => descendants(server.pid ?? 0).find(pid => cmdline(pid).includes('--type=extensionHost')), 'the extension host process', 120_000, 10);
		const inspector = await connectInspector(hostPid);
		cleanups.push(() => inspector.close());
		await inspector.startDelayMonitor();
		if (o.profileDir) await inspector.startProfile();
		const mark = async (phase: string) => { r.phasesUs[phase] = await inspector.clockUs(); };

		const lock = await poll(() => readLockFile(mcpHome.dir), 'the lock file', 120_000, 10);
		if (lock.pid !== hostPid) throw new Error(`the lock file's pid ${lock.pid} is not the extension host ${hostPid}`);
		await inspector.delay(); // from here on: the server listens and indexes
		const lockAt = now();
		const cpuAtLock = mainThreadCpuMs(hostPid);
		await mark('indexing');
		r.indexedBeforeLock = editorIndexLine(server.userDataDir) !== undefined;
		r.rssAtLockMiB = processMemory(hostPid)?.rssMiB;
		// Clicked while the pings run: the click waits for the workbench, the extension host does not.
		const pickerShown = o.showPicker ? page.locator('.part.activitybar [aria-label^="MCP Resources"]').first().click({ timeout: 60_000 }).then(() => undefined, (err: unknown) => err) : undefined;
		const client = await connectHttp('2025', lock.url, lock.token);
		cleanups.push(() => client.close());
		const pings: number[] = [];
		let indexed: { files: number; ms: number } | undefined;
		while (!(indexed = editorIndexLine(server.userDataDir)) || now() - lockAt < o.minWindowMs) {
			const t = now();
			await client.ping();
			pings.push(now() - t);
			await sleep(20);
		}
		r.rssAfterIndexMiB = processMemory(hostPid)?.rssMiB;
		const cpuAtIndexed = mainThreadCpuMs(hostPid);
		r.cpuIndexingMs = cpuAtLock !== null && cpuAtIndexed !== null ? cpuAtIndexed - cpuAtLock : null;
		r.indexingDelay = await inspector.delay();
		await mark('indexed');
		r.indexMs = indexed.ms;
		r.pingWhileIndexing = summarize(pings);
		const clickFailure = await pickerShown;
		if (clickFailure) throw clickFailure;
		await waitForWorkbench(page);
		// The control: the same host doing nothing of ours for 2 s.
		await inspector.delay();
		await mark('idle');
		await sleep(2000);
		r.idleDelay = await inspector.delay();
		await mark('warmup');
		for (let i = 0; i < 5; i++) await client.listPage(undefined, 60_000);
		const pages: number[] = [];
		for (let i = 0; i < 21; i++) {
			const t = now();
			await client.listPage(undefined, 60_000);
			pages.push(now() - t);
		}
		r.firstPageP50Ms = round(median(pages), 2);
		await inspector.delay();
		await mark('listing');
		const cpuBefore = mainThreadCpuMs(hostPid);
		const t = now();
		r.listed = (await listedUris(client)).length;
		r.fullListingMs = round(now() - t);
		const cpuAfter = mainThreadCpuMs(hostPid);
		r.cpuListingMs = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
		r.listingDelay = await inspector.delay();
		await mark('listed');
		if (r.listed !== o.expected) throw new Error(`listed ${r.listed} files, expected ${o.expected}`);
		const memory = processMemory(hostPid);
		r.rssAfterListingMiB = memory?.rssMiB;
		r.peakRssMiB = memory?.peakRssMiB;
		if (o.repo) {
			r.switches = await measureSwitches(client, o.repo, {
				delay: () => inspector.delay(), spikes: () => inspector.spikes(), cpuMs: () => mainThreadCpuMs(hostPid), mark,
			}, true);
		}
		if (o.profileDir) {
			const profile = await inspector.stopProfile() as CpuProfile;
			fs.mkdirSync(o.profileDir, { recursive: true });
			fs.writeFileSync(path.join(o.profileDir, `window-${index + 1}.cpuprofile`), JSON.stringify(profile));
			r.longTasks = longTasks(profile, { phasesUs: r.phasesUs, spikes: r.switches?.flatMap(s => s.spikes) });
		}
		Object.assign(r, await measureNotifyAtScale(client, o.leafDir, { prefix: 'editor-notify', settleMs: 1500 }));
	} catch (err) {
		r.error = errorText(err);
	} finally {
		await cleanups.run();
		mcpHome.remove();
	}
	return r;
}

const ROWS: [string, (w: EditorWindow) => number | null | undefined][] = [
	['index built, the extension log line (ms)', w => w.indexMs],
	['extension host RSS when the server started (MiB)', w => w.rssAtLockMiB],
	['extension host RSS after indexing (MiB)', w => w.rssAfterIndexMiB],
	['extension host RSS after a full listing (MiB)', w => w.rssAfterListingMiB],
	['extension host peak RSS (MiB)', w => w.peakRssMiB],
	['main thread CPU while indexing (ms)', w => w.cpuIndexingMs],
	['main thread CPU during the full listing (ms)', w => w.cpuListingMs],
	['event-loop delay while indexing p99 (ms)', w => w.indexingDelay?.p99Ms],
	['event-loop delay while indexing max (ms)', w => w.indexingDelay?.maxMs],
	['event-loop delay, 2 idle s after indexing, p99 (ms)', w => w.idleDelay?.p99Ms],
	['event-loop delay, 2 idle s after indexing, max (ms)', w => w.idleDelay?.maxMs],
	['ping while indexing, slowest (ms)', w => w.pingWhileIndexing?.max],
	['first page p50 (ms)', w => w.firstPageP50Ms],
	['full listing (ms)', w => w.fullListingMs],
	['event-loop delay while listing p99 (ms)', w => w.listingDelay?.p99Ms],
	['event-loop delay while listing max (ms)', w => w.listingDelay?.maxMs],
	['list_changed after a create p50 (ms)', w => w.listChangedP50Ms],
	['updated after a change p50 (ms)', w => w.updatedP50Ms],
];

/** The scale section with --editor. */
export async function runScaleInEditor(ctx: SectionContext, { files, windows, switchFiles, switchChanged }: { files: number; windows: number; switchFiles: number; switchChanged: number }): Promise<SectionReport> {
	const { flags, log } = ctx;
	if (typeof WebSocket !== 'function') throw new Error('the extension host\'s inspector needs a global WebSocket: Node 22, or Node 20 with --experimental-websocket (npm run bench passes it)');
	await ensureProvisioned();
	const vsixFlag = flags.text('--vsix');
	const vsix = vsixFlag ? path.resolve(vsixFlag) : await packageExtension();
	const profileFlag = flags.text('--profile');
	const repo = switchChanged > 0 ? prepareSwitchRepo(switchFiles, switchChanged, log) : undefined;
	const tree = repo ? undefined : prepareScaleTree(files, log);
	const options: WindowOptions = {
		vsix, workspace: repo?.root ?? tree?.tree.root ?? '', expected: repo?.expected.main ?? tree?.expected ?? 0,
		leafDir: repo ? path.join(repo.root, planScaleTree(switchFiles).dirs[1]) : tree?.leafDir ?? '',
		profileDir: profileFlag ? path.resolve(profileFlag) : undefined, showPicker: flags.has('--show-picker'),
		settings: JSON.parse(flags.text('--settings', '{}')) as Record<string, unknown>, minWindowMs: flags.number('--min-window-ms', 0), repo,
	};
	const browser = await launchBrowser();
	const runs: EditorWindow[] = [];
	try {
		for (let i = 0; i < windows; i++) {
			log(`\n== scale in the editor: window ${i + 1} of ${windows}`);
			runs.push(await oneWindow(browser.browser, i, options));
			log(`  ${JSON.stringify({ ...runs[i], longTasks: undefined, switches: undefined })}`);
		}
	} finally {
		await browser.close();
	}
	const ok = runs.filter(w => !w.error);
	const count = repo ? switchFiles : files;
	const text = [renderTable([`${count.toLocaleString('en-US')} files in the real extension host: ${ok.length} of ${windows} cold windows`, 'median', 'range'], ROWS.map(([label, pick]) => {
		const range = rangeOf(ok, pick);
		return [label, fmt(medianOf(ok, pick)), range ? `${fmt(range[0])}-${fmt(range[1])}` : '—'];
	}))];
	const switches = ok.flatMap(w => w.switches ?? []);
	if (repo) text.push('', renderSwitches(`a branch switch in the editor: ${switchChanged.toLocaleString('en-US')} files of ${switchFiles.toLocaleString('en-US')}, there and back per window`, { switch: switches.filter(s => s.to !== 'control'), 'control: no checkout': switches.filter(s => s.to === 'control') }));
	for (const [i, w] of runs.entries()) if (w.longTasks) text.push('', `window ${i + 1}: long stretches of the extension host's loop (profile in ${profileFlag})`, ...w.longTasks);
	const page = medianOf(ok, w => w.firstPageP50Ms);
	return {
		results: { files: count, windows: runs, vsix },
		text: text.join('\n'),
		aims: [{ aim: 'first page <= 20 ms', where: `the extension host, ${count.toLocaleString('en-US')} files`, unit: 'ms', value: page, met: page === null ? null : page <= 20 }],
		errors: runs.flatMap((w, i) => (w.error ? [`editor window ${i + 1}: ${w.error.split('\n')[0]}`] : [])),
		problems: [
			...switchProblems('editor', switches),
			...runs.flatMap((w, i) => (w.indexedBeforeLock ? [`editor window ${i + 1}: the index line was there when the lock file appeared: the indexing window was missed`] : [])),
			...runs.flatMap((w, i) => [['list_changed', w.listChangedTimeouts], ['updated', w.updatedTimeouts]].filter(([, n]) => n).map(([what, n]) => `editor window ${i + 1}: ${n} ${what} did not arrive within 10 s`)),
		],
	};
}
