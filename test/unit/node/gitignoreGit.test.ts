import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileFilter } from '../../../src/core/files/fileFilter';
import { GitignoreRules, ignoredAfter } from '../../../src/core/files/gitignoreRules';
import { BUILT_IN_SECRETS, SecretMatcher } from '../../../src/core/files/secretMatcher';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { defaultFileSettings } from '../../fakes/fakeSettings';

/** A small seeded generator (mulberry32), so a failure names a case that comes back. */
function random(seed: number): () => number {
	return () => {
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Letters of names: what patterns name, and the characters patterns give meaning to. */
const NAME_UNITS = ['a', 'a', 'b', 'b', 'A', 'B', 'x', '.', '-', ' ', '[', ']', '!', '*', '?', '\\', '#', '^'];
/** Pieces of patterns: literals, wildcards, classes (well-formed, odd and broken), escapes, slashes. */
const PATTERN_PIECES = [
	'a', 'a', 'b', 'b', 'A', 'x', '.', '-', ' ', '*', '*', '**', '***', '?', '/', '/', '/', '**/', '/**', '/**/',
	'[ab]', '[!a]', '[^b]', '[a-c]', '[A-Z]', '[]a]', '[!]]', '[a-]', '[-b]', '[[:alpha:]]', '[[:upper:]]', '[[:punct:]]',
	'[[:bogus:]]', '[[:alpha]', '[a', '[', ']', '\\*', '\\?', '\\[', '\\ ', '\\\\', '\\a', '\\', '!', '#', '\\#', '\\!',
];

function pick<T>(next: () => number, items: readonly T[]): T {
	return items[Math.floor(next() * items.length)];
}

function nameOf(next: () => number): string {
	let name = '';
	const length = 1 + Math.floor(next() * 3);
	for (let i = 0; i < length; i++) {
		name += pick(next, NAME_UNITS);
	}
	return name === '.' || name === '..' ? 'a' : name;
}

function patternOf(next: () => number): string {
	let pattern = next() < 0.2 ? '!' : next() < 0.1 ? '/' : '';
	const pieces = 1 + Math.floor(next() * 4);
	for (let i = 0; i < pieces; i++) {
		pattern += pick(next, PATTERN_PIECES);
	}
	return pattern + (next() < 0.2 ? '/' : next() < 0.1 ? '  ' : '');
}

/**
 * A tree of files and directories with generated names (every proper prefix of a file is a
 * directory; a name both a file and a directory stays a directory). Paths the built-in secrets
 * list hides are left out: they are never served, whatever git says.
 */
function treeOf(next: () => number): { files: string[]; directories: string[] } {
	const secrets = new SecretMatcher(BUILT_IN_SECRETS);
	const files = new Set<string>();
	const directories = new Set<string>(['a', 'a/b']);
	for (let i = 0; i < 160; i++) {
		const depth = 1 + Math.floor(next() * 3);
		const segments = Array.from({ length: depth }, () => nameOf(next));
		if (next() < 0.4) {
			segments.unshift(...(next() < 0.5 ? ['a'] : ['a', 'b']));
		}
		const rel = segments.join('/');
		if (segments.some((_, k) => secrets.matches(segments.slice(0, k + 1).join('/'), k < segments.length - 1)) || segments.includes('.gitignore')) {
			continue;
		}
		files.add(rel);
		for (let k = 1; k < segments.length; k++) {
			directories.add(segments.slice(0, k).join('/'));
		}
	}
	for (const directory of directories) {
		files.delete(directory);
	}
	return { files: [...files], directories: [...directories] };
}

/** What git says of each path, by `git check-ignore` (the last matching pattern, its parents' included). */
function gitSays(dir: string, paths: readonly string[], ignoreCase: boolean, env: NodeJS.ProcessEnv): Map<string, boolean> {
	const run = spawnSync('git', ['-c', `core.ignorecase=${ignoreCase}`, 'check-ignore', '--no-index', '-v', '-n', '-z', '--stdin'], {
		cwd: dir, env, input: paths.map(p => `${p}\0`).join(''), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
	});
	// 1: none is ignored.
	assert.ok(run.status === 0 || run.status === 1, run.stderr);
	const fields = run.stdout.split('\0');
	const answers = new Map<string, boolean>();
	for (let i = 0; i + 3 < fields.length; i += 4) {
		const pattern = fields[i + 2];
		answers.set(fields[i + 3], pattern !== '' && !pattern.startsWith('!'));
	}
	return answers;
}

/** The same question to the rules alone: a path is ignored when a parent is, else as its last matching rule says. */
function rulesSay(root: GitignoreRules, nested: GitignoreRules | undefined, rel: string, isDirectory: boolean): boolean {
	const segments = rel.split('/');
	for (let k = 1; k <= segments.length; k++) {
		const sub = segments.slice(0, k).join('/');
		const asDirectory = k < segments.length || isDirectory;
		let ignored = ignoredAfter(false, root.test(asDirectory ? `${sub}/` : sub));
		if (nested && segments[0] === 'a' && k > 1) {
			const below = segments.slice(1, k).join('/');
			ignored = ignoredAfter(ignored, nested.test(asDirectory ? `${below}/` : below));
		}
		if (ignored) {
			return true;
		}
	}
	return false;
}

/**
 * Differential: generated `.gitignore` files (negation, `/` anchoring and directory-only rules,
 * `**`, classes, escapes, trailing spaces, broken patterns) against generated names, answered by
 * real git and by our matcher, in both letter-case modes. Git's own `core.ignorecase` folds only
 * ASCII letters, and compares a class's single letters and an escaped letter without folding
 * them (`[A]` and `\A` then match nothing): our any-case mode folds those too, so those cases are
 * left out of its comparison.
 */
describe('gitignore rules agree with git', function () {
	this.timeout(300_000);
	let dir: string;
	let env: NodeJS.ProcessEnv;
	let tree: { files: string[]; directories: string[] };
	before(() => {
		dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-gitignore-git-')));
		const home = path.join(dir, 'home');
		mkdirSync(home);
		env = { ...process.env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(home, 'gitconfig') };
		const work = path.join(dir, 'work');
		mkdirSync(work);
		execFileSync('git', ['init', '-q'], { cwd: work, env });
		writeFileSync(path.join(work, '.git', 'info', 'exclude'), '');
		tree = treeOf(random(7));
		for (const directory of tree.directories) {
			mkdirSync(path.join(work, directory), { recursive: true });
		}
		for (const file of tree.files) {
			writeFileSync(path.join(work, file), '');
		}
	});
	after(() => rmSync(dir, { recursive: true, force: true }));

	it('reads names outside ASCII byte by byte, as git does (`?` is one byte of `é`)', () => {
		const work = path.join(dir, 'unicode');
		mkdirSync(work);
		execFileSync('git', ['init', '-q'], { cwd: work, env });
		const names = ['é', 'é1', 'éé', 'Éx', 'ab', 'ü.txt', 'naïve.md', '日本'];
		for (const name of names) {
			writeFileSync(path.join(work, name), '');
		}
		const lines = ['?', '??1', '[é]x', '*.txt', 'na?ve.md', '日?', '????'];
		writeFileSync(path.join(work, '.gitignore'), lines.join('\n'));
		const git = gitSays(work, names, false, env);
		const rules = new GitignoreRules(lines, false);
		for (const name of names) {
			assert.equal(rules.test(name).ignored, git.get(name), name);
		}
		assert.deepEqual(names.filter(name => git.get(name)), ['é1', 'éé', 'ü.txt']);
	});

	for (const ignoreCase of [false, true]) {
		it(`answers as git ${ignoreCase ? 'with core.ignorecase' : 'does by default'}, path by path`, async () => {
			const work = path.join(dir, 'work');
			const paths = [...tree.files, ...tree.directories];
			const next = random(ignoreCase ? 11 : 5);
			let compared = 0;
			for (let round = 0; round < 250; round++) {
				const rootLines = Array.from({ length: 1 + Math.floor(next() * 4) }, () => patternOf(next));
				const nestedLines = next() < 0.5 ? Array.from({ length: 1 + Math.floor(next() * 3) }, () => patternOf(next)) : undefined;
				if (ignoreCase && [...rootLines, ...nestedLines ?? []].some(line => /\[[^\]]*[A-Z]|\\[A-Z]/.test(line))) {
					continue;
				}
				writeFileSync(path.join(work, '.gitignore'), rootLines.join('\n'));
				rmSync(path.join(work, 'a', '.gitignore'), { force: true });
				if (nestedLines) {
					writeFileSync(path.join(work, 'a', '.gitignore'), nestedLines.join('\r\n'));
				}
				const git = gitSays(work, paths, ignoreCase, env);
				const root = new GitignoreRules(rootLines, ignoreCase);
				const nested = nestedLines && new GitignoreRules(nestedLines, ignoreCase);
				// The whole served-or-not rule, reading the files, in its any-case mode.
				const filter = ignoreCase ? new FileFilter(new NodeFileSystem(), defaultFileSettings) : undefined;
				const folder = { name: 'work', path: work };
				for (const rel of paths) {
					const isDirectory = !tree.files.includes(rel);
					const expected = git.get(rel);
					assert.notEqual(expected, undefined, rel);
					const context = `${JSON.stringify(rootLines)} ${JSON.stringify(nestedLines)} ${JSON.stringify(rel)}${isDirectory ? ' (directory)' : ''}`;
					assert.equal(rulesSay(root, nested, rel, isDirectory), expected, context);
					if (filter) {
						assert.equal(!(await filter.isServed(folder, rel, isDirectory)), expected, `FileFilter: ${context}`);
					}
					compared++;
				}
			}
			assert.ok(compared > 10_000, `compared ${compared}`);
		});
	}
});
