import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

interface Flags {
	names(): string[];
	has(name: string): boolean;
	text(name: string, fallback?: string): string | undefined;
	number(name: string, fallback: number, min?: number): number;
	numbers(name: string, fallback: readonly number[], min?: number): number[];
	choice<T extends string>(name: string, choices: readonly T[], fallback: T): T;
}
interface SectionModule { Flags: new (argv: readonly string[]) => Flags }
interface Aim { aim: string; where: string; unit: string; value: number | null | undefined; previous?: number | null; anchor?: { name: string; value: number | null | undefined }; met: boolean | null }
interface ReadsModule {
	readsAims(results: Record<string, unknown>, files: number): Aim[];
	renderReads(results: Record<string, unknown>, files: number): string;
}
interface ReportModule { renderAims(aims: readonly Aim[]): string; fmtRatio(v: number | null | undefined): string }
interface HeadlessHost { url: string; pid: number; stop(): Promise<{ exitedCleanly: boolean }> }
interface HeadlessHostModule {
	startHeadlessHost(options: { root: string; nodeArgs?: readonly string[]; onStderr?: (chunk: string) => void }): Promise<HeadlessHost>;
}

// The bench's tooling is TypeScript that runs through its own loader: load it the same way.
const root = path.join(__dirname, '../../../..');
const scripts = path.join(root, 'scripts');
async function loadScript<T>(relative: string): Promise<T> {
	register(pathToFileURL(path.join(scripts, 'bootstrap', 'typescriptHooks.mjs')).href);
	return await import(pathToFileURL(path.join(scripts, relative)).href) as T;
}

/** `npm run bench` as npm runs it, with `args`: its exit code and output. */
function bench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise(resolve => {
		const child = spawn(process.execPath, ['--import', './scripts/bootstrap/registerTypeScript.mjs', 'scripts/bench/bench.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', d => (stdout += d));
		child.stderr.on('data', d => (stderr += d));
		child.on('close', code => resolve({ code, stdout, stderr }));
	});
}

// scripts/bench/section.ts: the flags every section reads.
describe('scripts: the bench sections\' flags', () => {
	let section: SectionModule;
	before(async () => {
		section = await loadScript<SectionModule>('bench/section.ts');
	});

	it('reads "--name value", "--name=value" and a bare "--name", numbers written with separators', () => {
		const flags = new section.Flags(['--files', '20_000', '--sizes=100000,1_000,5000', '--editor', '--era', '2026-07-28', '--reads', '1,500']);
		assert.deepEqual(flags.names(), ['--files', '--sizes', '--editor', '--era', '--reads']);
		assert.equal(flags.number('--files', 1), 20_000);
		assert.equal(flags.number('--reads', 1), 1500);
		assert.deepEqual(flags.numbers('--sizes', [1]), [100_000, 1000, 5000]);
		assert.equal(flags.has('--editor'), true);
		assert.equal(flags.choice('--era', ['2025', '2026-07-28'], '2025'), '2026-07-28');
		assert.equal(flags.number('--absent', 7), 7);
	});

	it('refuses what a section cannot use, naming the flag', () => {
		const flags = new section.Flags(['--files', '-3', '--era', '2024', '--editor', '--sizes', '10,x']);
		assert.throws(() => flags.number('--files', 1, 1), /--files needs a whole number of at least 1, got -3/);
		assert.throws(() => flags.choice('--era', ['2025', '2026-07-28'], '2025'), /--era is one of 2025, 2026-07-28; got 2024/);
		assert.throws(() => flags.text('--editor'), /--editor needs a value/);
		assert.throws(() => flags.numbers('--sizes', [1]), /--sizes takes whole numbers/);
		assert.throws(() => new section.Flags(['reads']), /unexpected argument reads/);
	});
});

// scripts/bench/reads.ts and report.ts: this build beside the previous build and the anchors, and the aims.
describe('scripts: the bench\'s reads tables and aims', () => {
	let reads: ReadsModule;
	let report: ReportModule;
	before(async () => {
		reads = await loadScript<ReadsModule>('bench/reads.ts');
		report = await loadScript<ReportModule>('bench/report.ts');
	});

	const results = {
		'server-filesystem': { readSeq: { readsPerSec: 1300, latency: { n: 1, p50: 0.6 } }, read8: { readsPerSec: 1500, latency: { n: 1 } } },
		'this build stdio 2025': { readSeq: { readsPerSec: 2600, latency: { n: 1, p50: 0.4 } }, read8: { readsPerSec: 1400, latency: { n: 1 } }, warmFirstPageMs: 25 },
		'previous stdio 2025': { readSeq: { readsPerSec: 2000, latency: { n: 1, p50: 0.5 } }, warmFirstPageMs: 5 },
		'minimal SDK stdio 2025': { readSeq: { readsPerSec: 1800, latency: { n: 1, p50: 0.45 } } },
		'this build http 2026-07-28': { readSeq: { readsPerSec: 400, latency: { n: 1, p50: 2.5 } }, warmFirstPageMs: 8 },
	};

	it('judges each aim on this build, with the previous build\'s value and the anchor beside it', () => {
		const aims = reads.readsAims(results, 20_000);
		const of = (aim: string, where: string) => aims.find(a => a.aim === aim && a.where.startsWith(where));
		assert.deepEqual(of('read p50 <= 1 ms', 'stdio, 2025'), {
			aim: 'read p50 <= 1 ms', where: 'stdio, 2025, 20,000 files', unit: 'ms', value: 0.4, previous: 0.5, anchor: { name: 'minimal SDK', value: 0.45 }, met: true,
		});
		assert.equal(of('read p50 <= 2 ms', 'http, 2026-07-28')?.met, false);
		assert.equal(of('reads/s 1 at a time >= server-filesystem\'s', 'stdio, 2025')?.met, true);
		assert.equal(of('reads/s 8 in flight >= server-filesystem\'s', 'stdio, 2025')?.met, false);
		assert.equal(of('first page <= 20 ms', 'stdio, 2025')?.met, false);
		assert.equal(of('first page <= 20 ms', 'http, 2026-07-28')?.met, true);
		// Nothing measured in an era or transport: no aim is judged there.
		assert.equal(aims.some(a => a.where.startsWith('stdio, 2026-07-28')), false);
	});

	it('says "n/a" where the anchor an aim compares with is missing', () => {
		const aims = reads.readsAims({ 'this build stdio 2025': results['this build stdio 2025'] }, 20_000);
		assert.equal(aims.find(a => a.aim.startsWith('reads/s 1 at a time'))?.met, null);
		assert.match(report.renderAims(aims), /reads\/s 1 at a time >= server-filesystem's\s+stdio, 2025, 20,000 files\s+2,600 reads\/s\s+server-fs —\s+n\/a/);
	});

	it('shows how many times better this build is than the previous one, for times and rates alike', () => {
		const text = reads.renderReads(results, 20_000);
		assert.match(text, /reads\/s, 1 at a time \(reads\/s\)\s+2,600\s+2,000\s+1\.30x\s+1,800\s+1,300/);
		assert.match(text, /read p50, 1 at a time \(ms\)\s+0\.40\s+0\.50\s+1\.25x/);
		assert.match(text, /first page, once indexed \(median of 5\) \(ms\)\s+25\.0\s+5\.00\s+0\.20x/);
		assert.doesNotMatch(text, /SDK v1 build/);
		assert.equal(report.fmtRatio(0.996), '0.99x');
	});

	it('prints MET or MISSED beside each aim', () => {
		const text = report.renderAims(reads.readsAims(results, 20_000));
		assert.match(text, /read p50 <= 1 ms\s+stdio, 2025, 20,000 files\s+0\.40 ms\s+0\.50 ms\s+minimal SDK 0\.45 ms\s+MET/);
		assert.match(text, /read p50 <= 2 ms\s+http, 2026-07-28, 20,000 files\s+2\.50 ms\s+minimal SDK —\s+MISSED/);
	});
});

// scripts/bench/bench.ts: one entry, its sections named on the command line.
describe('scripts: npm run bench with sections and flags it does not have', function () {
	this.timeout(30_000);

	it('lists every section with its flags', async () => {
		const result = await bench(['--help']);
		assert.equal(result.code, 0, result.stderr);
		for (const name of ['reads', 'notify', 'alone', 'scale', 'package', 'picker', 'profile']) assert.match(result.stdout, new RegExp(`^ {2}[* ] ${name} `, 'm'));
		assert.match(result.stdout, /--sizes N,N/);
	});

	for (const [args, message] of [
		[['--section', 'reads,serach'], 'bench: there is no section serach; the sections are reads, notify, alone, scale, package, picker, search, symbols, profile\n'],
		[['--section', 'reads', '--sizes', '1000'], 'bench: --sizes is not a flag of reads (npm run bench -- --help)\n'],
		[['--quick', 'reads'], 'bench: unexpected argument reads (flags are --name value)\n'],
	] as const) {
		it(`exits 2 with one line before anything runs: ${args.join(' ')}`, async () => {
			const result = await bench([...args]);
			assert.equal(result.code, 2, result.stderr);
			assert.equal(result.stderr, message);
			assert.equal(result.stdout, '');
		});
	}
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
