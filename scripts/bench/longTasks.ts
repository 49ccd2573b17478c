#!/usr/bin/env node
// The long tasks in a V8 CPU profile (a .cpuprofile, e.g. from BENCH_HOST_PROFILE=DIR npm run
// bench:host-scale): stretches of consecutive samples that are not "(idle)", i.e. times the
// process's event loop was held. For each stretch over --min ms (50): when it began (and in which
// phase, from the run's phasesUs in a host-scale result file, if given), how long it held the
// loop, whose code took its samples (profileOwners.ts: ours, VS Code's, another extension's,
// the garbage collector's), and the frames that did, by self time and by the nearest named caller.
// Then each phase's busy time by owner. A stretch is consecutive busy samples: it can span more
// than one turn of the event loop, and on a loaded machine it includes the time the thread waited
// for a core (its sample count says how much of it ran).
//
// node --import ./scripts/bootstrap/registerTypeScript.mjs scripts/bench/longTasks.ts PROFILE [--min 50] [--top 8] [--phases RESULT.json --run N [--phase NAME] [--spikes]]
// (--phase: only the stretches that began in that phase, e.g. indexing; --spikes: instead of
// stretches of busy samples, the loop holds the bench's timer measured in the branch switches
// and their control (hostInspector.ts's spike log): the samples of the hold's own time, so the
// owner of each delay over 20 ms is named, however many turns a busy stretch spans)
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { sampleOwner } from './profileOwners.js';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

const args = process.argv.slice(2);
const flag = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const file = args[0];
if (!file || file.startsWith('--')) throw new Error('usage: longTasks.ts PROFILE [--min MS] [--top N] [--phases RESULT.json --run N [--phase NAME]]');
const minMs = Number(flag('--min') ?? 50);
const top = Number(flag('--top') ?? 8);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
let phases: [string, number][] = [];
/** The timer's measured holds: when each ended (µs) and how long it was (ms). */
let spikes: [number, number][] = [];
const phasesFile = flag('--phases');
if (phasesFile) {
	type Spiked = { spikes?: [number, number][] };
	const run = (JSON.parse(readFileSync(phasesFile, 'utf8')) as { runs: { phasesUs?: Record<string, number | null>; switches?: Spiked[]; switchControl?: Spiked }[] }).runs[Number(flag('--run') ?? 1) - 1];
	phases = Object.entries(run?.phasesUs ?? {}).filter((e): e is [string, number] => typeof e[1] === 'number').sort((a, b) => a[1] - b[1]);
	spikes = [...(run?.switches ?? []), ...(run?.switchControl ? [run.switchControl] : [])].flatMap(s => s.spikes ?? []);
}
const phaseAt = (us: number) => phases.filter(([, t]) => t <= us).pop()?.[0] ?? 'start';

const byId = new Map(profile.nodes.map(n => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const frameName = (n: ProfileNode) => {
	const { functionName, url, lineNumber } = n.callFrame;
	return `${functionName || '(anonymous)'}${url ? ` ${path.basename(url)}:${lineNumber + 1}` : ''}`;
};
/** The sample's stack, leaf first, as frame names. */
const stackOf = (id: number) => {
	const names: string[] = [];
	for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
		const n = byId.get(at)!;
		if (n.callFrame.functionName !== '(root)') names.push(frameName(n));
	}
	return names;
};

/** The sample's stack, leaf first, as nodes. */
const nodesOf = (id: number) => {
	const nodes: ProfileNode[] = [];
	for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) nodes.push(byId.get(at)!);
	return nodes;
};
const ownerCache = new Map<number, string>();
const ownerOf = (id: number) => {
	let owner = ownerCache.get(id);
	if (owner === undefined) ownerCache.set(id, owner = sampleOwner(nodesOf(id)));
	return owner;
};
const ours = (n: ProfileNode) => sampleOwner([n]) === 'ours';

const times: number[] = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) { t += d; times.push(t); }
const isIdle = (id: number) => byId.get(id)?.callFrame.functionName === '(idle)';

interface Task { start: number; end: number; samples: number[] }
const tasks: Task[] = [];
let current: Task | undefined;
for (let i = 0; i < profile.samples.length; i++) {
	if (isIdle(profile.samples[i])) { current = undefined; continue; }
	if (!current) { current = { start: times[i], end: times[i], samples: [] }; tasks.push(current); }
	current.end = i + 1 < times.length ? times[i + 1] : times[i];
	current.samples.push(profile.samples[i]);
}
const onlyPhase = flag('--phase');
/** A measured hold as a task: the samples of its own time (the timer was due `ms` before it ran). */
const spikeTask = ([endUs, ms]: [number, number]): Task => {
	const start = endUs - ms * 1000;
	const samples = profile.samples.filter((id, i) => times[i] >= start && times[i] <= endUs && !isIdle(id));
	return { start, end: endUs, samples };
};
const long = (args.includes('--spikes') ? spikes.map(spikeTask) : tasks)
	.filter(k => (k.end - k.start) / 1000 >= minMs && (onlyPhase === undefined || phaseAt(k.start) === onlyPhase)).sort((a, b) => a.start - b.start);
const busyMs = (phase: string) => tasks.filter(k => phaseAt(k.start) === phase).reduce((s, k) => s + (k.end - k.start) / 1000, 0);
console.log(`${path.basename(file)}: ${tasks.length} tasks, ${long.length} of them ≥ ${minMs} ms; phases: ${phases.map(([p]) => `${p} (busy ${Math.round(busyMs(p))} ms)`).join(', ') || 'none given'}`);
const count = (keys: string[]) => {
	const m = new Map<string, number>();
	for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
	return [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
};
for (const task of long) {
	const n = Math.max(1, task.samples.length);
	const ms = (task.end - task.start) / 1000;
	console.log(`\n== ${Math.round(ms)} ms at +${Math.round((task.start - profile.startTime) / 1000)} ms (${phaseAt(task.start)}), ${n} samples`);
	const stacks = task.samples.map(stackOf);
	console.log('  owners:', count(task.samples.map(ownerOf)).map(([k, c]) => `${Math.round(100 * c / n)}% ${k}`).join(' | '));
	console.log('  self:', count(stacks.map(s => s[0] ?? '?')).map(([k, c]) => `${Math.round(100 * c / n)}% ${k}`).join(' | '));
	// The outermost frames say whose task it is: the first three below the event loop's own.
	console.log('  task:', count(stacks.map(s => s.slice(-4).reverse().join(' > '))).slice(0, 4).map(([k, c]) => `\n    ${Math.round(100 * c / n)}% ${k}`).join(''));
	// The nearest frame from our bundle (by its script's path: every extension's bundle is an extension.js), if any.
	console.log('  ours:', count(task.samples.map(id => { const f = nodesOf(id).find(ours); return f ? frameName(f) : '(none of ours)'; })).map(([k, c]) => `${Math.round(100 * c / n)}% ${k}`).join(' | '));
}
// Each phase's busy time by owner: what the machine's other work does not explain.
const busyByOwner = new Map<string, Map<string, number>>();
for (let i = 0; i + 1 < profile.samples.length; i++) {
	if (isIdle(profile.samples[i])) continue;
	const byOwner = busyByOwner.get(phaseAt(times[i])) ?? new Map<string, number>();
	busyByOwner.set(phaseAt(times[i]), byOwner);
	const owner = ownerOf(profile.samples[i]);
	byOwner.set(owner.startsWith('node:') ? 'node' : owner, (byOwner.get(owner.startsWith('node:') ? 'node' : owner) ?? 0) + (times[i + 1] - times[i]) / 1000);
}
console.log('\nbusy by owner (ms; "node" is Node internals whose caller the profile does not show):');
for (const [phase, byOwner] of busyByOwner) {
	console.log(`  ${phase}: ${[...byOwner].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms >= 1).map(([o, ms]) => `${o} ${Math.round(ms)}`).join(', ')}`);
}
