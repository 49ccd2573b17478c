// The profile section (`--section profile`): where the server's CPU goes per read and per full
// listing, in each era. The server runs under `node --cpu-prof`; the index is built (one listing),
// reads are warmed up, then --reads reads (--in-flight at a time) and --lists full listings are
// timed, and for each of the two phases the section reports the server CPU per item (/proc) and
// the top self-time frames among the profile's samples in that phase, by function and by package.
// The server is a readable build of src/cli.ts (not minified, npm packages left external so each
// frame names its package), unless --cli names another. --keep-profile keeps the .cpuprofile files.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { Contender, ERAS, type Era, type Transport } from './contenders.js';
import { cpuMark, cpuPerItem, timeEach } from './measurement.js';
import type { SectionContext, SectionReport } from './section.js';
import { ensureWorkspace, seededOrder } from './workspace.js';

/** src/cli.ts bundled without minifying and with npm packages external, so frames name their package. */
async function readableBuild(): Promise<string> {
	const outfile = path.join(repoRoot, '.cache', 'bench', 'profile', 'cli.js');
	await build({ entryPoints: [path.join(repoRoot, 'src', 'cli.ts')], outfile, bundle: true, platform: 'node', target: 'node20', format: 'cjs', packages: 'external', keepNames: true, logLevel: 'silent' });
	return outfile;
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

async function timedPhase(phase: string, count: number, pid: number | undefined, work: () => Promise<void>): Promise<Omit<PhaseProfile, keyof SelfTimes>> {
	// The bench client's own CPU (the SDK client: fetch, parsing) shares the cores with the server.
	const mark = cpuMark(pid);
	const fromUs = monoUs();
	await work();
	const toUs = monoUs();
	const { serverUs, clientUs } = cpuPerItem(mark, pid, count);
	return { phase, count, perSec: (count * 1e6) / (toUs - fromUs), cpuPerItem: serverUs, clientCpuPerItem: clientUs ?? 0, fromUs, toUs };
}

async function profileEra(era: Era, transport: Transport, cli: string, root: string, home: string, sample: readonly string[], lists: number, inFlight: number, keep: boolean, log: (m: string) => void): Promise<PhaseProfile[]> {
	const dir = mkdtempSync(path.join(os.tmpdir(), `mcpwr-profile-${era}-`));
	const contender = new Contender(`profile ${era}`, { cli, root, home, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] }, transport, era);
	const phases: Omit<PhaseProfile, keyof SelfTimes>[] = [];
	try {
		await contender.start();
		await contender.enumerate(); // the index is built before anything is timed
		await timeEach(sample.slice(0, 200), 1, p => contender.read(p));
		phases.push(await timedPhase('read', sample.length, contender.pid, async () => {
			const run = await timeEach(sample, inFlight, p => contender.read(p));
			if (run.errors) throw new Error(`${run.errors} reads failed; first: ${run.firstError instanceof Error ? run.firstError.message : String(run.firstError)}`);
		}));
		phases.push(await timedPhase('full listing', lists, contender.pid, async () => {
			for (let i = 0; i < lists; i++) await contender.enumerate();
		}));
	} finally {
		await contender.close();
	}
	// The served process's profile (the CLI may start others): CPU.<date>.<time>.<pid>.<n>.cpuprofile
	const file = readdirSync(dir).find(f => f.endsWith('.cpuprofile') && f.split('.')[3] === String(contender.pid));
	if (!file) throw new Error(`${era}: the server wrote no profile (did it exit cleanly?)`);
	const profiles = phases.map(p => ({ ...p, ...selfTimes(path.join(dir, file), p.fromUs, p.toUs, repoRoot) }));
	if (keep) log(`${era}: kept ${path.join(dir, file)}`);
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

/** The profile section: `npm run bench -- --section profile`. */
export async function runProfile(ctx: SectionContext): Promise<SectionReport> {
	const { flags, quick, log } = ctx;
	const files = flags.number('--files', quick ? 2000 : 20_000, 1);
	const reads = flags.number('--reads', quick ? 300 : 2000, 1);
	const lists = flags.number('--lists', quick ? 1 : 5, 1);
	const top = flags.number('--top', 25, 1);
	const inFlight = flags.number('--in-flight', 1, 1);
	const transport = flags.choice<Transport>('--transport', ['stdio', 'http'], 'http');
	const eras = flags.has('--era') ? [flags.choice<Era>('--era', ERAS, '2025')] : ERAS;
	const ws = await ensureWorkspace({ files, binaries: quick ? 20 : 200, seed: 1, log });
	const { sample } = seededOrder(ws, 1, reads);
	const cli = flags.has('--cli') ? ctx.cli : await readableBuild();
	const text: string[] = [];
	const results: Record<string, unknown> = {};
	for (const era of eras) {
		log(`\n== profile: ${era} over ${transport}, ${path.relative(repoRoot, cli)}`);
		const phases = await profileEra(era, transport, cli, ws.root, ctx.home, sample, lists, inFlight, flags.has('--keep-profile'), log);
		results[era] = phases.map(p => ({ ...p, callers: undefined, frames: p.frames.slice(0, top), packages: p.packages.slice(0, 12) }));
		for (const phase of phases) text.push(report(era, transport, phase, top, inFlight), '');
	}
	return { results, text: text.join('\n').trimEnd() };
}
