#!/usr/bin/env node
// npm run bench:profile: where the headless host spends CPU per read and per listing, per protocol
// era and transport. For each era it starts `serve --http` (or `--stdio`) under `node --cpu-prof`,
// lists everything once (the index is built), warms up, then times N reads one at a time and then
// --lists full listings, and reports for each of the two phases:
//   - server CPU per read / per listing (user + system from /proc, over the timed phase),
//   - the top self-time frames among the profile samples taken during the phase, by function and
//     by package.
// The server is a readable build of src/cli.ts (not minified, npm packages left external so each
// frame names its package), written to .cache/bench/profile/cli.js; --cli PATH profiles another.
//
// Flags: --files N (20000) --reads N (2000) --lists N (5) --top N (25) --era legacy|modern|both (both)
//        --transport http|stdio (http) --cli PATH
//        --in-flight N (1): reads kept in flight at once (8 shows the server under the 8-way bench load)
// KEEP_PROFILE=1 keeps each era's .cpuprofile (its path goes to stderr) for a look in DevTools.
// legacy = SDK v1 client (initialize, a session); modern = SDK v2 client pinned to 2026-07-28.
import { execFileSync } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { errorText } from '../lib/errorText.js';
import { OursHttp, OursStdio, runReads } from './contenders.js';
import { readCpuPerRead, readCpuStart } from './eras.js';
import { OursV2Http, OursV2Stdio } from './v2Contenders.js';
import { filterMaxListenersWarnings } from './measurement.js';
import { onInterrupt } from '../lib/processes.js';
import { ensureWorkspace } from './workspace.js';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { BENCH_WORKSPACES } from './workspaceHome.js';

interface ProfileOptions { files: number; reads: number; lists: number; top: number; era: string; transport: string; cli: string | null; inFlight: number }

function parseArgs(argv: readonly string[]): ProfileOptions {
	const opts: ProfileOptions = { files: 20_000, reads: 2000, lists: 5, top: 25, era: 'both', transport: 'http', cli: null, inFlight: 1 };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].includes('=') ? argv[i].split(/=(.*)/s, 2) : [argv[i], undefined];
		const value = () => inline ?? argv[++i];
		switch (flag) {
			case '--files': opts.files = Number(value()); break;
			case '--reads': opts.reads = Number(value()); break;
			case '--lists': opts.lists = Number(value()); break;
			case '--transport': opts.transport = value(); break;
			case '--top': opts.top = Number(value()); break;
			case '--era': opts.era = value(); break;
			case '--cli': opts.cli = path.resolve(value()); break;
			case '--in-flight': opts.inFlight = Number(value()); break;
			default: throw new Error(`unknown flag ${argv[i]} (flags: --files N --reads N --lists N --top N --era legacy|modern|both --transport http|stdio --cli PATH --in-flight N)`);
		}
	}
	if (!['legacy', 'modern', 'both'].includes(opts.era)) throw new Error('--era is legacy, modern or both');
	if (!['http', 'stdio'].includes(opts.transport)) throw new Error('--transport is http or stdio');
	for (const key of ['files', 'reads', 'lists', 'top', 'inFlight'] as const) {
		if (!Number.isInteger(opts[key]) || opts[key] < 1) throw new Error(`--${key.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`)} needs a positive integer`);
	}
	return opts;
}

/** src/cli.ts bundled without minifying and with npm packages external, so frames name their package. */
async function readableBuild(): Promise<string> {
	const { build } = await import('esbuild');
	const outfile = path.join(repoRoot, '.cache', 'bench', 'profile', 'cli.js');
	await build({ entryPoints: [path.join(repoRoot, 'src', 'cli.ts')], outfile, bundle: true, platform: 'node', target: 'node20', format: 'cjs', packages: 'external', keepNames: true, logLevel: 'silent' });
	return outfile;
}

type Contender = OursHttp | OursStdio;
type ContenderClass = new (opts: ConstructorParameters<typeof OursHttp>[0]) => Contender;

/** Adds `node --cpu-prof` to a contender's server command. */
function profiled(Base: ContenderClass, dir: string): ContenderClass {
	return class extends (Base as typeof OursStdio) {
		override nodeArgs(): string[] {
			return ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...super.nodeArgs()];
		}
	};
}

/** Monotonic microseconds, the clock V8 stamps profile samples with (CLOCK_MONOTONIC on Linux). */
const monoUs = () => Number(process.hrtime.bigint() / 1000n);

/** Self time per frame and per package among the samples taken in [fromUs, toUs]. */
/** A V8 CPU profile (.cpuprofile): the call tree, and which node each sample hit when. */
interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	samples: number[];
	timeDeltas: number[];
}
interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}

/** Self time per frame and per package, sorted: [name, µs] pairs. */
interface SelfTimes {
	totalMs: number;
	frames: [string, number][];
	packages: [string, number][];
	callers: Map<string, [string, number][]>;
}

function selfTimes(profileFile: string, fromUs: number, toUs: number, root: string): SelfTimes {
	const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
	const byId = new Map(profile.nodes.map(n => [n.id, n]));
	const parentOf = new Map<number, ProfileNode>();
	for (const n of profile.nodes) {
		for (const child of n.children ?? []) parentOf.set(child, n);
	}
	const where = (frame: ProfileNode['callFrame']) => (frame.url ? `${frame.url.replace(/^file:\/\//, '').replace(root, '.')}:${frame.lineNumber + 1}` : '');
	const frames = new Map<string, number>();
	const callers = new Map<string, Map<string, number>>();
	const packages = new Map<string, number>();
	let t = profile.startTime;
	let total = 0;
	for (let i = 0; i < profile.samples.length; i++) {
		t += profile.timeDeltas[i];
		if (t < fromUs || t > toUs) continue;
		const dt = profile.timeDeltas[i + 1] ?? 0; // a sample stands for the time until the next one
		const node = byId.get(profile.samples[i]);
		if (!node) continue;
		const { functionName } = node.callFrame;
		if (functionName === '(idle)') continue; // waiting for the next request is not CPU
		// A native frame (no script) is named with its nearest caller outside Node's own code, so
		// writeUtf8String says whether an SSE event, an HTTP header or a log line was written.
		let caller: ProfileNode | undefined = node;
		while (caller && (!caller.callFrame.url || caller.callFrame.url.startsWith('node:')) && parentOf.has(caller.id)) caller = parentOf.get(caller.id);
		const at = where(node.callFrame);
		const key = `${functionName || '(anonymous)'} ${at || (caller !== node && caller?.callFrame.url ? `<- ${caller.callFrame.functionName || '(anonymous)'} ${where(caller.callFrame)}` : '')}`;
		frames.set(key, (frames.get(key) ?? 0) + dt);
		// Who called it: the three nearest frames outside Node's own code above the caller.
		const chain: string[] = [];
		for (let up = caller ? parentOf.get(caller.id) : undefined; up && chain.length < 3; up = parentOf.get(up.id)) {
			if (up.callFrame.url && !up.callFrame.url.startsWith('node:')) chain.push(`${up.callFrame.functionName || '(anonymous)'}:${up.callFrame.lineNumber + 1}`);
		}
		const perCaller = callers.get(key) ?? new Map<string, number>();
		callers.set(key, perCaller);
		perCaller.set(chain.join(' <- '), (perCaller.get(chain.join(' <- ')) ?? 0) + dt);
		const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(at)?.[1] ?? (at.startsWith('node:') ? 'node:internal' : at ? 'ours' : functionName.startsWith('(') ? functionName : 'native');
		packages.set(pkg, (packages.get(pkg) ?? 0) + dt);
		total += dt;
	}
	const sorted = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]);
	return { totalMs: total / 1000, frames: sorted(frames), packages: sorted(packages), callers: new Map([...callers].map(([k, v]) => [k, sorted(v)])) };
}

/** One timed phase (the reads, or the full listings) and where its CPU went. */
interface PhaseProfile extends SelfTimes { phase: string; count: number; perSec: number; cpuPerItem: number | null; clientCpuPerItem: number; fromUs: number; toUs: number }

interface EraContext { root: string; home: string; cli: string; sample: string[]; lists: number; transport: string; inFlight: number }

function contenderClass(era: string, transport: string): ContenderClass {
	if (transport === 'stdio') return era === 'modern' ? OursV2Stdio : OursStdio;
	return era === 'modern' ? OursV2Http : OursHttp;
}

async function timedPhase(phase: string, count: number, pid: number | undefined, work: () => Promise<void>): Promise<Omit<PhaseProfile, keyof SelfTimes>> {
	// The bench client's own CPU (the SDK client: fetch, parsing) shares the 2 cores with the server.
	const cpu = readCpuStart(pid);
	const fromUs = monoUs();
	await work();
	const toUs = monoUs();
	const { serverUs, clientUs } = readCpuPerRead(cpu, pid, count);
	return { phase, count, perSec: (count * 1e6) / (toUs - fromUs), cpuPerItem: serverUs, clientCpuPerItem: clientUs ?? 0, fromUs, toUs };
}

async function profileEra(era: string, ctx: EraContext): Promise<PhaseProfile[]> {
	const dir = mkdtempSync(path.join(os.tmpdir(), `mcp-wr-profile-${era}-`));
	const Contender = profiled(contenderClass(era, ctx.transport), dir);
	const contender = new Contender({ repoRoot, root: ctx.root, home: ctx.home, cli: ctx.cli });
	const phases: Omit<PhaseProfile, keyof SelfTimes>[] = [];
	let pid: number | undefined;
	try {
		await contender.start();
		pid = contender.pid;
		await contender.enumerate(); // the index is built before anything is timed
		await runReads(ctx.sample.slice(0, 200), 1, (p: string) => contender.read(p));
		phases.push(await timedPhase('read', ctx.sample.length, contender.pid, async () => {
			const run = await runReads(ctx.sample, ctx.inFlight, (p: string) => contender.read(p));
			if (run.errors) throw new Error(`${run.errors} reads failed; first: ${run.firstError instanceof Error ? run.firstError.message : String(run.firstError)}`);
		}));
		phases.push(await timedPhase('full listing', ctx.lists, contender.pid, async () => {
			for (let i = 0; i < ctx.lists; i++) await contender.enumerate();
		}));
	} finally {
		await contender.close();
	}
	// The profile of the served process (the CLI may start others, e.g. a probe): CPU.<date>.<time>.<pid>.<n>.cpuprofile
	const file = readdirSync(dir).find(f => f.endsWith('.cpuprofile') && f.split('.')[3] === String(pid));
	if (!file) throw new Error(`${era}: the server wrote no profile (did it exit cleanly on SIGTERM?)`);
	const profiles = phases.map(p => ({ ...p, ...selfTimes(path.join(dir, file), p.fromUs, p.toUs, repoRoot) }));
	if (process.env.KEEP_PROFILE) process.stderr.write(`${era}: kept ${path.join(dir, file)}\n`);
	else rmSync(dir, { recursive: true, force: true });
	return profiles;
}

function report(era: string, transport: string, r: PhaseProfile, top: number, inFlight: number): string {
	const pct = (ms: number) => `${((ms / r.totalMs) * 100).toFixed(1)}%`;
	const lines = [
		`== ${era} era over ${transport}, ${r.count} × ${r.phase}${r.phase === 'read' ? `, ${inFlight} in flight` : ''}: ${r.perSec.toFixed(r.perSec < 100 ? 1 : 0)}/s, server CPU ${r.cpuPerItem ?? '?'} µs per ${r.phase} (/proc), bench client CPU ${r.clientCpuPerItem} µs, ${r.totalMs.toFixed(0)} ms of busy profile samples (${((r.totalMs * 1000) / r.count).toFixed(0)} µs per ${r.phase}, profiler overhead included)`,
		'  by package:',
		...r.packages.slice(0, 12).map(([name, us]) => `    ${(us / 1000).toFixed(1).padStart(8)} ms ${pct(us / 1000).padStart(6)}  ${name}`),
		`  top ${top} frames by self time:`,
		...r.frames.slice(0, top).flatMap(([name, us], i) => [
			`    ${(us / 1000).toFixed(1).padStart(8)} ms ${pct(us / 1000).padStart(6)}  ${name}`,
			// The ten heaviest frames also show their main callers.
			...(i < 10 ? (r.callers.get(name) ?? []).slice(0, 2).filter(([chain]) => chain).map(([chain, cus]) => `${' '.repeat(24)}${pct(cus / 1000).padStart(6)} from ${chain}`) : []),
		]),
	];
	return lines.join('\n');
}

async function main(): Promise<void> {
	const opts = parseArgs(process.argv.slice(2));
	onInterrupt();
	setMaxListeners(0); // the SDK v1 HTTP client hangs many listeners on one AbortSignal
	filterMaxListenersWarnings();
	const cacheDir = path.join(BENCH_WORKSPACES, 'bench');
	mkdirSync(cacheDir, { recursive: true });
	// The bench's own workspace (same files, binaries and seed), so a cached one is reused.
	const ws = await ensureWorkspace({ cacheDir, files: opts.files, binaries: 200, seed: 1, log: msg => process.stderr.write(`${msg}\n`) });
	const textPaths = ws.plan.text.map(e => path.join(ws.root, e.rel));
	const sample = Array.from({ length: opts.reads }, (_, i) => textPaths[(i * 7919) % textPaths.length]);
	const home = mkdtempSync(path.join(os.tmpdir(), 'mcp-wr-profile-home-'));
	const cli = opts.cli ?? await readableBuild();
	process.stderr.write(`profiling ${path.relative(repoRoot, cli)} on ${opts.files} files, ${opts.reads} reads per era (git ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot }).toString().trim()})\n`);
	try {
		for (const era of opts.era === 'both' ? ['legacy', 'modern'] : [opts.era]) {
			for (const phase of await profileEra(era, { root: ws.root, home, cli, sample, lists: opts.lists, transport: opts.transport, inFlight: opts.inFlight })) {
				process.stdout.write(`${report(era, opts.transport, phase, opts.top, opts.inFlight)}\n\n`);
			}
		}
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}

main().then(() => process.exit(0), err => {
	process.stderr.write(`bench:profile failed: ${errorText(err)}\n`);
	process.exit(1);
});
