import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseGitignore } from '../../../src/core/files/gitignoreRules';
import { SecretMatcher } from '../../../src/core/files/secretMatcher';
import { fileUri } from '../../../src/core/uriGuard';
import { connectInMemory, createTestServer, listAll } from '../../helpers/harness';
import { cliStdio } from '../../helpers/headlessHost';

/** Removes a directory; `rmSync` recurses once per level and overflows the stack 2,000 levels down. */
function removeTree(dir: string): void {
	try {
		rmSync(dir, { recursive: true, force: true });
	} catch {
		execFileSync('rm', ['-rf', dir]);
	}
}

/**
 * Rules and settings a cloned folder brings that once stalled the server: the matchers compiled
 * globs to backtracking regular expressions, and some lookups were cubic in a tree's depth. Each
 * test here timed out (mocha's timeout) before the matcher became git's linear-time algorithm.
 */
describe('rules a folder brings cannot stall the server', () => {
	let root: string;
	let home: string;
	beforeEach(() => {
		root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-patho-')));
		home = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-patho-home-')));
	});
	afterEach(() => {
		removeTree(root);
		rmSync(home, { recursive: true, force: true });
	});

	const write = (rel: string, text = 'x') => {
		mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
		writeFileSync(path.join(root, rel), text);
	};

	/** A path with each run of `d/` written as its count, so that a failure prints short. */
	const short = (rel: string) => rel.replace(/(?:d\/)+/g, run => `d/×${run.length / 2}/`);

	/** The files `serve` lists for `root` (not its relevance resource), with runs of `d/` shortened. */
	async function listedBy(args: string[], shorten = short): Promise<string[]> {
		const client = new Client({ name: 'patho', version: '1' });
		await client.connect(new StdioClientTransport(cliStdio(['serve', '--root', root, '--stdio', ...args], home)));
		try {
			return (await listAll(client)).filter(r => r.uri.startsWith('file:')).map(r => shorten(r.name)).sort();
		} finally {
			await client.close();
		}
	}

	it('lists through `serve` a folder whose .gitignore holds a pattern that backtracks exponentially against a long name', async () => {
		write('.gitignore', '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n');
		write(`${'a'.repeat(200)}.txt`);
		write('aaaaaaaaaaaaaaab');
		write('kept.md');
		assert.deepEqual(await listedBy([]), ['.gitignore', `${'a'.repeat(200)}.txt`, 'kept.md']);
	});

	it('lists through `serve` a tree of 600 nested `build` directories under an exclude glob with three ** (once 100 s)', async () => {
		const deep = 'build/'.repeat(600);
		write(`${deep}x.ts`);
		write(`${deep}y.js`);
		write('build/z.js');
		write('build/build/z.js');
		const listed = await listedBy(['--exclude', '**/build/**/build/**/*.js'], name => name.replace(/(?:build\/)+/, run => `build/×${run.length / 6}/`));
		assert.deepEqual(listed, ['build/×1/z.js', 'build/×600/x.ts']);
	});

	it('indexes and reads a tree 2,000 directories deep in time linear in its depth', async () => {
		const levels = Array.from({ length: 2000 }, () => 'd');
		write('.gitignore', '*.log\n');
		const files = [1000, 1250, 1500, 1750, 2000].map(depth => `${levels.slice(0, depth).join('/')}/f.txt`);
		for (const file of files) {
			write(file);
			write(file.replace(/f\.txt$/, 'f.log'));
		}
		const server = createTestServer([root]);
		const conn = await connectInMemory(server.registry);
		try {
			assert.deepEqual((await listAll(conn.client)).map(r => short(r.name)).sort(), ['.gitignore', ...files].map(short).sort());
			// Each read checks every ancestor: that was cubic in depth too (3 s for the deepest).
			for (const file of [...files, ...files]) {
				const read = await conn.client.readResource({ uri: fileUri(path.join(root, file)) });
				assert.equal((read.contents[0] as { text?: string }).text, 'x');
			}
		} finally {
			await conn.close();
			server.dispose();
		}
	});

	it('indexes a folder whose .gitignore holds 50,000 rules without trying each rule on each file', async () => {
		const rules: string[] = [];
		for (let i = 0; i < 10_000; i++) {
			rules.push(`name-${i}.txt`, `dir-${i}/`, `*.ext${i}`, `/top-${i}.md`, `deep/**/x-${i}.js`);
		}
		write('.gitignore', rules.join('\n'));
		const expected = ['.gitignore'];
		for (let i = 0; i < 1000; i++) {
			write(`src/name-${i * 7}.txt`);
			write(`src/kept-${i}.txt`);
			write(`src/f.ext${i * 3}`);
			write(`deep/a/x-${i}.js`);
			write(`sub/top-${i}.md`);
			expected.push(`src/kept-${i}.txt`, `sub/top-${i}.md`);
		}
		const server = createTestServer([root]);
		const conn = await connectInMemory(server.registry);
		try {
			assert.deepEqual((await listAll(conn.client)).map(r => r.name).sort(), expected.sort());
		} finally {
			await conn.close();
			server.dispose();
		}
	});

	it('reads 300,000 copies of two rules, and 100,000 distinct *.ext rules or secrets, without comparing each with the others', () => {
		const repeated = parseGitignore(Array.from({ length: 300_000 }, (_, i) => (i % 2 ? '*.log' : 'node_modules')).join('\n'))!;
		assert.deepEqual([repeated.testName('a.log', false).ignored, repeated.testName('node_modules', true).ignored, repeated.testName('a.ts', false).ignored], [true, true, false]);
		const extensions = Array.from({ length: 100_000 }, (_, i) => `*.e${i}`);
		const distinct = parseGitignore(extensions.join('\n'))!;
		const secrets = new SecretMatcher(extensions);
		for (let i = 0; i < 20_000; i++) {
			assert.equal(distinct.testName(`f.e${i * 5}`, false).ignored, true);
			assert.equal(distinct.testName(`f.x${i}`, false).ignored, false);
			assert.equal(secrets.matchesIn('', `F.E${i * 5}`, false), true);
			assert.equal(secrets.matchesIn('', `f.x${i}`, false), false);
		}
	});
});
