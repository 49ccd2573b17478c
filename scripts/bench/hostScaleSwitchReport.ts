// The host-scale bench's branch-switch table (BENCH_HOST_SWITCH=1): each metric's median and range
// over every switch of every window (there and back), beside the control windows of the same
// length without a checkout. Aims are reported, never asserted.
import type { HostScaleResults } from './hostScaleReport.js';
import type { HostSwitch, HostSwitchControl } from './hostScaleSwitch.js';
import { formatCell, medianOf, rangeOf } from './measurement.js';
import { SETTLE_CAP_MS, SUBSCRIBED } from './scaleSwitch.js';

type Row = [label: string, onSwitch: (s: HostSwitch) => number | null | undefined, onControl: ((c: HostSwitchControl) => number | null | undefined) | null, aim: string];

const ROWS: Row[] = [
	['git checkout (ms)', s => s.checkoutMs, null, ''],
	['window: checkout start to settled (ms)', s => s.windowMs, c => c.windowMs, ''],
	['event-loop delay p99 in the window (ms)', s => s.delay?.p99Ms, c => c.delay?.p99Ms, '<= 20'],
	['event-loop delay max in the window (ms)', s => s.delay?.maxMs, c => c.delay?.maxMs, '<= 50'],
	['event-loop holds over 20 ms in the window', s => s.spikes?.length, c => c.spikes?.length, ''],
	['extension host main thread CPU in the window (ms)', s => s.mainThreadCpuMs, c => c.mainThreadCpuMs, ''],
	['list_changed received', s => s.listChanged, null, ''],
	[`updated received (of ${SUBSCRIBED} subscribed changed files)`, s => s.updated, null, `= ${SUBSCRIBED}`],
	['last notification after checkout start (ms)', s => s.lastNotificationMs, null, ''],
	["branch's files missing from the listing once settled", s => s.missing, null, '= 0'],
	['files listed that the branch does not have', s => s.extra, null, '= 0'],
	['neighbours out of URI order in that listing', s => s.outOfOrder, null, '= 0'],
];

const cell = <T>(items: readonly T[], pick: ((item: T) => number | null | undefined) | null) => {
	if (!pick) return '';
	const range = rangeOf(items, pick);
	return `${formatCell(medianOf(items, pick))} (${range ? `${formatCell(range[0])}–${formatCell(range[1])}` : '—'})`;
};

export function printSwitchReport(results: HostScaleResults): void {
	const switches = results.runs.flatMap(r => r.switches ?? []);
	const controls = results.runs.flatMap(r => (r.switchControl ? [r.switchControl] : []));
	console.log(`\nbranch switch in the real extension host: ${results.params.switchChanged?.toLocaleString('en-US')} files changed, deleted or added in a git repository of ${results.params.files.toLocaleString('en-US')}, ${switches.length} switches (there and back, ${results.params.switchRounds ?? 1} round(s) per window) in ${controls.length} windows; median (range)`);
	console.log('| metric | switch | control: no checkout | aim |\n|---|---:|---:|---|');
	for (const [label, onSwitch, onControl, aim] of ROWS) console.log(`| ${label} | ${cell(switches, onSwitch)} | ${cell(controls, onControl)} | ${aim} |`);
	for (const [i, r] of results.runs.entries()) {
		for (const s of r.switches ?? []) {
			if (s.settledBy === 'cap') console.log(`problem (run ${i + 1}): the switch to ${s.to} did not settle within ${SETTLE_CAP_MS / 1000} s`);
			if (s.missing || s.extra) console.log(`problem (run ${i + 1}): after the switch to ${s.to} the listing lacked ${s.missing} of the branch's files and held ${s.extra} others (e.g. ${[...s.missingSample ?? [], ...s.extraSample ?? []].join(' ')})`);
		}
	}
}
