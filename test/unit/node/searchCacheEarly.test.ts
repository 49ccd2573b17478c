import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileBatch, IndexReport, IndexSetup, TextAnswerData } from '../../../src/core/search/ports';
import { SEARCH_CACHE_FILE } from '../../../src/node/searchCacheFile';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { ThreadSearchBackend } from '../../../src/node/threadSearchBackend';
import { TextQuery } from '../../../src/core/search/searchQuery';
import { listingUnder, LoggedLines } from '../../helpers/indexFixtures';
import { until } from '../../helpers/until';

const FILES = 12;

const query = (q: string): TextQuery => ({ kind: 'text', q, regex: false, caseSensitive: false, word: false, globs: [], max: 200 });

/**
 * The search worker reads the cache an earlier process wrote while the files index is still being
 * walked (`prepare`), not after the list comes: a reopened window then waits for the walk alone.
 * What was read early is used only for a list of the same folders and read cap.
 */
describe('search index cache: read while the files are walked (real worker)', function () {
	this.timeout(30_000);
	let scratch: string;
	let root: string;
	let cacheDir: string;
	let setup: IndexSetup;
	const backends: ThreadSearchBackend[] = [];
	const rels = Array.from({ length: FILES }, (_, i) => `src/file${i}.txt`);
	const abs = (rel: string) => path.join(root, ...rel.split('/'));

	const batchOf = (rels: readonly string[]): FileBatch => listingUnder(root, rels);

	/** A backend over the disk keeping its cache in `cacheDir` (none with `cached` false), and its first index report. */
	function backendWith(log: LoggedLines, cached = true): { backend: ThreadSearchBackend; indexed: Promise<IndexReport> } {
		const backend = new ThreadSearchBackend(new NodeFileSystem(), log, { cacheDir: () => cached ? cacheDir : undefined });
		backends.push(backend);
		const indexed = new Promise<IndexReport>(resolve => backend.onDidIndex(resolve));
		return { backend, indexed };
	}

	async function found(backend: ThreadSearchBackend, q: string): Promise<string[]> {
		const answer: TextAnswerData = await backend.text(query(q), [], 10_000);
		return answer.files.map(f => f.path).sort();
	}

	beforeEach(async () => {
		scratch = mkdtempSync(path.join(os.tmpdir(), 'mwr-cache-early-'));
		root = realpathSync(mkdtempSync(path.join(scratch, 'ws-')));
		cacheDir = path.join(scratch, 'cache');
		mkdirSync(path.join(root, 'src'));
		rels.forEach((rel, i) => writeFileSync(abs(rel), `plain line ${i}\nword${i}unique here\n`));
		setup = { roots: [{ path: root, realPath: root, name: path.basename(root) }], maxFileSize: 1 << 20 };
		// An earlier process: builds the index and writes its cache.
		const log = new LoggedLines();
		const { backend, indexed } = backendWith(log);
		backend.reset(setup, batchOf(rels));
		assert.equal((await indexed).reused ?? 0, 0);
		await until(log.onDidLog, () => log.has('search index: cache written ('), 'the cache written');
		backend.dispose();
	});
	afterEach(() => {
		backends.splice(0).forEach(b => b.dispose());
		rmSync(scratch, { recursive: true, force: true });
	});

	it('takes every file from the cache it read before the list came', async () => {
		const log = new LoggedLines();
		const { backend, indexed } = backendWith(log);
		backend.prepare(setup);
		await until(log.onDidLog, () => log.has(`search index: cache read before the list (${FILES} files)`), 'the early read');
		// Gone by the time the list comes: only what was read early can give the files.
		renameSync(path.join(cacheDir, SEARCH_CACHE_FILE), path.join(scratch, 'moved-away'));
		backend.reset(setup, batchOf(rels));
		const report = await indexed;
		assert.equal(report.reused, FILES, `every file from the early read: ${log.lines.join(' | ')}`);
		assert.deepEqual(await found(backend, 'word7unique'), [abs('src/file7.txt')]);
	});

	it('does not use what it read early for a list with another read cap', async () => {
		const log = new LoggedLines();
		const { backend, indexed } = backendWith(log);
		backend.prepare(setup);
		await until(log.onDidLog, () => log.has(`search index: cache read before the list (${FILES} files)`), 'the early read');
		backend.reset({ ...setup, maxFileSize: 1 << 19 }, batchOf(rels));
		const report = await indexed;
		assert.equal(report.reused ?? 0, 0, `nothing from a cache made for another cap: ${log.lines.join(' | ')}`);
		assert.deepEqual(await found(backend, 'word3unique'), [abs('src/file3.txt')]);
	});

	it('reads nothing early without a cache folder, and still indexes the list', async () => {
		const log = new LoggedLines();
		const { backend, indexed } = backendWith(log, false);
		backend.prepare(setup);
		backend.reset(setup, batchOf(rels));
		const report = await indexed;
		assert.equal(report.reused ?? 0, 0);
		assert.equal(log.has('search index: cache read before the list'), false);
		assert.ok(existsSync(path.join(cacheDir, SEARCH_CACHE_FILE)), 'the earlier cache is left as it was');
		assert.deepEqual(await found(backend, 'word5unique'), [abs('src/file5.txt')]);
	});
});
