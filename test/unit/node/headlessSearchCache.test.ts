import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { IndexSetup } from '../../../src/core/search/ports';
import { decodeSearchCache } from '../../../src/node/searchCacheCodec';
import { SEARCH_CACHE_FILE } from '../../../src/node/searchCacheFile';
import { defaultSearchCacheDir } from '../../../src/node/searchCacheDir';
import { EraClient, httpEraClients } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { CLI, exited } from '../../helpers/headlessHost';
import { readSearch, textUri } from '../../helpers/searchServer';

const FILES = 40;

interface Run {
	readonly child: ChildProcess;
	readonly clients: EraClient[];
	/** The "search index: ..." line once every file is indexed. */
	readonly indexed: string;
	readonly stderr: string[];
	stop(): Promise<void>;
}

/** Polls a condition on the disk (a file the worker writes), failing after `ms`. */
async function waitFor(what: string, holds: () => boolean, ms = 20_000): Promise<void> {
	const deadline = Date.now() + ms;
	while (!holds()) {
		assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
		await new Promise(resolve => setTimeout(resolve, 25)); // the next look at the condition
	}
}

/** The headless host over HTTP with `args`, once its search index holds every file; a client of each era. */
async function serve(root: string, env: NodeJS.ProcessEnv, args: string[]): Promise<Run> {
	const child = spawn(process.execPath, [CLI, 'serve', '--root', root, '--http', '--log-level', 'info', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
	const stderr: string[] = [];
	const indexed = new Promise<string>((resolve, reject) => {
		createInterface({ input: child.stderr! }).on('line', line => {
			stderr.push(line);
			if (line.includes('search index: ') && line.includes(' files, ')) {
				resolve(line);
			}
		});
		child.once('exit', code => reject(new Error(`host exited with ${code}: ${stderr.join('\n')}`)));
	});
	const first = await new Promise<string>((resolve, reject) => {
		createInterface({ input: child.stdout! }).once('line', resolve);
		child.once('exit', code => reject(new Error(`host exited with ${code}`)));
	});
	const { url, token } = JSON.parse(first) as { url: string; token: string };
	const line = await indexed;
	const clients = await httpEraClients(url, token);
	return {
		child, clients, indexed: line, stderr,
		stop: async () => {
			await Promise.all(clients.map(c => c.close()));
			child.kill('SIGTERM');
			await exited(child);
		},
	};
}

/** Paths (sorted) holding `q` in every era's answer, which must agree. */
async function found(run: Run, q: string): Promise<string[]> {
	const answers = await Promise.all(run.clients.map(async c => (await readSearch(c, textUri(q))).files.map(f => f.path).sort()));
	assert.deepEqual(answers[1], answers[0], `both eras answer ${q} alike`);
	return answers[0];
}

/** How many files the index took from the cache, by its log line. */
function reusedOf(line: string): number {
	return Number(/\((\d+) from the cache\)/.exec(line)?.[1] ?? 0);
}

/**
 * The search index kept between runs of the real headless host (`serve --cache-dir`), asked
 * through SDK clients of both eras: a restart reads only what changed while it was down.
 */
describe('headless search index cache (built CLI, both eras)', function () {
	this.timeout(120_000);
	let fx: Fixture;
	let scratch: string;
	let cacheDir: string;
	let env: NodeJS.ProcessEnv;
	const runs: Run[] = [];
	const cacheFile = () => path.join(cacheDir, SEARCH_CACHE_FILE);

	beforeEach(() => {
		fx = createFixture();
		for (let i = 0; i < FILES; i++) {
			fx.write(`src/file${i}.txt`, `plain line ${i}\nword${i}unique here\n`);
		}
		fx.write('.env', 'API_KEY=hushhushcachevalue\n');
		fx.write('.gitignore', 'ignored/\n');
		fx.write('ignored/notes.txt', 'ignoredcachedword\n');
		scratch = mkdtempSync(path.join(os.tmpdir(), 'mwr-search-cache-'));
		cacheDir = path.join(scratch, 'cache', 'search');
		env = { ...process.env, MCP_WORKSPACE_RESOURCES_HOME: path.join(scratch, 'home'), XDG_CACHE_HOME: path.join(scratch, 'xdg') };
	});
	afterEach(async () => {
		await Promise.all(runs.splice(0).map(r => r.stop()));
		fx.dispose();
		rmSync(scratch, { recursive: true, force: true });
	});

	async function start(args = ['--cache-dir', cacheDir]): Promise<Run> {
		const run = await serve(fx.root, env, args);
		runs.push(run);
		return run;
	}

	async function stop(run: Run): Promise<void> {
		runs.splice(runs.indexOf(run), 1);
		await run.stop();
	}

	/** A first run that writes the cache, stopped once it is on disk. */
	async function coldRun(): Promise<void> {
		const run = await start();
		assert.equal(reusedOf(run.indexed), 0, run.indexed);
		await waitFor('the cache file', () => existsSync(cacheFile()));
		assert.deepEqual(await found(run, 'word7unique'), ['src/file7.txt']);
		await stop(run);
	}

	it('a restart reuses what did not change, rereads a changed file and forgets a deleted one', async () => {
		await coldRun();
		const written = statSync(cacheFile()).mtimeMs;
		fx.write('src/file3.txt', 'rewritten while the host was down: freshword3 only\n');
		// A time the cache cannot hold for it, whatever the clock's resolution.
		utimesSync(fx.file('src/file3.txt'), new Date(), new Date(Date.now() + 60_000));
		unlinkSync(fx.file('src/file5.txt'));
		const run = await start();
		const listed = Number(/search index: (\d+) files/.exec(run.indexed)![1]);
		assert.equal(reusedOf(run.indexed), listed - 1, `all but the changed file came from the cache: ${run.indexed}`);
		assert.deepEqual(await found(run, 'freshword3'), ['src/file3.txt'], 'found by its new text');
		assert.deepEqual(await found(run, 'word3unique'), [], 'not by its old');
		assert.deepEqual(await found(run, 'word5unique'), [], 'a deleted file is not answered');
		assert.deepEqual(await found(run, 'word9unique'), ['src/file9.txt'], 'a reused signature still finds its file');
		await waitFor('the cache written again', () => statSync(cacheFile()).mtimeMs !== written);
	});

	it('a restart reads the cache while its files are walked, before the list comes', async () => {
		await coldRun();
		const run = await start(['--cache-dir', cacheDir, '--log-level', 'debug']);
		const listed = Number(/search index: (\d+) files/.exec(run.indexed)![1]);
		const early = run.stderr.findIndex(l => l.includes(`search index: cache read before the list (${listed} files)`));
		assert.ok(early >= 0, `the worker read the cache when the files index began: ${run.stderr.join('\n')}`);
		assert.ok(early < run.stderr.indexOf(run.indexed), 'before the index was built');
		assert.equal(reusedOf(run.indexed), listed, run.indexed);
		assert.deepEqual(await found(run, 'word9unique'), ['src/file9.txt']);
	});

	it('a corrupt or truncated cache is ignored (one line says so), answers stay right, and it is rewritten', async () => {
		await coldRun();
		for (const [what, damage, reason] of [
			['random bytes', () => writeFileSync(cacheFile(), randomBytes(5000)), 'not a cache file'],
			['truncated', () => truncateSync(cacheFile(), Math.floor(statSync(cacheFile()).size / 2)), 'damaged'],
		] as const) {
			damage();
			const damaged = readFileSync(cacheFile());
			const run = await start();
			assert.equal(reusedOf(run.indexed), 0, `${what}: ${run.indexed}`);
			assert.ok(run.stderr.some(l => l.includes(`its cache was not used (${reason}); building it afresh`)), `${what}: ${run.stderr.join('\n')}`);
			assert.deepEqual(await found(run, 'word11unique'), ['src/file11.txt'], what);
			await waitFor(`${what}: a new cache`, () => !readFileSync(cacheFile()).equals(damaged));
			assert.ok(readFileSync(cacheFile()).subarray(0, 7).equals(Buffer.from('MWRSIDX')), what);
			await stop(run);
		}
		const run = await start();
		assert.ok(reusedOf(run.indexed) > 0, `the rewritten cache is used: ${run.indexed}`);
	});

	it('holds no secret or ignored file, nor any text; folder 0700, file 0600', async () => {
		await coldRun();
		const bytes = readFileSync(cacheFile());
		for (const needle of ['.env', 'hushhushcachevalue', 'API_KEY', 'ignored/notes', 'ignoredcachedword', 'word7unique', 'plain line']) {
			assert.equal(bytes.includes(needle), false, `the cache holds ${needle}`);
		}
		assert.ok(bytes.includes('src/file7.txt'), 'it does hold the served files\' paths');
		assert.equal(statSync(cacheDir).mode & 0o777, 0o700);
		assert.equal(statSync(cacheFile()).mode & 0o777, 0o600);
		const setup: IndexSetup = { roots: [{ path: fx.root, realPath: fx.root, name: path.basename(fx.root) }], maxFileSize: 1_048_576 };
		const decoded = decodeSearchCache(bytes, setup);
		assert.ok(typeof decoded !== 'string', `decodes for the served root: ${String(decoded)}`);
		assert.ok([...decoded.files.keys()].every(d => !d.includes('.env') && !d.startsWith('ignored/')));
	});

	it('--no-cache writes nothing; by default it goes under $XDG_CACHE_HOME', async () => {
		const off = await start(['--no-cache']);
		assert.deepEqual(await found(off, 'word2unique'), ['src/file2.txt']);
		await stop(off);
		assert.equal(existsSync(path.join(scratch, 'xdg')), false, 'nothing under the cache home');
		assert.equal(existsSync(cacheDir), false);
		const byDefault = await start([]);
		const dir = defaultSearchCacheDir([fx.root], env);
		assert.ok(dir.startsWith(path.join(scratch, 'xdg', 'mcp-workspace-resources', 'search') + path.sep), dir);
		await waitFor('the default cache file', () => existsSync(path.join(dir, SEARCH_CACHE_FILE)));
		assert.deepEqual(readdirSync(path.join(scratch, 'xdg', 'mcp-workspace-resources', 'search')), [path.basename(dir)]);
		await stop(byDefault);
	});
});
