#!/usr/bin/env node
// Measures the picker on a 100,000-file workspace served by the headless host:
// first tree level after opening (connect + first page + render the root's children),
// full listing (page by page), expanding a 5,000-entry folder, filter times, and the heap the
// picker holds. Needs `npm run build` (dist/cli.js) and `npm run compile-tests` (out/src).
// `npm run bench:picker` runs it with --expose-gc, for the heap figure.
//
// Env: BENCH_PICKER_FILES (default 100000), BENCH_PICKER_RUNS (default 3).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { startHeadlessHost, type HeadlessHost } from '../lib/headlessHost.js';
import { middle as median } from './measurement.js';
import { BIG_FOLDER_SIZE, makePickerWorkspace } from './pickerWorkspace.js';
import { repoRoot as root } from '../bootstrap/repoRoot.mjs';

const require = createRequire(import.meta.url);
const FILES = Number(process.env.BENCH_PICKER_FILES ?? 100_000);
const RUNS = Number(process.env.BENCH_PICKER_RUNS ?? 3);
const BIG = BIG_FOLDER_SIZE;

for (const needed of ['dist/cli.js', 'out/src/picker/pickerService.js']) {
	if (!fs.existsSync(path.join(root, needed))) {
		console.error(`missing ${needed}: run \`npm run build && npm run compile-tests\` first`);
		process.exit(1);
	}
}
// The picker's own modules as tsc compiled them (the bench measures them, not a bundle).
const { ServerConnection } = require(path.join(root, 'out/src/picker/serverConnection.js')) as typeof import('../../src/picker/serverConnection.js');
const { ResourceListing } = require(path.join(root, 'out/src/picker/resourceListing.js')) as typeof import('../../src/picker/resourceListing.js');
const { CHILD_PAGE } = require(path.join(root, 'out/src/picker/pickerViewModel.js')) as typeof import('../../src/picker/pickerViewModel.js');
const { nullLogger } = require(path.join(root, 'out/src/common/logger.js')) as typeof import('../../src/common/logger.js');

const heap = () => {
	globalThis.gc?.();
	globalThis.gc?.();
	return process.memoryUsage().heapUsed;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

interface PickerRun {
	firstLevel: number;
	firstLevelCount: number;
	all: number;
	loaded: number;
	expand: number;
	bigShown: number;
	filters: Record<string, { ms: number; total: number }>;
	heapHeld: number;
}

async function once(info: HeadlessHost, measureHeap: boolean): Promise<PickerRun> {
	const heapBefore = measureHeap ? heap() : 0;
	const started = performance.now();
	const connection = new ServerConnection('bench', 'Bench', {
		resolve: async () => ({ kind: 'http', url: info.url, headers: { Authorization: `Bearer ${info.token}` } }),
	}, { log: nullLogger });
	const resources = new ResourceListing(connection);
	let firstLevel: number | undefined;
	let firstLevelCount = 0;
	const sub = resources.onDidChange(() => {
		if (firstLevel === undefined && resources.size > 0) {
			firstLevelCount = resources.children(resources.filesRoot).length;
			firstLevel = performance.now() - started;
		}
	});
	await resources.load();
	const all = performance.now() - started;
	sub.dispose();

	const big = resources.folder('bench|d|big');
	if (!big) {
		throw new Error('the picker tree has no big/ folder');
	}
	let t = performance.now();
	// The listing sorts the whole folder; the view model shows its first page and "Load more…".
	const bigChildren = resources.children(big).slice(0, CHILD_PAGE);
	const expand = performance.now() - t;

	const filters: PickerRun['filters'] = {};
	for (const q of ['entry-4999', 'file042', 'pkg07 mod3', 'fl99', 'ts']) {
		t = performance.now();
		const r = resources.search(q, 200);
		filters[q] = { ms: performance.now() - t, total: r.total };
	}
	const heapHeld = measureHeap ? heap() - heapBefore : 0;
	const result = { firstLevel: firstLevel ?? Number.NaN, firstLevelCount, all, loaded: resources.size, expand, bigShown: bigChildren.length, filters, heapHeld };
	resources.dispose();
	connection.dispose();
	return result;
}

const dir = makePickerWorkspace(FILES);
const server = await startHeadlessHost({ root: dir });
try {
	// The first run also measures the heap (from a clean process); its timings include the
	// server's first index build, so they are not counted.
	const baseline = heap();
	const first = await once(server, true);
	const runs: PickerRun[] = [];
	for (let i = 0; i < RUNS; i++) {
		runs.push(await once(server, false));
	}
	await new Promise(resolve => setTimeout(resolve, 1000));
	const afterDispose = heap() - baseline;
	const last = runs[runs.length - 1] ?? first;
	console.log(`picker bench: ${last.loaded.toLocaleString('en-US')} resources over Streamable HTTP (pages of 1,000), median of ${RUNS} runs, Node ${process.version}`);
	console.log(`  first tree level visible (connect + first page + root children): ${ms(median(runs.map(r => r.firstLevel)))} (${last.firstLevelCount} rows)`);
	console.log(`  every page loaded and merged:                                   ${ms(median(runs.map(r => r.all)))}`);
	console.log(`  expand a ${BIG.toLocaleString('en-US')}-entry folder (sort + first page of rows):      ${ms(median(runs.map(r => r.expand)))} (${last.bigShown} rows shown before "Load more…")`);
	for (const q of Object.keys(last.filters)) {
		console.log(`  filter "${q}": ${ms(median(runs.map(r => r.filters[q].ms)))} (${last.filters[q].total.toLocaleString('en-US')} matches, best 200 kept)`);
	}
	const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
	console.log(`  heap held by the picker (connection + model + filter index) for ${first.loaded.toLocaleString('en-US')} resources: ${globalThis.gc ? mb(first.heapHeld) : 'run with --expose-gc'}`);
	if (globalThis.gc) {
		console.log(`  heap left after ${RUNS + 1} runs were disposed: ${mb(afterDispose)}`);
	}
} finally {
	await server.stop();
}
