// Generated trees for the scale bench (scripts/bench/scale.mjs): N small files in leaf
// directories of 50, nested 3 to 5 deep like a monorepo, with .gitignore files at the root and in
// every 64th leaf (each hiding one file there), an ignored build/ directory and a secret. Only the
// N served files count. Kept under BENCH_WORKSPACES/scale/ between runs; a manifest written last
// marks a tree complete, so an interrupted generation is redone.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { now } from './measurement.js';
import { BENCH_WORKSPACES } from './workspaceHome.js';

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
 * The tree both scale benches (headless, extension host) measure: made or reused, with how many
 * files it serves and the leaf folder the notification timings write into.
 */
export function prepareScaleTree(files: number, log: (message: string) => void = () => {}): { tree: ScaleTree; expected: number; leafDir: string } {
	mkdirSync(SCALE_CACHE_DIR, { recursive: true });
	const tree = ensureScaleTree({ cacheDir: SCALE_CACHE_DIR, files, log });
	return { tree, expected: servedCount(SCALE_CACHE_DIR, files), leafDir: path.join(tree.root, planScaleTree(files).dirs[1]) };
}
