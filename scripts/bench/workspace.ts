// The generated workspace of the reads and notification sections: N text files of ~2 KB in a
// nested tree plus B binaries of ~50 KB. The plan (paths, sizes) is recomputed from the seed on
// every run; files are written only when the workspace kept from an earlier run does not match.
import { existsSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import * as os from 'node:os';
import { mapLimited } from '../lib/mapLimited.js';
import { createRng, now, pick, randInt, shuffled, type Rng } from './measurement.js';

/**
 * Where the sections keep the workspaces they generate between runs: outside this repository.
 * Inside it they would sit under its ignored .cache/, and the server applies the .gitignore files
 * above an opened folder as git does: it would serve nothing of them. MCPWR_BENCH_WORKSPACES
 * names another place (a bigger disk for the million-file tree).
 */
export const BENCH_WORKSPACES = process.env.MCPWR_BENCH_WORKSPACES ?? path.join(os.homedir(), '.cache', 'mcp-workspace-resources-bench');

/** A generated text file: its path (relative, posix), content seed and size. */
export interface TextEntry { rel: string; seed: number; size: number }
/** A generated binary; every other one starts like a PNG. */
export interface BinaryEntry extends TextEntry { png: boolean }
export interface WorkspacePlan { text: TextEntry[]; bins: BinaryEntry[] }
/** A generated workspace, made or reused. */
export interface BenchWorkspace { root: string; plan: WorkspacePlan; reused: boolean; genMs: number; key: string }

export const GENERATOR_VERSION = 2;
export const BURST_DIR_NAME = '_bench_burst';

const AREAS = ['src', 'lib', 'packages', 'test', 'docs', 'tools', 'services', 'web'];
const MODULES = ['core', 'util', 'api', 'model', 'view', 'store', 'auth', 'net', 'io', 'parser',
	'render', 'cache', 'config', 'events', 'jobs', 'metrics', 'search', 'sync', 'ui', 'workers'];
const LEAVES = ['common', 'internal', 'handlers', 'helpers', 'types', 'adapters', 'impl', 'spec',
	'fixtures', 'components', 'routes', 'schema'];
const STEMS = ['index', 'client', 'server', 'service', 'controller', 'provider', 'reader', 'writer',
	'manager', 'factory', 'queue', 'buffer', 'format', 'parse', 'token', 'session', 'watcher', 'mapper',
	'registry', 'codec', 'stream', 'router', 'options', 'errors', 'state', 'node', 'tree', 'graph'];
const EXTS: [string, number][] = [['.ts', 40], ['.js', 15], ['.md', 10], ['.json', 8], ['.py', 8], ['.txt', 6], ['.css', 5],
	['.html', 4], ['.go', 4]];
const WORDS = ['const', 'value', 'return', 'function', 'await', 'result', 'index', 'buffer', 'options',
	'export', 'import', 'from', 'string', 'number', 'resource', 'server', 'client', 'request', 'response',
	'error', 'cursor', 'page', 'list', 'read', 'write', 'watch', 'change', 'event', 'token', 'session',
	'path', 'folder', 'workspace', 'file', 'uri', 'mime', 'text', 'binary', 'size', 'limit', 'queue',
	'größe', 'naïve', 'café', '→', 'λ'];

function pickExt(rng: Rng): string {
	const total = EXTS.reduce((s, [, w]) => s + w, 0);
	let r = rng() * total;
	for (const [ext, w] of EXTS) {
		r -= w;
		if (r < 0) return ext;
	}
	return EXTS[0][0];
}

/**
 * Compute the deterministic plan: text file paths (relative, posix) with their content seeds,
 * binary paths with sizes. Directories hold 20..100 files at depths 2..5.
 */
export function planWorkspace({ files, binaries, seed = 1 }: { files: number; binaries: number; seed?: number }): WorkspacePlan {
	const rng = createRng(seed);
	const text: TextEntry[] = [];
	let dirCounter = 0;
	while (text.length < files) {
		const area = pick(rng, AREAS);
		const depth = randInt(rng, 1, 4);
		const parts = [area];
		if (area === 'packages') parts.push(`${pick(rng, MODULES)}-${dirCounter % 97}`, 'src');
		for (let d = 1; d < depth; d++) parts.push(pick(rng, d % 2 ? MODULES : LEAVES));
		parts.push(`${pick(rng, LEAVES)}-${dirCounter++}`); // unique leaf directory
		const dir = parts.join('/');
		const count = Math.min(randInt(rng, 20, 100), files - text.length);
		for (let i = 0; i < count; i++) {
			const name = `${pick(rng, STEMS)}-${String(text.length).padStart(6, '0')}${pickExt(rng)}`;
			text.push({ rel: `${dir}/${name}`, seed: (seed * 1_000_003 + text.length) >>> 0, size: randInt(rng, 1700, 2300) });
		}
	}
	const bins: BinaryEntry[] = [];
	for (let i = 0; i < binaries; i++) {
		const png = i % 2 === 0;
		const dir = png ? `assets/images/set-${Math.floor(i / 100)}` : `assets/data/blob-${Math.floor(i / 100)}`;
		const name = png ? `image-${String(i).padStart(4, '0')}.png` : `chunk-${String(i).padStart(4, '0')}.bin`;
		bins.push({ rel: `${dir}/${name}`, seed: (seed * 7_000_003 + i) >>> 0, size: randInt(rng, 48_000, 52_000), png });
	}
	return { text, bins };
}

export function textContent(entry: TextEntry): string {
	const rng = createRng(entry.seed);
	const lines = [`// ${entry.rel}`, `// generated benchmark file, seed ${entry.seed}`];
	let len = lines[0].length + lines[1].length + 2;
	while (len < entry.size) {
		const indent = '\t'.repeat(randInt(rng, 0, 3));
		const n = randInt(rng, 3, 12);
		const words: string[] = [];
		for (let i = 0; i < n; i++) words.push(pick(rng, WORDS));
		const line = `${indent}${words.join(' ')};`;
		lines.push(line);
		len += Buffer.byteLength(line) + 1;
	}
	return lines.join('\n') + '\n';
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

export function binaryContent(entry: BinaryEntry): Buffer {
	const rng = createRng(entry.seed);
	const buf = Buffer.alloc(entry.size);
	for (let i = 0; i < buf.length; i += 4) {
		const v = (rng() * 4294967296) >>> 0;
		buf[i] = v & 0xff;
		if (i + 1 < buf.length) buf[i + 1] = (v >>> 8) & 0xff;
		if (i + 2 < buf.length) buf[i + 2] = 0; // plenty of NULs
		if (i + 3 < buf.length) buf[i + 3] = (v >>> 24) & 0xff;
	}
	if (entry.png) PNG_SIGNATURE.copy(buf, 0);
	return buf;
}

/** Recursively list regular files under `root` (absolute paths), parallel readdir walk. */
export async function walkFiles(root: string, { skip }: { skip?(name: string): boolean } = {}): Promise<string[]> {
	const out: string[] = [];
	async function walk(dir: string): Promise<void> {
		const entries = await fsp.readdir(dir, { withFileTypes: true });
		const subdirs: string[] = [];
		for (const e of entries) {
			const full = path.join(dir, e.name);
			if (e.isDirectory()) {
				if (!skip || !skip(e.name)) subdirs.push(full);
			} else if (e.isFile()) {
				out.push(full);
			}
		}
		await Promise.all(subdirs.map(walk));
	}
	await walk(root);
	return out;
}

/**
 * The workspace for these parameters under BENCH_WORKSPACES/bench/, made or reused (reuse needs a
 * complete manifest and the right file count).
 */
export async function ensureWorkspace({ files, binaries, seed = 1, log = () => {} }: { files: number; binaries: number; seed?: number; log?(message: string): void }): Promise<BenchWorkspace> {
	const cacheDir = path.join(BENCH_WORKSPACES, 'bench');
	await fsp.mkdir(cacheDir, { recursive: true });
	const key = `ws-t${files}-b${binaries}-s${seed}-v${GENERATOR_VERSION}`;
	const root = path.join(cacheDir, key);
	const manifestPath = path.join(cacheDir, `${key}.json`);
	const plan = planWorkspace({ files, binaries, seed });
	const expected = files + binaries;

	// A crashed earlier run may have left burst files behind.
	await fsp.rm(path.join(root, BURST_DIR_NAME), { recursive: true, force: true });

	if (existsSync(manifestPath) && existsSync(root)) {
		try {
			const manifest = JSON.parse(await fsp.readFile(manifestPath, 'utf8')) as { complete?: boolean; files?: number; binaries?: number };
			const found = (await walkFiles(root)).length;
			if (manifest.complete && manifest.files === files && manifest.binaries === binaries && found === expected) {
				return { root, plan, reused: true, genMs: 0, key };
			}
			log(`workspace ${key}: found ${found} files, expected ${expected}; regenerating`);
		} catch (err) {
			log(`workspace ${key}: unreadable manifest (${err instanceof Error ? err.message : String(err)}); regenerating`);
		}
	}

	const t0 = now();
	await fsp.rm(root, { recursive: true, force: true });
	await fsp.rm(manifestPath, { force: true });
	const dirs = new Set<string>();
	for (const e of plan.text) dirs.add(path.dirname(e.rel));
	for (const e of plan.bins) dirs.add(path.dirname(e.rel));
	for (const d of dirs) await fsp.mkdir(path.join(root, d), { recursive: true });
	let textBytes = 0;
	let binBytes = 0;
	await mapLimited(plan.text, 32, async e => {
		const content = textContent(e);
		textBytes += Buffer.byteLength(content);
		await fsp.writeFile(path.join(root, e.rel), content);
	});
	await mapLimited(plan.bins, 16, async e => {
		const content = binaryContent(e);
		binBytes += content.length;
		await fsp.writeFile(path.join(root, e.rel), content);
	});
	const genMs = now() - t0;
	const manifest = { complete: true, files, binaries, seed, version: GENERATOR_VERSION, dirs: dirs.size, textBytes, binBytes, createdAt: new Date().toISOString() };
	await fsp.writeFile(manifestPath, JSON.stringify(manifest, null, 2));
	return { root, plan, reused: false, genMs, key };
}

/** Rewrite text files to their generated content (after the notification test touched them). */
export async function restoreFiles(root: string, entries: readonly TextEntry[]): Promise<void> {
	for (const e of entries) await fsp.writeFile(path.join(root, e.rel), textContent(e));
}

/**
 * The same seeded order of the text files for every section and contender: the first `reads`
 * (wrapping round) are the files read; the last `targets` are the files the notification timings
 * write, so no read follows a write of its own file.
 */
export function seededOrder(ws: BenchWorkspace, seed: number, reads: number, targets = 0): { sample: string[]; targets: TextEntry[] } {
	const order = shuffled(createRng(seed * 31 + 7), ws.plan.text.map((_, i) => i));
	const sample = Array.from({ length: reads }, (_, i) => path.join(ws.root, ws.plan.text[order[i % order.length]].rel));
	return { sample, targets: Array.from({ length: Math.min(targets, order.length) }, (_, i) => ws.plan.text[order[order.length - 1 - i]]) };
}
