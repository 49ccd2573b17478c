#!/usr/bin/env node
// The search section of the bench (issue 34): our headless server's indexed search against
// ripgrep on the same tree of real code, with the same options. Run on its own with
//   node --import ./scripts/bootstrap/registerTypeScript.mjs scripts/bench/search.ts [--files N] [--reps N] [--json]
// (after `npm run build`), or call runSearchBench() from the bench. It:
// - builds (once, kept between runs under the bench workspaces) a tree of the text files of the
//   installed npm packages, copied until it holds --files files (100,000): no dotfiles, no binaries,
//   nothing over 1 MB, so that ripgrep --no-ignore --hidden and our server search the same files;
// - installs Debian's ripgrep when `rg` is missing;
// - starts `dist/cli.js serve --stdio` on it and measures the time until its search index is built
//   (its own log line) and until a search first answers complete, against one full ripgrep scan,
//   the server's resident memory against the text indexed, and ping round trips while it indexes
//   (the event loop's delay as a client sees it);
// - runs eight or more rare identifiers (picked from the tree, the same every run), four common
//   words and three regexes, each --reps times, through our server and through ripgrep;
// - writes files and measures how soon a search finds each.
// Aims are reported beside the numbers, never asserted.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { BENCH_WORKSPACES } from './workspace.js';
import { createRng, percentile, processMemory, round, shuffled } from './measurement.js';
import type { AimVerdict, SectionContext, SectionReport } from './section.js';

export interface SearchBenchOptions {
	/** Files in the tree. */
	readonly files?: number;
	/** Runs of each query, for each contender. */
	readonly reps?: number;
	/** Where trees are kept between runs. */
	readonly workspaces?: string;
	/** The CLI bundle to bench. */
	readonly cli?: string;
	/** The previous build's CLI, measured after this one on the same tree and queries (none: not measured). */
	readonly previousCli?: string | null;
	readonly log?: (line: string) => void;
}

/** The previous build on the same tree: its time to ready, memory and each class's p50 and p95. */
export interface PreviousSearchResult {
	readonly indexBuiltMs: number | null;
	readonly rssMiB: number | null;
	readonly classes: { rare: Quantiles; common: Quantiles; regex: Quantiles };
}

interface Quantiles {
	readonly p50: number | null;
	readonly p95: number | null;
}

export interface ClassResult {
	readonly queries: readonly string[];
	readonly ours: { p50: number | null; p95: number | null };
	readonly rg: { p50: number | null; p95: number | null };
	/** ours p50 / rg p50 */
	readonly ratio: number | null;
	readonly aim: number;
}

export interface SearchBenchResult {
	readonly files: number;
	readonly textBytes: number;
	readonly rgFullScanMs: number;
	readonly indexBuiltMs: number | null;
	/** The same, restarted on the cache the first run wrote (only the changed files read). */
	readonly indexBuiltWarmMs: number | null;
	readonly firstCompleteAnswerMs: number | null;
	readonly indexedTextBytes: number | null;
	readonly indexBytes: number | null;
	readonly rssMiB: number | null;
	/** The same, in the run restarted on its cache, once that index was built. */
	readonly rssWarmMiB: number | null;
	/** After every query: what the searches left (decoded text, read buffers) before it is collected. */
	readonly rssEndMiB: number | null;
	readonly rssAimMiB: number | null;
	readonly pingWhileIndexing: { count: number; p50: number | null; p99: number | null; max: number | null };
	readonly classes: { rare: ClassResult; common: ClassResult; regex: ClassResult };
	readonly rareRecall: { missed: string[] };
	readonly writtenFoundMs: { samples: number[]; p50: number | null; max: number | null };
	readonly previous?: PreviousSearchResult;
}

const COMMON = ['function', 'return', 'const', 'this'];
const REGEXES = ['function\\s+\\w+Error', 'import .* from [\'"]\\.', '[A-Z][a-z]+Exception\\('];
/** Options both run with: every file (no ignore files, dotfiles included), at most 1 MB. */
const RG_ARGS = ['--no-ignore', '--hidden', '--max-filesize', '1M', '--no-messages', '-n', '--column'];

export async function runSearchBench(options: SearchBenchOptions = {}): Promise<SearchBenchResult> {
	const log = options.log ?? ((line: string) => console.log(line));
	const fileCount = options.files ?? 100_000;
	const reps = options.reps ?? 5;
	const cli = options.cli ?? path.join(repoRoot, 'dist', 'cli.js');
	ensureRipgrep(log);
	const tree = ensureTree(fileCount, options.workspaces ?? BENCH_WORKSPACES, log);
	log(`search bench: ${tree.files} files, ${mib(tree.bytes)} MiB of text in ${tree.root}`);

	// One full ripgrep scan (warm: the tree was just read or copied), a literal found nowhere.
	rg(['-F', 'zzNoSuchIdentifierAnywherezz', tree.root]);
	const fullScans = [0, 1, 2].map(() => rg(['-F', 'zzNoSuchIdentifierAnywherezz', tree.root]).ms);
	const rgFullScanMs = percentile(fullScans, 50)!;
	log(`ripgrep full scan: ${fullScans.map(ms => Math.round(ms)).join(', ')} ms`);

	const rare = pickRareIdentifiers(tree.root, 8, log);

	// The cache in a folder of the bench's own: the first run starts cold, the second on its cache.
	const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'mwr-search-bench-cache-'));
	const server = await startServer(cli, tree.root, cacheDir);
	try {
		const ready = await measureStartup(server, rare[0], log);
		const rssMiB = processMemory(server.pid)?.rssMiB ?? null;
		const rssAimMiB = ready.textBytes === null ? null : 150 + 0.25 * ready.textBytes / 1024 / 1024;
		log(`resident memory after indexing: ${round(rssMiB, 0)} MiB (aim ${round(rssAimMiB, 0)} MiB: 150 + 0.25 x ${mib(ready.textBytes ?? 0)} MiB of text)`);

		const classes = classQueries(rare);
		const rareClass = await measureClass(server.client, tree.root, classes.rare, reps, 0.05);
		const commonClass = await measureClass(server.client, tree.root, classes.common, reps, 0.1);
		const regexClass = await measureClass(server.client, tree.root, classes.regex, reps, 0.5);
		const missed = await rareRecall(server.client, tree.root, rare);
		const written = await measureWrittenFound(server.client, tree.root);
		const rssEndMiB = processMemory(server.pid)?.rssMiB ?? null;
		await server.close();
		const warm = await measureWarmStart(cli, tree.root, cacheDir, log);
		const previous = options.previousCli ? await measurePrevious(options.previousCli, tree.root, rare, reps, log) : undefined;
		const result: SearchBenchResult = {
			files: tree.files,
			textBytes: tree.bytes,
			rgFullScanMs,
			indexBuiltMs: ready.indexBuiltMs,
			indexBuiltWarmMs: warm.ms,
			firstCompleteAnswerMs: ready.firstCompleteMs,
			indexedTextBytes: ready.textBytes,
			indexBytes: ready.indexBytes,
			rssMiB,
			rssWarmMiB: warm.rssMiB,
			rssEndMiB,
			rssAimMiB,
			pingWhileIndexing: ready.pings,
			classes: { rare: rareClass, common: commonClass, regex: regexClass },
			rareRecall: { missed },
			writtenFoundMs: written,
			...(previous ? { previous } : {}),
		};
		log(renderSearchBench(result));
		return result;
	} finally {
		await server.close();
		rmSync(cacheDir, { recursive: true, force: true });
	}
}

/**
 * From spawn to the search index built, on the cache an earlier run left in `cacheDir`, and the
 * resident memory then.
 */
async function measureWarmStart(cli: string, root: string, cacheDir: string, log: (line: string) => void): Promise<{ ms: number | null; rssMiB: number | null }> {
	if (!existsSync(path.join(cacheDir, 'search-index.bin'))) {
		log('search index cache: none was written, no warm start measured');
		return { ms: null, rssMiB: null };
	}
	const server = await startServer(cli, root, cacheDir);
	try {
		const built = () => server.logLines.find(l => l.line.includes('search index:'));
		const stop = performance.now() + 10 * 60_000;
		while (!built() && performance.now() < stop) {
			await server.client.ping();
			await new Promise(resolve => setTimeout(resolve, 5)); // as measureStartup's pings
		}
		const line = built();
		const rssMiB = line ? processMemory(server.pid)?.rssMiB ?? null : null;
		if (line) {
			log(`with the cache: ${line.line}; resident memory ${round(rssMiB, 0)} MiB`);
		}
		return { ms: line ? line.at - server.spawnedAt : null, rssMiB };
	} finally {
		await server.close();
	}
}

/** The result as a table: ours beside ripgrep, with the issue's aims. */
/** The `search` section of `npm run bench`: the same measurements, judged on the issue's aims. */
export async function runSearch(ctx: SectionContext): Promise<SectionReport> {
	const r = await runSearchBench({
		files: ctx.flags.number('--search-files', ctx.quick ? 2000 : 100_000, 1),
		reps: ctx.flags.number('--search-reps', ctx.quick ? 1 : 5, 1),
		cli: ctx.cli,
		previousCli: ctx.previousCli(),
		log: line => ctx.log(line),
	});
	const where = `headless, ${r.files.toLocaleString('en-US')} files`;
	const ratioAim = (name: string, c: ClassResult, previous: Quantiles | undefined): AimVerdict => ({
		aim: `${name} p50 <= ${c.aim}x ripgrep`, where, unit: 'ms', value: c.ours.p50, previous: previous?.p50 ?? null,
		anchor: { name: 'ripgrep', value: c.rg.p50 }, met: c.ratio === null ? null : c.ratio <= c.aim,
	});
	const ready = r.indexBuiltMs;
	return {
		results: r,
		text: renderSearchBench(r),
		aims: [
			ratioAim('rare identifiers', r.classes.rare, r.previous?.classes.rare),
			ratioAim('common words', r.classes.common, r.previous?.classes.common),
			ratioAim('regexes', r.classes.regex, r.previous?.classes.regex),
			{ aim: 'search ready <= 3x one ripgrep scan', where, unit: 'ms', value: ready, previous: r.previous?.indexBuiltMs ?? null, anchor: { name: 'ripgrep scan', value: r.rgFullScanMs }, met: ready === null ? null : ready <= 3 * r.rgFullScanMs },
			{ aim: 'event loop p99 <= 50 ms while indexing', where, unit: 'ms', value: r.pingWhileIndexing.p99, met: r.pingWhileIndexing.p99 === null ? null : r.pingWhileIndexing.p99 <= 50 },
			{ aim: 'RSS <= 150 MB + 0.25x the text', where, unit: 'MiB', value: r.rssMiB, previous: r.previous?.rssMiB ?? null, anchor: { name: 'aim', value: r.rssAimMiB }, met: r.rssMiB === null || r.rssAimMiB === null ? null : r.rssMiB <= r.rssAimMiB },
			{ aim: 'RSS <= 150 MB + 0.25x the text, on its cache', where, unit: 'MiB', value: r.rssWarmMiB, anchor: { name: 'aim', value: r.rssAimMiB }, met: r.rssWarmMiB === null || r.rssAimMiB === null ? null : r.rssWarmMiB <= r.rssAimMiB },
			{ aim: 'a written file found <= 1 s', where, unit: 'ms', value: r.writtenFoundMs.max, met: r.writtenFoundMs.max === null ? null : r.writtenFoundMs.max <= 1000 },
			{ aim: 'every file ripgrep finds for a rare identifier', where, unit: 'missed', value: r.rareRecall.missed.length, met: r.rareRecall.missed.length === 0 },
		],
	};
}

export function renderSearchBench(r: SearchBenchResult): string {
	const ms = (v: number | null) => (v === null ? '-' : `${round(v, 1)} ms`);
	const x = (v: number | null) => (v === null ? '-' : `${round(v, 3)}x`);
	const lines = [
		`Search, ${r.files.toLocaleString('en-US')} files, ${mib(r.textBytes)} MiB of text (ripgrep: one full scan ${ms(r.rgFullScanMs)})`,
		'| class | ours p50 | ours p95 | ripgrep p50 | ripgrep p95 | ours/rg p50 | aim |',
		'|---|---|---|---|---|---|---|',
	];
	for (const [name, c] of Object.entries(r.classes)) {
		lines.push(`| ${name} (${c.queries.length}) | ${ms(c.ours.p50)} | ${ms(c.ours.p95)} | ${ms(c.rg.p50)} | ${ms(c.rg.p95)} | ${x(c.ratio)} | <= ${c.aim}x |`);
	}
	if (r.previous) {
		for (const [name, c] of Object.entries(r.previous.classes)) {
			lines.push(`| ${name}, the previous build | ${ms(c.p50)} | ${ms(c.p95)} | | | ${x(c.p50 === null ? null : c.p50 / r.classes[name as keyof typeof r.classes].rg.p50!)} | |`);
		}
	}
	const readyRatio = r.indexBuiltMs === null ? null : r.indexBuiltMs / r.rgFullScanMs;
	lines.push(
		`| index built (from spawn) | ${ms(r.indexBuiltMs)} | | one rg scan ${ms(r.rgFullScanMs)} | | ${x(readyRatio)} | <= 3x |`,
		...(r.previous ? [`| index built, the previous build (from spawn); resident memory then | ${ms(r.previous.indexBuiltMs)} | ${round(r.previous.rssMiB, 0)} MiB | | | ${x(r.previous.indexBuiltMs === null ? null : r.previous.indexBuiltMs / r.rgFullScanMs)} | |`] : []),
		`| index built again on its cache (from spawn); resident memory then | ${ms(r.indexBuiltWarmMs)} | ${round(r.rssWarmMiB, 0)} MiB | | | | <= ${round(r.rssAimMiB, 0)} MiB |`,
		`| first complete answer (from spawn) | ${ms(r.firstCompleteAnswerMs)} | | | | | |`,
		`| ping while indexing p50/p99/max (${r.pingWhileIndexing.count}) | ${ms(r.pingWhileIndexing.p50)} | ${ms(r.pingWhileIndexing.p99)} | max ${ms(r.pingWhileIndexing.max)} | | | p99 <= 50 ms |`,
		`| resident memory after indexing / after the queries | ${round(r.rssMiB, 0)} MiB | ${round(r.rssEndMiB, 0)} MiB | text ${mib(r.indexedTextBytes ?? 0)} MiB, index ${mib(r.indexBytes ?? 0)} MiB | | | <= ${round(r.rssAimMiB, 0)} MiB |`,
		`| written file found (p50/max of ${r.writtenFoundMs.samples.length}) | ${ms(r.writtenFoundMs.p50)} | max ${ms(r.writtenFoundMs.max)} | | | | <= 1000 ms |`,
		`| rare identifiers: files ripgrep found that we did not | ${r.rareRecall.missed.length} | | | | | 0 |`,
	);
	return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------

function ensureRipgrep(log: (line: string) => void): void {
	if (spawnSync('rg', ['--version']).status === 0) {
		return;
	}
	log('ripgrep is missing: installing Debian\'s ripgrep');
	execFileSync('apt-get', ['update'], { stdio: 'inherit' });
	execFileSync('apt-get', ['install', '-y', 'ripgrep'], { stdio: 'inherit' });
}

/** Names ripgrep (without --hidden) or our rule would leave out: the tree holds none of them. */
const LEFT_OUT = /^\.|\.(pem|key|log)$|^id_rsa|^\.env|^\.npmrc$/i;
const MAX_FILE = 1024 * 1024;

/** The tree of copies of the installed packages' text files, made once and kept. */
function ensureTree(files: number, workspaces: string, log: (line: string) => void): { root: string; files: number; bytes: number } {
	const root = path.join(workspaces, `search-${files}`);
	const done = path.join(workspaces, `search-${files}.done.json`);
	if (existsSync(done)) {
		const known = JSON.parse(readFileSync(done, 'utf8')) as { files: number; bytes: number };
		return { root, ...known };
	}
	log(`building the search tree (${files} files) in ${root}`);
	rmSync(root, { recursive: true, force: true });
	mkdirSync(root, { recursive: true });
	const sources = textFilesOf(path.join(repoRoot, 'node_modules'));
	let count = 0;
	let bytes = 0;
	for (let copy = 0; count < files; copy++) {
		for (const source of sources) {
			if (count >= files) {
				break;
			}
			const target = path.join(root, `copy${copy}`, source.rel);
			mkdirSync(path.dirname(target), { recursive: true });
			writeFileSync(target, source.bytes);
			count++;
			bytes += source.bytes.length;
		}
	}
	writeFileSync(done, JSON.stringify({ files: count, bytes }));
	return { root, files: count, bytes };
}

function textFilesOf(dir: string): { rel: string; bytes: Buffer }[] {
	const out: { rel: string; bytes: Buffer }[] = [];
	const walk = (d: string, rel: string) => {
		for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
			if (LEFT_OUT.test(e.name)) {
				continue;
			}
			const abs = path.join(d, e.name);
			const childRel = rel ? `${rel}/${e.name}` : e.name;
			if (e.isDirectory()) {
				walk(abs, childRel);
			} else if (e.isFile() && statSync(abs).size <= MAX_FILE) {
				const bytes = readFileSync(abs);
				if (bytes.length > 0 && !bytes.subarray(0, 8000).includes(0) && isUtf8(bytes)) {
					out.push({ rel: childRel, bytes });
				}
			}
		}
	};
	walk(dir, '');
	return out;
}

function rg(args: string[]): { ms: number; lines: number; files: Set<string> } {
	const started = performance.now();
	// Output read through a pipe: ripgrep writing to /dev/null may stop at the first match.
	const run = spawnSync('rg', [...RG_ARGS, ...args], { maxBuffer: 1024 * 1024 * 1024, encoding: 'utf8' });
	const ms = performance.now() - started;
	if (run.status !== 0 && run.status !== 1) {
		throw new Error(`rg ${args.join(' ')} failed: ${run.stderr}`);
	}
	const lines = run.stdout ? run.stdout.split('\n').filter(Boolean) : [];
	return { ms, lines: lines.length, files: new Set(lines.map(l => l.slice(0, l.indexOf(':')))) };
}

/**
 * Identifiers of 12 or more characters found in 1 to 20 lines of the tree: eight, picked by a
 * fixed seed from the files of the first copy, so every run asks the same.
 */
function pickRareIdentifiers(root: string, count: number, log: (line: string) => void): string[] {
	const rng = createRng(34);
	const first = path.join(root, 'copy0');
	const candidates: string[] = [];
	const walk = (d: string) => {
		for (const e of readdirSync(d, { withFileTypes: true })) {
			const abs = path.join(d, e.name);
			if (e.isDirectory()) {
				walk(abs);
			} else if (candidates.length < 5000 && /\.(js|ts|mjs|cjs)$/.test(e.name)) {
				candidates.push(abs);
			}
		}
	};
	walk(first);
	const picked: string[] = [];
	for (const file of shuffled(rng, candidates)) {
		if (picked.length >= count) {
			break;
		}
		const words = readFileSync(file, 'utf8').match(/\b[A-Za-z_][A-Za-z0-9_]{11,30}\b/g) ?? [];
		const word = words.length > 0 ? words[Math.floor(rng() * words.length)] : undefined;
		if (!word || picked.includes(word)) {
			continue;
		}
		const found = rg(['-F', '-w', '-c', word, first]);
		const lines = [...found.files].length;
		if (lines >= 1 && lines <= 3) {
			picked.push(word);
		}
	}
	log(`rare identifiers: ${picked.join(', ')}`);
	return picked;
}

interface Server {
	readonly client: Client;
	readonly pid: number | undefined;
	readonly spawnedAt: number;
	/** Lines the server logged, with when they came. */
	readonly logLines: { at: number; line: string }[];
	close(): Promise<void>;
}

async function startServer(cli: string, root: string, cacheDir: string): Promise<Server> {
	const home = mkdtempSync(path.join(os.tmpdir(), 'mwr-search-bench-home-'));
	const spawnedAt = performance.now();
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [cli, 'serve', '--root', root, '--stdio', '--log-level', 'info', '--cache-dir', cacheDir],
		env: { ...process.env as Record<string, string>, MCP_WORKSPACE_RESOURCES_HOME: home },
		stderr: 'pipe',
	});
	const logLines: { at: number; line: string }[] = [];
	const stderr = transport.stderr as Readable | null;
	let partial = '';
	stderr?.on('data', (chunk: Buffer) => {
		const at = performance.now();
		partial += chunk.toString('utf8');
		const lines = partial.split('\n');
		partial = lines.pop() ?? '';
		for (const line of lines) {
			logLines.push({ at, line });
		}
	});
	// The 2025 era: it has `ping`, the round trip that shows the event loop's delay.
	const client = new Client({ name: 'search-bench', version: '1' });
	await client.connect(transport);
	let closed = false;
	return {
		client,
		pid: transport.pid ?? undefined,
		spawnedAt,
		logLines,
		close: async () => {
			if (!closed) {
				closed = true; // closed before the warm start, and again on the way out
				await client.close();
				rmSync(home, { recursive: true, force: true });
			}
		},
	};
}

/**
 * Until the index is built: pings (no search meanwhile: a search then reads the
 * files not indexed yet, which would slow what is measured). Then the first search's time.
 */
async function measureStartup(server: Server, rareWord: string, log: (line: string) => void): Promise<{
	indexBuiltMs: number | null; firstCompleteMs: number | null; textBytes: number | null; indexBytes: number | null;
	pings: SearchBenchResult['pingWhileIndexing'];
}> {
	const built = () => server.logLines.find(l => l.line.includes('search index:'));
	const pings: number[] = [];
	const stop = performance.now() + 10 * 60_000;
	while (!built() && performance.now() < stop) {
		const started = performance.now();
		await server.client.ping();
		pings.push(performance.now() - started);
		// One every few milliseconds: back to back, the pings' own work (here and in the server)
		// takes a core from the index being measured.
		await new Promise(resolve => setTimeout(resolve, 5));
	}
	const line = built();
	if (!line) {
		throw new Error('the search index was not built within 10 minutes');
	}
	log(line.line);
	const answer = await readText(server.client, textUri(rareWord, { case: true }));
	const firstCompleteMs = answer.complete ? performance.now() - server.spawnedAt : null;
	const sizes = /search index: (\d+) files, ([\d.]+) (\w+) of text in ([\d.]+) (\w+) of index/.exec(line.line);
	const bytes = (n: string, unit: string) => Number(n) * ({ B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[unit] ?? 1);
	return {
		indexBuiltMs: line.at - server.spawnedAt,
		firstCompleteMs,
		textBytes: sizes ? bytes(sizes[2], sizes[3]) : null,
		indexBytes: sizes ? bytes(sizes[4], sizes[5]) : null,
		pings: { count: pings.length, p50: percentile(pings, 50), p99: percentile(pings, 99), max: pings.reduce((m, v) => Math.max(m, v), 0) || null },
	};
}

interface ClassQuery {
	readonly q: string;
	readonly rgArgs: string[];
	readonly uri: string;
}

/** Each class's queries, as ours asks them and as ripgrep is run for them. */
function classQueries(rare: readonly string[]): { rare: ClassQuery[]; common: ClassQuery[]; regex: ClassQuery[] } {
	return {
		rare: rare.map(q => ({ q, rgArgs: ['-F', q], uri: textUri(q, { case: true, max: 5000 }) })),
		common: COMMON.map(q => ({ q, rgArgs: ['-F', '-i', q], uri: textUri(q) })),
		regex: REGEXES.map(q => ({ q, rgArgs: ['-i', q], uri: textUri(q, { regex: true, max: 5000 }) })),
	};
}

/** Each query `reps` times, one after another: the times taken. */
async function timeQueries(client: Client, queries: readonly ClassQuery[], reps: number): Promise<number[]> {
	const times: number[] = [];
	for (const query of queries) {
		for (let i = 0; i < reps; i++) {
			const started = performance.now();
			await readText(client, query.uri);
			times.push(performance.now() - started);
		}
	}
	return times;
}

/**
 * The previous build on the same tree, once this build is measured: from spawn to its index
 * (no cache), its memory then, and the same queries. ripgrep is not run again for it.
 */
async function measurePrevious(cli: string, root: string, rare: readonly string[], reps: number, log: (line: string) => void): Promise<PreviousSearchResult> {
	log('the previous build, on the same tree and queries');
	const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'mwr-search-bench-previous-'));
	const server = await startServer(cli, root, cacheDir);
	try {
		const ready = await measureStartup(server, rare[0], log);
		const rssMiB = processMemory(server.pid)?.rssMiB ?? null;
		const classes = classQueries(rare);
		const quantiles = async (queries: readonly ClassQuery[]): Promise<Quantiles> => {
			const times = await timeQueries(server.client, queries, reps);
			return { p50: percentile(times, 50), p95: percentile(times, 95) };
		};
		return {
			indexBuiltMs: ready.indexBuiltMs,
			rssMiB,
			classes: { rare: await quantiles(classes.rare), common: await quantiles(classes.common), regex: await quantiles(classes.regex) },
		};
	} finally {
		await server.close();
		rmSync(cacheDir, { recursive: true, force: true });
	}
}

async function measureClass(client: Client, root: string, queries: readonly ClassQuery[], reps: number, aim: number): Promise<ClassResult> {
	const ours = await timeQueries(client, queries, reps);
	const theirs: number[] = [];
	for (const query of queries) {
		for (let i = 0; i < Math.min(reps, 3); i++) {
			theirs.push(rg([...query.rgArgs, root]).ms);
		}
	}
	const oursP50 = percentile(ours, 50);
	const rgP50 = percentile(theirs, 50);
	return {
		queries: queries.map(q => q.q),
		ours: { p50: oursP50, p95: percentile(ours, 95) },
		rg: { p50: rgP50, p95: percentile(theirs, 95) },
		ratio: oursP50 !== null && rgP50 ? oursP50 / rgP50 : null,
		aim,
	};
}

/** Files ripgrep finds for each rare identifier that our answer lacks. */
async function rareRecall(client: Client, root: string, rare: readonly string[]): Promise<string[]> {
	const missed: string[] = [];
	for (const q of rare) {
		const answer = await readText(client, textUri(q, { case: true, max: 5000 }));
		const ours = new Set(answer.files.map(f => path.join(root, f.path)));
		for (const file of rg(['-F', q, root]).files) {
			if (!ours.has(file)) {
				missed.push(`${q}: ${path.relative(root, file)}`);
			}
		}
	}
	return missed;
}

/** Writes a file with a new identifier and asks until a search finds it, five times. */
async function measureWrittenFound(client: Client, root: string): Promise<SearchBenchResult['writtenFoundMs']> {
	const dir = path.join(root, 'copy0', 'written-by-bench');
	mkdirSync(dir, { recursive: true });
	const samples: number[] = [];
	for (let i = 0; i < 5; i++) {
		const token = `writtenByBench${Date.now()}x${i}`;
		const file = path.join(dir, `w${i}.ts`);
		const started = performance.now();
		writeFileSync(file, `export const ${token} = ${i};\n`);
		for (; ;) {
			const answer = await readText(client, textUri(token, { case: true }));
			if (answer.files.length > 0) {
				samples.push(performance.now() - started);
				break;
			}
			if (performance.now() - started > 30_000) {
				break;
			}
		}
		appendFileSync(file, '// touched\n');
	}
	rmSync(dir, { recursive: true, force: true });
	return { samples, p50: percentile(samples, 50), max: samples.reduce((m, v) => Math.max(m, v), 0) || null };
}

interface TextJson {
	files: { path: string }[];
	complete: boolean;
	matchCount: number;
}

async function readText(client: Client, uri: string): Promise<TextJson> {
	const { contents } = await client.readResource({ uri });
	return JSON.parse((contents[0] as { text: string }).text) as TextJson;
}

function textUri(q: string, params: Record<string, string | number | boolean> = {}): string {
	return `search://text?${[`q=${encodeURIComponent(q)}`, ...Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)].join('&')}`;
}

function mib(bytes: number): number {
	return round(bytes / 1024 / 1024, 1)!;
}

function flag(name: string): string | undefined {
	const at = process.argv.indexOf(name);
	return at >= 0 ? process.argv[at + 1] : undefined;
}

// Run on its own: `node --import ./scripts/bootstrap/registerTypeScript.mjs scripts/bench/search.ts`.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const files = flag('--files');
	const reps = flag('--reps');
	const json = process.argv.includes('--json');
	runSearchBench({ files: files ? Number(files) : undefined, reps: reps ? Number(reps) : undefined, log: json ? () => undefined : undefined })
		.then(result => {
			if (json) {
				console.log(JSON.stringify(result, null, 2));
			}
		}, (err: unknown) => {
			console.error(err);
			process.exitCode = 1;
		});
}
