// The branch-switch phase of the host-scale bench (BENCH_HOST_SWITCH=1): in the window opened on
// scaleSwitch.ts's git repository, `git checkout switch` and back while the bench's MCP client is
// subscribed to 20 of the changed files. The files reach our index through VS Code's file watcher
// and the git state through the built-in vscode.git extension, which reacts to the checkout in the
// same extension host: the real situation. Per switch: the extension host's event-loop delay and
// main-thread CPU from the checkout until the notifications settle (scaleSwitch.ts's rule), the
// notifications received and when the last came, and whether a full listing then holds exactly the
// branch's files (`git ls-files`). Then a control: a window as long as the longer switch with no
// checkout, so the editor's own share of the delays can be told from the switch's.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { DelaySpike, LoopDelay } from './hostInspector.js';
import { listAll } from './hostScaleClient.js';
import { now, readThreadCpuMs, round, sleep } from './measurement.js';
import { SwitchNotifications, type SwitchRepo } from './scaleSwitch.js';

const run = promisify(execFile);

/** One checkout in the editor. */
export interface HostSwitch {
	to: 'switch' | 'main';
	checkoutMs: number;
	/** Checkout start to settled. */
	windowMs: number;
	delay: LoopDelay | null;
	/** The holds over 20 ms in the window, for longTasks.ts --spikes to name their owners. */
	spikes: DelaySpike[];
	mainThreadCpuMs: number | null;
	listChanged: number;
	updated: number;
	lastNotificationMs: number | null;
	settledBy: 'quiet' | 'cap';
	listed: number;
	/** Files of the branch the listing lacked, and files it held that the branch does not. */
	missing: number;
	extra: number;
	/** A few of the missing and extra URIs, to tell a lost directory from scattered files. */
	missingSample: string[];
	extraSample: string[];
	/** Neighbours in the listing not in strictly increasing URI order. */
	outOfOrder: number;
}

/** The same length of window with no checkout. */
export interface HostSwitchControl { windowMs: number; delay: LoopDelay | null; spikes: DelaySpike[]; mainThreadCpuMs: number | null }

/** What the phase needs of the window: the inspector's reads, and where to stamp the phases. */
export interface SwitchProbe {
	delay(): Promise<LoopDelay | null>;
	spikes(): Promise<DelaySpike[]>;
	clockUs(): Promise<number | null>;
	phasesUs: Record<string, number | null>;
	hostPid: number;
}

const cpuSince = (pid: number, before: number | null) => {
	const after = readThreadCpuMs(pid);
	return before !== null && after !== null ? after - before : null;
};

/** The file URIs of a branch's tracked files, as the server names them. */
async function branchUris(root: string): Promise<Set<string>> {
	const { stdout } = await run('git', ['ls-files', '-z'], { cwd: root, maxBuffer: 1 << 28 });
	return new Set(stdout.split('\0').filter(Boolean).map(file => pathToFileURL(path.join(root, file)).href));
}

/** One checkout: from its start until the notifications settle, then a full listing. */
async function oneSwitch(to: HostSwitch['to'], roundIndex: number, client: Client, repo: SwitchRepo, probe: SwitchProbe, received: SwitchNotifications, uris: readonly string[]): Promise<HostSwitch> {
	await received.settle(() => true); // whatever came before is not this switch's
	received.reset();
	await probe.delay();
	await probe.spikes();
	const phase = `switch-to-${to}${roundIndex > 0 ? `-${roundIndex + 1}` : ''}`;
	probe.phasesUs[phase] = await probe.clockUs();
	const cpuBefore = readThreadCpuMs(probe.hostPid);
	const t0 = now();
	await run('git', ['checkout', '-q', to], { cwd: repo.root });
	const checkoutMs = now() - t0;
	const settledBy = await received.settle(() => received.updatedAll(uris));
	const windowMs = now() - t0;
	const delay = await probe.delay();
	const spikes = await probe.spikes();
	const mainThreadCpuMs = cpuSince(probe.hostPid, cpuBefore);
	const lastNotificationMs = received.lastAfter(t0);
	probe.phasesUs[`${phase}-listing`] = await probe.clockUs();
	const listed = await listAll(client, { uris: true });
	const branch = await branchUris(repo.root);
	const seen = new Set(listed.uris);
	// The listing is in URI order; a pair out of order (or a URI twice) would point at the index's
	// order rather than at lost watcher events.
	const outOfOrder = listed.uris.filter((uri, i) => i > 0 && !(listed.uris[i - 1] < uri)).length;
	const missing = [...branch].filter(uri => !seen.has(uri));
	const extra = [...seen].filter(uri => !branch.has(uri));
	return {
		to, checkoutMs: round(checkoutMs), windowMs: round(windowMs), delay, spikes, mainThreadCpuMs,
		listChanged: received.listChanged.length, updated: received.updated.size, lastNotificationMs, settledBy,
		listed: listed.files, missing: missing.length, extra: extra.length, missingSample: missing.slice(0, 5), extraSample: extra.slice(0, 5), outOfOrder,
	};
}

/** `switch` and back to `main`, `rounds` times, then the control window. */
export async function measureHostSwitches(client: Client, repo: SwitchRepo, probe: SwitchProbe, rounds = 1): Promise<{ switches: HostSwitch[]; control: HostSwitchControl }> {
	const received = new SwitchNotifications(client);
	const uris = repo.subscribed.map(file => pathToFileURL(file).href);
	for (const uri of uris) await client.subscribeResource({ uri });
	const switches: HostSwitch[] = [];
	try {
		for (let r = 0; r < rounds; r++) {
			for (const to of ['switch', 'main'] as const) switches.push(await oneSwitch(to, r, client, repo, probe, received, uris));
		}
	} finally {
		// Leave the shared repository on main whatever happened, for the next window.
		await run('git', ['checkout', '-q', '-f', 'main'], { cwd: repo.root });
	}
	await received.settle(() => true);
	const windowMs = Math.max(...switches.map(s => s.windowMs));
	await probe.delay();
	await probe.spikes();
	probe.phasesUs['switch-control'] = await probe.clockUs();
	const cpuBefore = readThreadCpuMs(probe.hostPid);
	await sleep(windowMs);
	const control = { windowMs, delay: await probe.delay(), spikes: await probe.spikes(), mainThreadCpuMs: cpuSince(probe.hostPid, cpuBefore) };
	probe.phasesUs['switch-end'] = await probe.clockUs();
	return { switches, control };
}
