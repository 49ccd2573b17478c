// The scale section's generated workspaces, kept under BENCH_WORKSPACES/scale/ between runs (a
// manifest written last marks one complete, so an interrupted generation is redone):
//   - trees of N small files in leaf directories of 50, nested 3 to 5 deep like a monorepo, with
//     .gitignore files at the root and in every 64th leaf (each hiding one file there), an ignored
//     build/ directory and a secret; only the N served files count;
//   - a git repository in the same layout whose `switch` branch rewrites, deletes and adds
//     thousands of files, for the branch switch.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { now } from './measurement.js';
import { BENCH_WORKSPACES } from './workspace.js';

/** Where the trees are kept between runs. */
export const SCALE_CACHE_DIR = path.join(BENCH_WORKSPACES, 'scale');

export const SCALE_TREE_VERSION = 1;
const FILES_PER_DIR = 50;
const AREAS = ['apps', 'packages', 'services', 'libs', 'tools', 'docs', 'infra', 'web'];
const MIDDLE = ['core', 'api', 'model', 'view', 'store', 'auth', 'net', 'io', 'parser', 'render', 'cache', 'jobs'];
const LEAVES = ['src', 'lib', 'internal', 'handlers', 'helpers', 'types', 'impl', 'spec', 'fixtures', 'components'];
const STEMS = ['index', 'client', 'server', 'service', 'provider', 'reader', 'writer', 'manager', 'codec', 'router'];
const EXTS = ['.ts', '.ts', '.ts', '.js', '.md', '.json', '.py', '.css', '.go', '.txt'];

/** The served file paths (relative, posix) of the tree with `files` files, in generation order. */
export function planScaleTree(files: number): { dirs: string[]; fileName(i: number): string } {
	const dirs: string[] = [];
	const leafCount = Math.ceil(files / FILES_PER_DIR);
	for (let d = 0; d < leafCount; d++) {
		const area = AREAS[d % AREAS.length];
		const pkg = `${MIDDLE[(d >> 3) % MIDDLE.length]}-${(d >> 7) % 100}`;
		const depth = 1 + (d % 3);
		const parts = [area, pkg];
		for (let i = 1; i < depth; i++) parts.push(MIDDLE[(d * 7 + i) % MIDDLE.length]);
		parts.push(`${LEAVES[d % LEAVES.length]}-${d}`);
		dirs.push(parts.join('/'));
	}
	return { dirs, fileName: i => `${STEMS[i % STEMS.length]}-${String(i).padStart(7, '0')}${EXTS[i % EXTS.length]}` };
}

/** A generated tree, made or reused: its root, file and leaf folder counts, and how long making it took. */
export interface ScaleTree { root: string; files: number; dirs: number; reused: boolean; genMs: number }

/** Makes sure the tree exists. */
export function ensureScaleTree({ cacheDir, files, log = () => {} }: { cacheDir: string; files: number; log?(message: string): void }): ScaleTree {
	const key = `tree-${files}-v${SCALE_TREE_VERSION}`;
	const root = path.join(cacheDir, key);
	const manifestPath = path.join(cacheDir, `${key}.json`);
	const { dirs, fileName } = planScaleTree(files);
	if (existsSync(manifestPath) && existsSync(root)) {
		try {
			const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { complete?: boolean; files?: number };
			if (manifest.complete && manifest.files === files) {
				// The notify check's own files may be left over from an interrupted run.
				rmSync(path.join(root, '_scale_notify'), { recursive: true, force: true });
				return { root, files, dirs: dirs.length, reused: true, genMs: 0 };
			}
		} catch {
			// regenerate below
		}
	}
	log(`  generating ${files.toLocaleString('en-US')} files under ${root} (kept for later runs)`);
	const t0 = now();
	rmSync(root, { recursive: true, force: true });
	rmSync(manifestPath, { force: true });
	mkdirSync(root, { recursive: true });
	writeFileSync(path.join(root, '.gitignore'), 'build/\n*.log\n');
	writeFileSync(path.join(root, '.env'), 'SECRET=1\n');
	mkdirSync(path.join(root, 'build'));
	for (let i = 0; i < 1000; i++) writeFileSync(path.join(root, 'build', `out-${i}.js`), 'x\n');
	let written = 0;
	for (let d = 0; d < dirs.length; d++) {
		const dir = path.join(root, dirs[d]);
		mkdirSync(dir, { recursive: true });
		const count = Math.min(FILES_PER_DIR, files - written);
		for (let i = 0; i < count; i++, written++) {
			writeFileSync(path.join(dir, fileName(written)), `// ${written}\nexport const value = ${written};\n`);
		}
		if (d % 64 === 0) {
			writeFileSync(path.join(dir, '.gitignore'), '*.tmp\n');
			writeFileSync(path.join(dir, 'scratch.tmp'), 'ignored\n');
			writeFileSync(path.join(dir, 'trace.log'), 'ignored\n');
		}
		if (d % 2000 === 0 && d > 0) log(`    ${written.toLocaleString('en-US')} files`);
	}
	// .gitignore files are served too: count them with the files a client should see.
	const gitignores = Math.ceil(dirs.length / 64) + 1;
	const genMs = now() - t0;
	writeFileSync(manifestPath, JSON.stringify({ complete: true, files, gitignores, dirs: dirs.length, version: SCALE_TREE_VERSION, createdAt: new Date().toISOString() }, null, 2));
	return { root, files, dirs: dirs.length, reused: false, genMs };
}

/** How many files a client should see listed in the tree: the generated ones and the .gitignore files. */
export function servedCount(cacheDir: string, files: number): number {
	const manifest = JSON.parse(readFileSync(path.join(cacheDir, `tree-${files}-v${SCALE_TREE_VERSION}.json`), 'utf8')) as { files: number; gitignores: number };
	return manifest.files + manifest.gitignores;
}

/**
 * The tree the scale section measures (headless or in the editor): made or reused, with how many
 * files it serves and the leaf folder the notification timings write into.
 */
export function prepareScaleTree(files: number, log: (message: string) => void = () => {}): { tree: ScaleTree; expected: number; leafDir: string } {
	mkdirSync(SCALE_CACHE_DIR, { recursive: true });
	const tree = ensureScaleTree({ cacheDir: SCALE_CACHE_DIR, files, log });
	return { tree, expected: servedCount(SCALE_CACHE_DIR, files), leafDir: path.join(tree.root, planScaleTree(files).dirs[1]) };
}

const SWITCH_REPO_VERSION = 1;
/** Changed files the client subscribes to: their `updated` is what an assistant watching them waits for. */
export const SUBSCRIBED = 20;

/** The repository: its root, and how many files a client should see on each branch. */
export interface SwitchRepo { root: string; files: number; changed: number; expected: Record<'main' | 'switch', number>; subscribed: string[]; reused: boolean }

/**
 * Makes (once) a repository of `files` files on `main` and a `switch` branch that rewrites every
 * n-th file, deletes as many again and adds a quarter of `changed` in new folders, through
 * `git fast-import` (one pack, no loose objects), then checks `main` out.
 */
export function prepareSwitchRepo(files: number, changed: number, log: (message: string) => void): SwitchRepo {
	const key = `git-${files}-${changed}-v${SWITCH_REPO_VERSION}`;
	const root = path.join(SCALE_CACHE_DIR, key);
	const manifestPath = path.join(SCALE_CACHE_DIR, `${key}.json`);
	const { dirs, fileName } = planScaleTree(files);
	const filePath = (i: number) => `${dirs[Math.floor(i / 50)]}/${fileName(i)}`;
	const rewrites = Math.floor(changed / 2);
	const deletes = Math.floor(changed / 4);
	const adds = changed - rewrites - deletes;
	const stride = Math.floor(files / rewrites);
	const rewritten = Array.from({ length: rewrites }, (_, k) => k * stride);
	const subscribed = rewritten.filter((_, k) => k % Math.floor(rewrites / SUBSCRIBED) === 0).slice(0, SUBSCRIBED).map(i => path.join(root, filePath(i)));
	const expected = { main: files + 1, switch: files + 1 - deletes + adds }; // + the root .gitignore
	if (existsSync(manifestPath) && existsSync(path.join(root, '.git'))) {
		const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { complete?: boolean };
		if (manifest.complete) {
			execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: root });
			return { root, files, changed, expected, subscribed, reused: true };
		}
	}
	log(`  generating a git repository of ${files.toLocaleString('en-US')} files under ${root} (kept for later runs)`);
	rmSync(root, { recursive: true, force: true });
	rmSync(manifestPath, { force: true });
	mkdirSync(root, { recursive: true });
	execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
	const chunks: string[] = [];
	const put = (file: string, text: string) => chunks.push(`M 100644 inline ${file}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
	const commit = (branch: string, message: string, from?: string) => chunks.push(`commit refs/heads/${branch}\nmark :${branch === 'main' ? 1 : 2}\ncommitter Bench <bench@example.invalid> 1767225600 +0000\ndata ${message.length}\n${message}\n${from ? `from ${from}\n` : ''}`);
	commit('main', 'main');
	put('.gitignore', 'build/\n*.log\n');
	for (let i = 0; i < files; i++) put(filePath(i), `// ${i}\nexport const value = ${i};\n`);
	commit('switch', 'switch', ':1');
	for (const i of rewritten) put(filePath(i), `// ${i} on the switch branch\nexport const value = ${-i};\n`);
	for (let k = 0; k < deletes; k++) chunks.push(`D ${filePath(k * stride + 1)}\n`);
	for (let k = 0; k < adds; k++) put(`apps/feature-${k % 40}/src/added-${k}.ts`, `export const added = ${k};\n`);
	execFileSync('git', ['fast-import', '--quiet'], { cwd: root, input: chunks.join(''), maxBuffer: 1 << 30 });
	execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: root });
	writeFileSync(manifestPath, JSON.stringify({ complete: true, files, changed, expected, version: SWITCH_REPO_VERSION, createdAt: new Date().toISOString() }, null, 2));
	return { root, files, changed, expected, subscribed, reused: false };
}

