// One cold window of the host-scale bench (hostScale.ts's header says what it measures and how):
// a fresh code-server with the packaged extension on the scale tree, a workbench page, the
// extension host watched from its start.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { startCodeServer } from '../lib/codeServer.js';
import { newWorkbenchPage } from '../lib/browser.js';
import { errorText } from '../lib/errorText.js';
import { cleanupStack } from '../lib/processes.js';
import { makeMcpHome } from '../lib/project.js';
import { waitForWorkbench } from '../../test/e2e/workbench.js';
import { connectInspector, type HostInspector, type LoopDelay } from './hostInspector.js';
import { connectClient, listAll } from './hostScaleClient.js';
import { findExtensionHost, indexLine, mib, readLockFile, until } from './hostScaleProbes.js';
import type { HostRun, Memory } from './hostScaleResult.js';
import { median, now, readProcMemory, readThreadCpuMs, round, sleep, summarize } from './measurement.js';
import { measureScaleNotifyLatency } from './notify.js';
import { measureHostSwitches } from './hostScaleSwitch.js';
import type { SwitchRepo } from './scaleSwitch.js';

/** The inspector's calls, or nothing (BENCH_HOST_NO_INSPECTOR=1). */
type DelaySource = Pick<HostInspector, 'startDelayMonitor' | 'startProfile' | 'stopProfile' | 'close' | 'spikes'> & { clockUs(): Promise<number | null> } & { delay(): Promise<LoopDelay | null>; memory(): Promise<Memory | null> };

const absentInspector: DelaySource = { startDelayMonitor: async () => {}, spikes: async () => [], startProfile: async () => {}, stopProfile: async () => null, clockUs: async () => null, delay: async () => null, memory: async () => null, close: async () => {} };

/** How a window is watched: with the inspector or not, CPU-profiled into a folder or not. */
export interface RunOptions {
	readonly noInspector: boolean;
	readonly profileDir: string | undefined;
	/**
	 * The indexing window lasts at least this long (ms) after the lock file appears, even when the
	 * index line comes sooner: with a small tree, the same seconds of the editor's start-up without
	 * our indexing in them (a control for what the start-up itself costs the loop). 0: until the line.
	 */
	readonly minWindowMs: number;
	/** Extra user settings of the editor (a diagnosis: what one of its features costs the loop). */
	readonly settings: Record<string, unknown>;
	/** The git repository the window is opened on, switched there and back after the listing (BENCH_HOST_SWITCH=1). */
	readonly switchRepo: SwitchRepo | undefined;
	/** Switches there and back per window (BENCH_HOST_SWITCH_ROUNDS). */
	readonly switchRounds: number;
	/** Opens the picker's view as the server starts (BENCH_HOST_PICKER=1). */
	readonly showPicker: boolean;
	readonly log: (msg: string) => void;
}

export async function oneRun(browser: { browser: Browser }, vsix: string, workspace: string, expected: number, leafDir: string, runIndex: number, options: RunOptions): Promise<HostRun> {
	const { noInspector, profileDir, minWindowMs, settings, switchRepo, switchRounds, showPicker, log } = options;
	const mcpHome = makeMcpHome();
	const cleanups = cleanupStack();
	const r: HostRun = {};
	try {
		const server = await startCodeServer({ workspace, env: { MCP_WORKSPACE_RESOURCES_HOME: mcpHome.dir }, installExtensions: [vsix], settings });
		cleanups.push(() => server.stop({}));
		const { page, context } = await newWorkbenchPage(browser.browser, { origin: server.url });
		cleanups.push(() => context.close());
		await page.goto(server.workbenchUrl(), { waitUntil: 'domcontentloaded', timeout: 60_000 });

		// The extension host as soon as it exists: its event loop is watched from then on.
		const hostPid = await until(() => findExtensionHost(server.pid), 'the extension host process', 120_000, 10);
		const inspector: DelaySource = noInspector ? absentInspector : await connectInspector(hostPid);
		cleanups.push(() => inspector.close());
		await inspector.startDelayMonitor();
		if (profileDir) await inspector.startProfile();
		r.lockBeforeMonitor = readLockFile(mcpHome.dir) !== undefined;

		const lock = await until(() => readLockFile(mcpHome.dir), 'the lock file', 120_000, 10);
		if (lock.pid !== hostPid) throw new Error(`the lock file's pid ${lock.pid} is not the extension host ${hostPid}`);
		await inspector.delay(); // from here on: the server listens and indexes
		const lockAt = now();
		const cpuAtLock = readThreadCpuMs(hostPid);
		r.phasesUs = { indexing: await inspector.clockUs() };
		r.indexedBeforeLock = indexLine(server.userDataDir) !== undefined;
		// What the host held before the index was built, for scale: the workbench's own extensions
		// live in the same process.
		r.rssAtLockMiB = mib(readProcMemory(hostPid)?.rssKiB);
		// Clicked while the pings run: the click waits for the workbench, the extension host does not.
		// (Its picker then also lists everything once indexed, in the phases after this one.)
		const pickerShown = showPicker
			? page.locator('.part.activitybar [aria-label^="MCP Resources"]').first().click({ timeout: 60_000 }).then(() => undefined, (err: unknown) => err)
			: undefined;
		const client = await connectClient(lock);
		cleanups.push(() => client.close());

		const pings: number[] = [];
		let indexed: { files: number; ms: number } | undefined;
		while (!(indexed = indexLine(server.userDataDir)) || now() - lockAt < minWindowMs) {
			const t = now();
			await client.ping({ timeout: 60_000 });
			pings.push(now() - t);
			await sleep(20);
		}
		const memory = readProcMemory(hostPid);
		const cpuAtIndexed = readThreadCpuMs(hostPid);
		r.mainThreadCpuIndexingMs = cpuAtLock !== null && cpuAtIndexed !== null ? cpuAtIndexed - cpuAtLock : null;
		const indexing = await inspector.delay();
		r.phasesUs.indexed = await inspector.clockUs();
		r.indexingWindowMs = round(now() - lockAt); // lock file seen to index line seen
		r.heapAfterIndex = await inspector.memory();
		r.indexMs = indexed.ms;
		r.indexedFiles = indexed.files;
		r.rssAfterIndexMiB = mib(memory?.rssKiB);
		r.peakRssAfterIndexMiB = mib(memory?.hwmKiB);
		r.indexingDelay = indexing;
		r.pingWhileIndexing = pings.length ? summarize(pings) : null;
		const clickFailure = await pickerShown;
		if (clickFailure) throw clickFailure;
		await waitForWorkbench(page);
		// A control: the same host doing nothing of ours for 2 s, so the delays above can be told
		// from what the machine's load and the workbench's other extensions cause anyway.
		await inspector.delay();
		r.phasesUs.idle = await inspector.clockUs();
		await sleep(2000);
		r.idleDelay = await inspector.delay();
		r.phasesUs.warmup = await inspector.clockUs();

		for (let i = 0; i < 5; i++) await client.listResources(undefined, { timeout: 60_000 });
		const firstPage: number[] = [];
		for (let i = 0; i < 21; i++) {
			const t = now();
			await client.listResources(undefined, { timeout: 60_000 });
			firstPage.push(now() - t);
		}
		r.firstPageP50Ms = round(median(firstPage), 2);

		await inspector.delay();
		r.phasesUs.listing = await inspector.clockUs();
		const t = now();
		const cpuBeforeListing = readThreadCpuMs(hostPid);
		const listed = await listAll(client);
		r.fullListingMs = round(now() - t);
		const cpuAfterListing = readThreadCpuMs(hostPid);
		r.mainThreadCpuListingMs = cpuBeforeListing !== null && cpuAfterListing !== null ? cpuAfterListing - cpuBeforeListing : null;
		r.listingDelay = await inspector.delay();
		r.phasesUs.listed = await inspector.clockUs();
		r.listedFiles = listed.files;
		r.pages = listed.pages;
		if (listed.files !== expected) r.problem = `listed ${listed.files} files, expected ${expected}`;
		const after = readProcMemory(hostPid);
		r.rssAfterListingMiB = mib(after?.rssKiB);
		r.heapAfterListing = await inspector.memory();
		r.peakRssMiB = mib(after?.hwmKiB);
		if (switchRepo) {
			const phase = await measureHostSwitches(client, switchRepo, { delay: () => inspector.delay(), spikes: () => inspector.spikes(), clockUs: () => inspector.clockUs(), phasesUs: r.phasesUs, hostPid }, switchRounds);
			r.switches = phase.switches;
			r.switchControl = phase.control;
		}
		if (profileDir) {
			fs.mkdirSync(profileDir, { recursive: true });
			fs.writeFileSync(path.join(profileDir, `host-run${runIndex + 1}.cpuprofile`), JSON.stringify(await inspector.stopProfile()));
		}

		Object.assign(r, await measureScaleNotifyLatency(client, leafDir, { prefix: 'host-notify', settleMs: 1500 }));
	} catch (err) {
		r.error = errorText(err);
		log(`  !! ${r.error}`);
	} finally {
		await cleanups.run();
		mcpHome.remove();
	}
	return r;
}
