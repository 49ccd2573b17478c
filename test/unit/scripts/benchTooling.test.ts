import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

interface EraRow { metric: string; contender: string; value: number; unit: string; vsPrevious: number | null; aim: { text: string; met: boolean } | null }
interface ErasModule {
	eraRows(results: { contenders: Record<string, unknown> }): EraRow[];
	renderEras(results: { contenders: Record<string, unknown> }): string;
}
interface HeadlessHost { url: string; pid: number; stop(): Promise<{ exitedCleanly: boolean }> }
interface HeadlessHostModule {
	startHeadlessHost(options: { root: string; nodeArgs?: readonly string[]; onStderr?: (chunk: string) => void }): Promise<HeadlessHost>;
}

// The bench's tooling is TypeScript that runs through its own loader: load it the same way.
const scripts = path.join(__dirname, '../../../../scripts');
async function loadScript<T>(relative: string): Promise<T> {
	register(pathToFileURL(path.join(scripts, 'bootstrap', 'typescriptHooks.mjs')).href);
	return await import(pathToFileURL(path.join(scripts, relative)).href) as T;
}

// scripts/bench/eras.ts: the table comparing both protocol eras with the previous build.
describe('scripts: the bench eras table', () => {
	let eras: ErasModule;
	before(async () => {
		eras = await loadScript<ErasModule>('bench/eras.ts');
	});

	const contenders = {
		oursStdio: { readSeq: { readsPerSec: 200, latency: { n: 1, p50: 1 } }, warmFirstPageMs: 30 },
		oursModernStdio: { readSeq: { readsPerSec: 50, latency: { n: 1, p50: 4 } } },
		prevStdio: { readSeq: { readsPerSec: 100, latency: { n: 1, p50: 2 } }, warmFirstPageMs: 10 },
	};

	it('compares each contender with the previous build on its transport (>1 = better)', () => {
		const rows = eras.eraRows({ contenders }).filter(r => r.metric === 'reads/s, 1 at a time');
		assert.deepEqual(rows.map(r => [r.contender, r.value, r.vsPrevious]), [['legacy stdio', 200, 2], ['modern stdio', 50, 0.5], ['previous stdio', 100, null]]);
		const p50 = eras.eraRows({ contenders }).filter(r => r.metric === 'read p50, 1 at a time');
		assert.deepEqual(p50.map(r => r.vsPrevious), [2, 0.5, null]);
	});

	it('compares the modern rows with the previous build read by the same (v2) client when it was measured', () => {
		const withV2 = {
			...contenders,
			prevV2Stdio: { readSeq: { readsPerSec: 40, latency: { n: 1, p50: 5 } } },
		};
		const rows = eras.eraRows({ contenders: withV2 }).filter(r => r.metric === 'reads/s, 1 at a time');
		assert.deepEqual(rows.map(r => [r.contender, r.value, r.vsPrevious, r.aim?.met ?? null]), [
			['legacy stdio', 200, 2, true],
			['modern stdio', 50, 1.25, true],
			['previous stdio', 100, null, null],
			['previous stdio, v2', 40, null, null],
		]);
	});

	it('aims at "not slower than previous" unless a row has an aim of its own, never for the previous build', () => {
		const rows = eras.eraRows({ contenders });
		const reads = rows.filter(r => r.metric === 'reads/s, 1 at a time');
		assert.deepEqual(reads.map(r => r.aim), [{ text: 'not slower than previous', met: true }, { text: 'not slower than previous', met: false }, null]);
		const firstPage = rows.filter(r => r.metric === 'first list page once indexed');
		assert.deepEqual(firstPage.map(r => r.aim), [{ text: '<= 20 ms', met: false }, null]);
	});

	it('shows each side\'s CPU per read; the bench client\'s is compared with the previous build but is no aim of the server\'s', () => {
		const cpu = {
			oursModernHttp: { serverCpuPerReadUs: 400, clientCpuPerReadUs: 900, serverCpuPerRead8Us: 300, clientCpuPerRead8Us: 600 },
			prevHttp: { serverCpuPerReadUs: 800, clientCpuPerReadUs: 450, serverCpuPerRead8Us: 600, clientCpuPerRead8Us: 300 },
		};
		const rows = eras.eraRows({ contenders: cpu });
		const of = (metric: string) => rows.filter(r => r.metric === metric).map(r => [r.contender, r.value, r.vsPrevious, r.aim?.met ?? null]);
		assert.deepEqual(of('server CPU per read, 8 in flight'), [['modern http', 300, 2, true], ['previous http', 600, null, null]]);
		assert.deepEqual(of('bench client CPU per read, 1 at a time'), [['modern http', 900, 0.5, null], ['previous http', 450, null, null]]);
		assert.deepEqual(of('bench client CPU per read, 8 in flight'), [['modern http', 600, 0.5, null], ['previous http', 300, null, null]]);
	});

	it('renders the table with the HTTP/stdio line, and nothing without contenders', () => {
		const text = eras.renderEras({ contenders });
		assert.match(text, /^both eras \(legacy: SDK v1 client/);
		assert.match(text, /reads\/s, 1 at a time\s+legacy stdio\s+200\s+reads\/s\s+2\.00x\s+not slower than previous MET/);
		assert.match(text, /new-era HTTP reads\/s \/ stdio reads\/s \(aim >= 0\.5x\): 1-way —x vs modern stdio/);
		assert.equal(eras.renderEras({ contenders: {} }), '');
	});
});

// scripts/lib/headlessHost.ts is the one way to start `cli.js serve --http`; the benches pass
// node options (--cpu-prof, the scale probe) and read the host's stderr as it comes.
describe('scripts: starting the headless host with node options', function () {
	this.timeout(60_000);
	let host: HeadlessHostModule;
	let dir: string;
	before(async () => {
		host = await loadScript<HeadlessHostModule>('lib/headlessHost.ts');
		dir = mkdtempSync(path.join(os.tmpdir(), 'mwr-headless-args-'));
	});
	after(() => rmSync(dir, { recursive: true, force: true }));

	it('runs the node options before the CLI and hands every stderr chunk to onStderr', async () => {
		const preload = path.join(dir, 'preload.cjs');
		writeFileSync(preload, "process.stderr.write('preloaded-before-cli\\n');\n");
		let stderr = '';
		const started = await host.startHeadlessHost({ root: dir, nodeArgs: ['--require', preload], onStderr: chunk => { stderr += chunk; } });
		try {
			assert.match(started.url, /^http:\/\/127\.0\.0\.1:\d+\//);
			assert.match(stderr, /preloaded-before-cli/);
		} finally {
			assert.equal((await started.stop()).exitedCleanly, true);
		}
	});
});
