// A branch switch at scale, for the scale bench (`npm run bench -- --scale`): a real git repository
// of 100,000 files (the same layout as the scale trees, kept under BENCH_WORKSPACES/scale/) whose
// `switch` branch changes, deletes and adds thousands of files; `git checkout` there and back while
// the headless host serves it, with a client subscribed to some of the changed files. Per switch:
// the server's event-loop delay from the checkout until the notifications settle, how many
// list_changed and updated arrived, when the last one came, and whether the listing then shows the
// branch's files exactly. Aims are reported, never asserted.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { formatCell, now, readThreadCpuMs, round, sleep } from './measurement.js';
import { ProbedServer } from './probedServer.js';
import { planScaleTree, SCALE_CACHE_DIR } from './scaleTree.js';
import { repoRoot } from '../bootstrap/repoRoot.mjs';

const run = promisify(execFile);
const SWITCH_REPO_VERSION = 1;
/** Changed files the client subscribes to: their `updated` is what an assistant watching them waits for. */
export const SUBSCRIBED = 20;
/** No list_changed for this long after the last one (and every subscribed file updated) = settled. */
const QUIET_MS = 2000;
export const SETTLE_CAP_MS = 60_000;

/** The repository: its root, and how many files a client should see on each branch. */
export interface SwitchRepo { root: string; files: number; changed: number; expected: Record<'main' | 'switch', number>; subscribed: string[]; reused: boolean }

/** One checkout while the server runs. */
export interface SwitchSample {
	to: 'switch' | 'main';
	checkoutMs: number;
	delayP99Ms?: number;
	delayMaxMs?: number;
	/** The server's main-thread CPU from the checkout until settled (Linux; what the switch cost it, not the wait). */
	mainThreadCpuMs?: number | null;
	listChanged: number;
	updated: number;
	lastNotificationMs: number | null;
	settledBy: 'quiet' | 'cap';
	listed: number;
	expected: number;
	error?: string;
}

/**
 * Makes (once) a repository of `files` files on `main` and a `switch` branch that rewrites every
 * n-th file, deletes as many again and adds a quarter of `changed` in new folders, through
 * `git fast-import` (one pack, no loose objects), then checks `main` out.
 */
export function prepareSwitchRepo(files: number, changed: number, log: (message: string) => void): SwitchRepo {
	const key = `git-${files}-${changed}-v${SWITCH_REPO_VERSION}`;
	const root = path.join(SCALE_CACHE_DIR, key);
	const manifestPath = path.join(SCALE_CACHE_DIR, `${key}.json`);
	const { dirs, fileName } = planScaleTree(files);
	const filePath = (i: number) => `${dirs[Math.floor(i / 50)]}/${fileName(i)}`;
	const rewrites = Math.floor(changed / 2);
	const deletes = Math.floor(changed / 4);
	const adds = changed - rewrites - deletes;
	const stride = Math.floor(files / rewrites);
	const rewritten = Array.from({ length: rewrites }, (_, k) => k * stride);
	const subscribed = rewritten.filter((_, k) => k % Math.floor(rewrites / SUBSCRIBED) === 0).slice(0, SUBSCRIBED).map(i => path.join(root, filePath(i)));
	const expected = { main: files + 1, switch: files + 1 - deletes + adds }; // + the root .gitignore
	if (existsSync(manifestPath) && existsSync(path.join(root, '.git'))) {
		const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { complete?: boolean };
		if (manifest.complete) {
			execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: root });
			return { root, files, changed, expected, subscribed, reused: true };
		}
	}
	log(`  generating a git repository of ${files.toLocaleString('en-US')} files under ${root} (kept for later runs)`);
	rmSync(root, { recursive: true, force: true });
	rmSync(manifestPath, { force: true });
	mkdirSync(root, { recursive: true });
	execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
	const chunks: string[] = [];
	const put = (file: string, text: string) => chunks.push(`M 100644 inline ${file}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
	const commit = (branch: string, message: string, from?: string) => chunks.push(`commit refs/heads/${branch}\nmark :${branch === 'main' ? 1 : 2}\ncommitter Bench <bench@example.invalid> 1767225600 +0000\ndata ${message.length}\n${message}\n${from ? `from ${from}\n` : ''}`);
	commit('main', 'main');
	put('.gitignore', 'build/\n*.log\n');
	for (let i = 0; i < files; i++) put(filePath(i), `// ${i}\nexport const value = ${i};\n`);
	commit('switch', 'switch', ':1');
	for (const i of rewritten) put(filePath(i), `// ${i} on the switch branch\nexport const value = ${-i};\n`);
	for (let k = 0; k < deletes; k++) chunks.push(`D ${filePath(k * stride + 1)}\n`);
	for (let k = 0; k < adds; k++) put(`apps/feature-${k % 40}/src/added-${k}.ts`, `export const added = ${k};\n`);
	execFileSync('git', ['fast-import', '--quiet'], { cwd: root, input: chunks.join(''), maxBuffer: 1 << 30 });
	execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: root });
	writeFileSync(manifestPath, JSON.stringify({ complete: true, files, changed, expected, version: SWITCH_REPO_VERSION, createdAt: new Date().toISOString() }, null, 2));
	return { root, files, changed, expected, subscribed, reused: false };
}

/** Serves the repository with one build, checks `switch` out and back, and measures each switch. */
export async function measureSwitches({ cli, repo, home }: { cli: string; repo: SwitchRepo; home: string }): Promise<SwitchSample[]> {
	const server = new ProbedServer({ repoRoot, root: repo.root, home, cli });
	const samples: SwitchSample[] = [];
	try {
		await server.start();
		while (!server.stderr.indexed) await Promise.race([server.stderr.changed(), sleep(50)]);
		const client = server.connectedClient;
		const received = new SwitchNotifications(client);
		const uris = repo.subscribed.map(file => pathToFileURL(file).href);
		for (const uri of uris) await client.subscribeResource({ uri });
		for (const to of ['switch', 'main'] as const) {
			await received.settle(() => true); // whatever came before is not this switch's
			received.reset();
			await server.probe();
			const cpuBefore = readThreadCpuMs(server.pid);
			const t0 = now();
			await run('git', ['checkout', '-q', to], { cwd: repo.root });
			const checkoutMs = now() - t0;
			const settledBy = await received.settle(() => received.updatedAll(uris));
			const delay = await server.probe();
			const cpuAfter = readThreadCpuMs(server.pid);
			const mainThreadCpuMs = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
			const lastNotificationMs = received.lastAfter(t0);
			const listed = (await server.enumerate(120_000)).files.length;
			samples.push({
				to, checkoutMs: round(checkoutMs), delayP99Ms: delay.delayP99Ms, delayMaxMs: delay.delayMaxMs, mainThreadCpuMs,
				listChanged: received.listChanged.length, updated: received.updated.size, lastNotificationMs,
				settledBy, listed, expected: repo.expected[to],
			});
		}
	} catch (err) {
		samples.push({ to: 'switch', checkoutMs: 0, listChanged: 0, updated: 0, lastNotificationMs: null, settledBy: 'cap', listed: 0, expected: 0, error: server.describeFailure(err) });
	} finally {
		await server.close().catch(() => {});
		// Leave the repository on main for the next build's run.
		execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: repo.root });
	}
	return samples;
}

/**
 * The list_changed and (first per URI) updated notifications a client receives, with when they came;
 * reset before each switch. Replaces the client's handlers for both.
 */
export class SwitchNotifications {
	listChanged: number[] = [];
	updated = new Map<string, number>();

	constructor(client: Pick<Client, 'setNotificationHandler'>) {
		client.setNotificationHandler(ResourceListChangedNotificationSchema, () => { this.listChanged.push(now()); });
		client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => { if (!this.updated.has(n.params.uri)) this.updated.set(n.params.uri, now()); });
	}

	reset(): void {
		this.listChanged = [];
		this.updated = new Map();
	}

	updatedAll(uris: readonly string[]): boolean {
		return uris.every(uri => this.updated.has(uri));
	}

	/** When the last notification came, in ms after `t0`, or null if none came. */
	lastAfter(t0: number): number | null {
		const last = Math.max(...this.listChanged, ...this.updated.values());
		return Number.isFinite(last) ? round(last - t0) : null;
	}

	/** Waits until no list_changed came for QUIET_MS and `done()` holds, or SETTLE_CAP_MS passed. */
	async settle(done: () => boolean): Promise<'quiet' | 'cap'> {
		const start = now();
		for (;;) {
			const times = this.listChanged;
			const lastAt = times.length ? times[times.length - 1] : start;
			if (done() && now() - lastAt >= QUIET_MS) return 'quiet';
			if (now() - start > SETTLE_CAP_MS) return 'cap';
			await sleep(100);
		}
	}
}

/** Every build's switches, alternating builds within a rep like the rest of the scale bench. */
export interface SwitchResults { files: number; changed: number; subscribed: number; byBuild: Record<string, SwitchSample[]> }

export async function runSwitchBench({ builds, reps, files, changed, home, log }: { builds: Record<string, string>; reps: number; files: number; changed: number; home: string; log(message: string): void }): Promise<SwitchResults> {
	log(`\n== scale: a branch switch of ${changed.toLocaleString('en-US')} files in a git repository of ${files.toLocaleString('en-US')}`);
	const repo = prepareSwitchRepo(files, changed, log);
	const byBuild: Record<string, SwitchSample[]> = Object.fromEntries(Object.keys(builds).map(b => [b, []]));
	for (let rep = 0; rep < reps; rep++) {
		for (const [name, cli] of Object.entries(builds)) {
			const samples = await measureSwitches({ cli, repo, home });
			byBuild[name].push(...samples);
			for (const s of samples) log(`  ${name} #${rep + 1} to ${s.to}: checkout ${s.checkoutMs} ms, delay p99 ${s.delayP99Ms} / max ${s.delayMaxMs} ms, main-thread CPU ${s.mainThreadCpuMs} ms, ${s.listChanged} list_changed, ${s.updated}/${SUBSCRIBED} updated, last after ${s.lastNotificationMs} ms, listed ${s.listed}/${s.expected}${s.settledBy === 'cap' ? ' (did not settle)' : ''}${s.error ? ` ERROR ${s.error}` : ''}`);
		}
	}
	return { files, changed, subscribed: SUBSCRIBED, byBuild };
}

/** The switch rows of the scale table: ranges over every switch of a build. */
export function switchTable(results: SwitchResults): string {
	const builds = Object.keys(results.byBuild);
	const range = (b: string, pick: (s: SwitchSample) => number | null | undefined) => {
		const values = results.byBuild[b].map(pick).filter((v): v is number => typeof v === 'number');
		return values.length ? `${formatCell(Math.min(...values))}-${formatCell(Math.max(...values))}` : '—';
	};
	const rows: [string, (s: SwitchSample) => number | null | undefined, string?][] = [
		['git checkout (ms)', s => s.checkoutMs],
		['event-loop delay p99, checkout to settled (ms)', s => s.delayP99Ms, '<= 20'],
		['event-loop delay max, checkout to settled (ms)', s => s.delayMaxMs, '<= 50'],
		['server main-thread CPU, checkout to settled (ms)', s => s.mainThreadCpuMs],
		['list_changed received', s => s.listChanged],
		[`updated received (of ${results.subscribed} subscribed changed files)`, s => s.updated, `= ${results.subscribed}`],
		['last notification after checkout start (ms)', s => s.lastNotificationMs],
		['files listed once settled, minus expected', s => s.listed - s.expected, '= 0'],
	];
	const lines = ['', `branch switch: ${results.changed.toLocaleString('en-US')} files changed, deleted or added, in a git repository of ${results.files.toLocaleString('en-US')} (ranges over every switch, there and back)`,
		`| metric | ${builds.join(' | ')} | aim |`, `|---|${builds.map(() => '---:|').join('')}---|`];
	for (const [label, pick, aim] of rows) lines.push(`| ${label} | ${builds.map(b => range(b, pick)).join(' | ')} | ${aim ?? ''} |`);
	for (const b of builds) {
		for (const s of results.byBuild[b]) {
			if (s.error) lines.push(`problem (${b}): ${s.error}`);
			else if (s.settledBy === 'cap') lines.push(`problem (${b}): the switch to ${s.to} did not settle within ${SETTLE_CAP_MS / 1000} s`);
		}
	}
	return lines.join('\n');
}
