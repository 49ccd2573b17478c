// The picker section (`--section picker`): the picker's own modules (src/picker, bundled by
// builtScript.ts) on a 100,000-file workspace served by the headless host over HTTP: the first
// tree level after opening (connect, first page, the root's children), every page loaded, a
// 5,000-entry folder expanded, filters, and the heap the picker holds. `--ui` times the same in
// the real UI instead (pickerUi.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startHeadlessHost, type HeadlessHost } from '../lib/headlessHost.js';
import { builtScript } from './builtScript.js';
import { median } from './measurement.js';
import { measurePickerUi } from './pickerUi.js';
import { fmt, renderTable } from './report.js';
import type { SectionContext, SectionReport } from './section.js';
import { BENCH_WORKSPACES } from './workspace.js';

export const BIG_FOLDER_SIZE = 5_000;
const QUERIES = ['entry-4999', 'file042', 'pkg07 mod3', 'fl99', 'ts'];

/** big/ with 5,000 entries, the rest as pkgNNN/modN/fileNNN.ts (~100 per folder); made once under BENCH_WORKSPACES/picker. */
export function pickerWorkspace(files: number, log: (message: string) => void): string {
	const dir = path.join(BENCH_WORKSPACES, 'picker', `ws-${files}`);
	const stamp = path.join(dir, '.complete');
	if (fs.existsSync(stamp)) return dir;
	fs.rmSync(dir, { recursive: true, force: true });
	log(`generating ${files} files in ${dir}`);
	fs.mkdirSync(path.join(dir, 'big'), { recursive: true });
	for (let i = 0; i < BIG_FOLDER_SIZE; i++) fs.writeFileSync(path.join(dir, 'big', `entry-${String(i).padStart(4, '0')}.txt`), `big ${i}\n`);
	for (let n = BIG_FOLDER_SIZE, p = 0; n < files; p++) {
		for (let m = 0; m < 10 && n < files; m++) {
			const folder = path.join(dir, `pkg${String(p).padStart(3, '0')}`, `mod${m}`);
			fs.mkdirSync(folder, { recursive: true });
			for (let f = 0; f < 100 && n < files; f++, n++) fs.writeFileSync(path.join(folder, `file${String(f).padStart(3, '0')}.ts`), `export const v${n} = ${n};\n`);
		}
	}
	fs.writeFileSync(path.join(dir, '.gitignore'), '.complete\n');
	fs.writeFileSync(stamp, '');
	return dir;
}

/** The picker's modules the section drives. */
interface PickerModules {
	ServerConnection: typeof import('../../src/picker/serverConnection.js').ServerConnection;
	ResourceListing: typeof import('../../src/picker/resourceListing.js').ResourceListing;
	CHILD_PAGE: number;
	nullLogger: typeof import('../../src/common/logger.js').nullLogger;
}

interface PickerRun { firstLevelMs: number; firstLevelRows: number; allMs: number; loaded: number; expandMs: number; filters: Record<string, { ms: number; total: number }>; heapHeldMiB: number }

async function once(m: PickerModules, host: HeadlessHost, gc: () => void): Promise<PickerRun> {
	const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
	const heapBefore = heap();
	const started = performance.now();
	const connection = new m.ServerConnection('bench', 'Bench', { resolve: async () => ({ kind: 'http', url: host.url, headers: { Authorization: `Bearer ${host.token}` } }) }, { log: m.nullLogger });
	const resources = new m.ResourceListing(connection);
	let firstLevelMs = Number.NaN;
	let firstLevelRows = 0;
	const sub = resources.onDidChange(() => {
		if (Number.isNaN(firstLevelMs) && resources.size > 0) {
			firstLevelRows = resources.children(resources.filesRoot).length;
			firstLevelMs = performance.now() - started;
		}
	});
	await resources.load();
	const allMs = performance.now() - started;
	sub.dispose();
	const big = resources.folder('bench|d|big');
	if (!big) throw new Error('the picker tree has no big/ folder');
	let t = performance.now();
	resources.children(big).slice(0, m.CHILD_PAGE); // the listing sorts the whole folder; the view shows its first page
	const expandMs = performance.now() - t;
	const filters: PickerRun['filters'] = {};
	for (const q of QUERIES) {
		t = performance.now();
		filters[q] = { total: resources.search(q, 200).total, ms: performance.now() - t };
	}
	const heapHeldMiB = (heap() - heapBefore) / 2 ** 20;
	const loaded = resources.size;
	resources.dispose();
	connection.dispose();
	return { firstLevelMs, firstLevelRows, allMs, loaded, expandMs, filters, heapHeldMiB };
}

/** The picker section: `npm run bench -- --section picker [--ui]`. */
export async function runPicker(ctx: SectionContext): Promise<SectionReport> {
	const { flags, quick, log } = ctx;
	const files = flags.number('--picker-files', quick ? 10_000 : 100_000, BIG_FOLDER_SIZE + 1);
	const runs = flags.number('--runs', quick ? 1 : 3, 1);
	const workspace = pickerWorkspace(files, log);
	if (flags.has('--ui')) return measurePickerUi(workspace, files, runs, log);
	const bundle = await builtScript('picker', {
		contents: ["export { ServerConnection } from './src/picker/serverConnection';", "export { ResourceListing } from './src/picker/resourceListing';",
			"export { CHILD_PAGE } from './src/picker/pickerViewModel';", "export { nullLogger } from './src/common/logger';"].join('\n'),
	});
	const modules = await import(pathToFileURL(bundle).href) as PickerModules;
	// The heap the picker holds is measured between full collections.
	setFlagsFromString('--expose-gc');
	const gc = runInNewContext('gc') as () => void;
	const host = await startHeadlessHost({ root: workspace, cli: ctx.cli });
	const results: PickerRun[] = [];
	let first: PickerRun;
	try {
		first = await once(modules, host, gc); // the server builds its index: its times are not counted
		for (let i = 0; i < runs; i++) results.push(await once(modules, host, gc));
	} finally {
		await host.stop();
	}
	const mid = (pick: (r: PickerRun) => number) => fmt(median(results.map(pick)));
	const last = results[results.length - 1];
	const rows = [
		['first tree level shown: connect, first page, root children (ms)', mid(r => r.firstLevelMs), `${last.firstLevelRows} rows`],
		['every page loaded and merged (ms)', mid(r => r.allMs), `${last.loaded.toLocaleString('en-US')} resources`],
		[`a ${BIG_FOLDER_SIZE.toLocaleString('en-US')}-entry folder expanded (ms)`, mid(r => r.expandMs), 'sorted, first page of rows'],
		...QUERIES.map(q => [`filter "${q}" (ms)`, mid(r => r.filters[q].ms), `${last.filters[q].total.toLocaleString('en-US')} matches`]),
		['heap the picker holds, first opened (MiB)', fmt(first.heapHeldMiB), 'connection, model, filter index, modules loaded'],
		['heap the picker holds, opened again (MiB)', mid(r => r.heapHeldMiB), 'connection, model and filter index'],
	];
	return { results: { files, first, runs: results }, text: renderTable([`the picker in plain Node, ${files.toLocaleString('en-US')} files over HTTP (median of ${runs})`, 'value', ''], rows, 1) };
}
