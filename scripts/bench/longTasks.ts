// Whose code held the extension host's event loop, from a V8 CPU profile of a window (the scale
// section's --editor --profile DIR): each stretch of busy samples over `minMs`, and each hold the
// window's timer measured (a branch switch's), named by the owners of its samples
// (profileOwners.ts: ours, VS Code's, another extension's, the garbage collector's), then every
// phase's busy time by owner. A stretch of busy samples can span more than one turn of the loop,
// and on a loaded machine it includes time the thread waited for a core.
import type { DelaySpike } from './hostInspector.js';
import { sampleOwner, type OwnedFrame } from './profileOwners.js';

interface ProfileNode extends OwnedFrame { id: number; children?: number[] }
/** A V8 CPU profile (.cpuprofile). */
export interface CpuProfile { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] }

/** A stretch of the profile: when it began and ended (µs, the profile's clock) and the busy samples in it. */
interface Stretch { start: number; end: number; samples: number[] }

/** The long stretches and the measured holds of one profile, with their owners, as text lines. */
export function longTasks(profile: CpuProfile, { phasesUs = {}, spikes = [], minMs = 50 }: { phasesUs?: Record<string, number | null>; spikes?: readonly DelaySpike[]; minMs?: number }): string[] {
	const byId = new Map(profile.nodes.map(n => [n.id, n]));
	const parent = new Map<number, number>();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const owners = new Map<number, string>();
	const ownerOf = (id: number) => {
		let owner = owners.get(id);
		if (owner === undefined) {
			const stack: ProfileNode[] = [];
			for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at) as ProfileNode);
			owners.set(id, owner = sampleOwner(stack));
		}
		return owner.startsWith('node:') ? 'node' : owner;
	};
	const phases = Object.entries(phasesUs).filter((e): e is [string, number] => typeof e[1] === 'number').sort((a, b) => a[1] - b[1]);
	const phaseAt = (us: number) => phases.filter(([, t]) => t <= us).pop()?.[0] ?? 'start';
	const times: number[] = [];
	let t = profile.startTime;
	for (const d of profile.timeDeltas) times.push(t += d);
	const idle = (id: number) => byId.get(id)?.callFrame.functionName === '(idle)';

	const stretches: Stretch[] = [];
	let current: Stretch | undefined;
	for (let i = 0; i < profile.samples.length; i++) {
		if (idle(profile.samples[i])) {
			current = undefined;
			continue;
		}
		if (!current) stretches.push(current = { start: times[i], end: times[i], samples: [] });
		current.end = times[i + 1] ?? times[i];
		current.samples.push(profile.samples[i]);
	}
	const held = spikes.map(([endUs, ms]): Stretch => {
		const start = endUs - ms * 1000;
		return { start, end: endUs, samples: profile.samples.filter((id, i) => times[i] >= start && times[i] <= endUs && !idle(id)) };
	});
	const describe = (kind: string, s: Stretch) => {
		const counts = new Map<string, number>();
		for (const id of s.samples) counts.set(ownerOf(id), (counts.get(ownerOf(id)) ?? 0) + 1);
		const shares = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([o, n]) => `${Math.round((100 * n) / s.samples.length)}% ${o}`);
		return `  ${kind} ${Math.round((s.end - s.start) / 1000)} ms at +${Math.round((s.start - profile.startTime) / 1000)} ms (${phaseAt(s.start)}): ${shares.join(', ') || 'no samples (waiting for a core)'}`;
	};
	const lines = [
		...stretches.filter(s => (s.end - s.start) / 1000 >= minMs).map(s => describe('busy', s)),
		...held.filter(s => (s.end - s.start) / 1000 >= minMs).map(s => describe('held', s)),
	];
	const busy = new Map<string, Map<string, number>>();
	for (let i = 0; i + 1 < profile.samples.length; i++) {
		if (idle(profile.samples[i])) continue;
		const byOwner = busy.get(phaseAt(times[i])) ?? new Map<string, number>();
		busy.set(phaseAt(times[i]), byOwner);
		byOwner.set(ownerOf(profile.samples[i]), (byOwner.get(ownerOf(profile.samples[i])) ?? 0) + (times[i + 1] - times[i]) / 1000);
	}
	lines.push('  busy by owner (ms; "node": Node internals whose caller the profile does not show):');
	for (const [phase, byOwner] of busy) {
		lines.push(`    ${phase}: ${[...byOwner].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms >= 1).map(([o, ms]) => `${o} ${Math.round(ms)}`).join(', ')}`);
	}
	return lines;
}
