// The host-scale bench's table: each metric's median and range over the cold windows, then what
// went wrong in any of them. Aims are reported, never asserted.
import * as path from 'node:path';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import type { HostRun } from './hostScaleResult.js';
import { formatCell, medianOf, rangeOf } from './measurement.js';

/** What a result file holds. */
export interface HostScaleResults {
	startedAt: string;
	params: { files: number; runs: number; inspector: boolean; minWindowMs: number; settings: Record<string, unknown>; switchChanged?: number; switchRounds?: number; showPicker?: boolean };
	env: { cpus: string; loadAvgAtStart: number[]; loadAvgAtEnd?: number[] };
	runs: HostRun[];
}

const ROWS: [string, (r: HostRun) => number | null | undefined, string][] = [
	['index (extension log line)', r => r.indexMs, 'ms'],
	['extension host RSS when the server started', r => r.rssAtLockMiB, 'MiB'],
	['extension host RSS after indexing', r => r.rssAfterIndexMiB, 'MiB'],
	['extension host JS heap used after indexing', r => r.heapAfterIndex?.heapUsedMiB, 'MiB'],
	['extension host RSS after full listing', r => r.rssAfterListingMiB, 'MiB'],
	['extension host peak RSS (VmHWM)', r => r.peakRssMiB, 'MiB'],
	['extension host main thread CPU while indexing', r => r.mainThreadCpuIndexingMs, 'ms'],
	['extension host main thread CPU during the full listing', r => r.mainThreadCpuListingMs, 'ms'],
	['event-loop delay while indexing p99', r => r.indexingDelay?.p99Ms, 'ms'],
	['event-loop delay while indexing max', r => r.indexingDelay?.maxMs, 'ms'],
	['event-loop delay idle for 2 s after indexing, p99', r => r.idleDelay?.p99Ms, 'ms'],
	['event-loop delay idle for 2 s after indexing, max', r => r.idleDelay?.maxMs, 'ms'],
	['ping while indexing p99', r => r.pingWhileIndexing?.p99, 'ms'],
	['ping while indexing max', r => r.pingWhileIndexing?.max, 'ms'],
	['first page p50', r => r.firstPageP50Ms, 'ms'],
	['full listing', r => r.fullListingMs, 'ms'],
	['event-loop delay while listing p99', r => r.listingDelay?.p99Ms, 'ms'],
	['event-loop delay while listing max', r => r.listingDelay?.maxMs, 'ms'],
	['list_changed after a create p50', r => r.listChangedP50Ms, 'ms'],
	['updated after a change p50', r => r.updatedP50Ms, 'ms'],
];

/** Prints the table (Markdown) and the problems, and where the result file was written. */
export function printReport(results: HostScaleResults, expected: number, file: string): void {
	const { files, runs, minWindowMs, settings, showPicker } = results.params;
	const ok = results.runs.filter(r => !r.error);
	console.log(`\nscale in the real extension host (code-server, packaged extension): ${files.toLocaleString('en-US')} files (${expected.toLocaleString('en-US')} served), ${ok.length} of ${runs} cold windows; load average ${results.env.loadAvgAtStart.join(' ')} at start, ${results.env.loadAvgAtEnd?.join(' ')} at end${minWindowMs ? `; indexing windows of at least ${minWindowMs} ms` : ''}${Object.keys(settings).length ? `; user settings ${JSON.stringify(settings)}` : ''}${showPicker ? '; the picker\'s view opened as the server started' : ''}`);
	console.log('| metric | median | range |\n|---|---:|---|');
	for (const [label, pick, unit] of ROWS) {
		const range = rangeOf(ok, pick);
		console.log(`| ${label} (${unit}) | ${formatCell(medianOf(ok, pick))} | ${range ? `${formatCell(range[0])}–${formatCell(range[1])}` : '—'} |`);
	}
	for (const [i, r] of results.runs.entries()) {
		for (const p of [r.problem, r.error, r.indexedBeforeLock ? 'the index line was already there when the lock file appeared: the indexing window was missed' : undefined,
			r.listChangedTimeouts ? `${r.listChangedTimeouts} list_changed did not arrive within 10 s of a create` : undefined,
			r.updatedTimeouts ? `${r.updatedTimeouts} updated did not arrive within 10 s of a change` : undefined].filter((p): p is string => !!p)) {
			console.log(`problem (run ${i + 1}): ${p}`);
		}
	}
	console.log(`\nwritten: ${path.relative(repoRoot, file)}`);
}
