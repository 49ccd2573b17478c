import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BroadcastChannel } from 'node:worker_threads';
import { Emitter } from '../../../src/common/event';
import { FileBatch, IndexSetup } from '../../../src/core/search/ports';
import { CachedFile } from '../../../src/core/search/searchIndex';
import { decodeSearchCache } from '../../../src/node/searchCacheCodec';
import { SEARCH_CACHE_FILE } from '../../../src/node/searchCacheFile';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { ThreadSearchBackend } from '../../../src/node/threadSearchBackend';
import { HELD_SEARCH_READS, HELD_SEARCH_WORKER } from '../../helpers/heldSearchWorker';
import { listingUnder, LoggedLines } from '../../helpers/indexFixtures';
import { until } from '../../helpers/until';

/** The cache's delay after changes, shortened from 3 minutes so the tests see its writes. */
const SAVE_DELAY_MS = 200;
const FILES = 10;

/** The backend's lines, and how many times the cache was written so far. */
class WorkerLog extends LoggedLines {
	written(): number {
		return this.lines.filter(l => l.startsWith('search index: cache written (')).length;
	}
}

/**
 * The search index's cache written again after changes, by the real worker (its code, over reads
 * the test may hold; test/helpers/heldSearchWorker.ts) with the delay shortened: once per delay,
 * holding the changes, and never while the index has files left to read. Every wait is on the
 * worker's own lines ("cache written", "cache due") or on what the cache holds.
 */
describe('search index cache: written again after changes (real worker, short delay)', function () {
	this.timeout(30_000);
	let scratch: string;
	let root: string;
	let setup: IndexSetup;
	let log: WorkerLog;
	let backend: ThreadSearchBackend;
	let channel: BroadcastChannel;
	const held: string[] = [];
	const heldEmitter = new Emitter<void>();
	let stamp = 0;
	const abs = (rel: string) => path.join(root, ...rel.split('/'));
	const cacheFile = () => path.join(scratch, 'cache', SEARCH_CACHE_FILE);

	const batchOf = (rels: readonly string[]): FileBatch => listingUnder(root, rels);

	/** Writes `rel` with a time of its own, later than any the cache holds, whatever the clock's resolution. */
	function write(rel: string, text: string): void {
		mkdirSync(path.dirname(abs(rel)), { recursive: true });
		writeFileSync(abs(rel), text);
		const at = new Date(Date.now() + 60_000 + ++stamp * 1000);
		utimesSync(abs(rel), at, at);
	}

	function cached(): Map<string, CachedFile> {
		const decoded = decodeSearchCache(readFileSync(cacheFile()), setup);
		assert.ok(typeof decoded !== 'string', `the cache decodes: ${String(decoded)}`);
		return decoded.files;
	}

	/** Whether the cache holds `rel` as it is on disk now (size and time), indexed. */
	function holdsCurrent(files: Map<string, CachedFile>, rel: string): boolean {
		const entry = files.get(rel);
		const stat = statSync(abs(rel));
		return entry !== undefined && entry.size === stat.size && entry.mtimeMs === stat.mtimeMs && entry.signature !== undefined;
	}

	/** Resolves once a write of the cache holds what `holds` asks, checked at each write. */
	function writtenWith(what: string, holds: (files: Map<string, CachedFile>) => boolean): Promise<void> {
		let seen = log.written();
		return until(log.onDidLog, () => {
			if (log.written() === seen) {
				return false;
			}
			seen = log.written();
			return holds(cached());
		}, what);
	}

	beforeEach(async () => {
		scratch = mkdtempSync(path.join(os.tmpdir(), 'mwr-cache-rewrite-'));
		root = realpathSync(mkdtempSync(path.join(scratch, 'ws-')));
		const rels = Array.from({ length: FILES }, (_, i) => `src/file${i}.txt`);
		rels.forEach((rel, i) => write(rel, `plain line ${i}\nword${i}unique here\n`));
		setup = { roots: [{ path: root, realPath: root, name: path.basename(root) }], maxFileSize: 1 << 20 };
		held.length = 0;
		channel = new BroadcastChannel(HELD_SEARCH_READS);
		channel.onmessage = event => {
			held.push((event as { data: { held: string } }).data.held);
			heldEmitter.fire();
		};
		log = new WorkerLog();
		backend = new ThreadSearchBackend(new NodeFileSystem(), log, { script: HELD_SEARCH_WORKER, cacheDir: () => path.join(scratch, 'cache'), saveDelayMs: SAVE_DELAY_MS });
		backend.reset(setup, batchOf(rels));
		await until(log.onDidLog, () => log.written() === 1, 'the first full save', 20_000);
		assert.equal(cached().size, FILES);
	});
	afterEach(() => {
		channel.postMessage({ release: true });
		channel.close();
		backend.dispose();
		rmSync(scratch, { recursive: true, force: true });
	});

	/** A later change, then its write: none came between the last one awaited and this one. */
	async function noWriteBeforeTheNext(writesSoFar: number): Promise<void> {
		write('src/file9.txt', 'the marker change\n');
		backend.update(batchOf(['src/file9.txt']), [], []);
		await writtenWith('the marker change written', files => holdsCurrent(files, 'src/file9.txt'));
		assert.equal(log.written(), writesSoFar + 1, `one write for the marker, none before it: ${log.lines.join(' | ')}`);
	}

	it('a changed file and a removed one: written once, the new signature in, the removed file out', async () => {
		const before = cached();
		write('src/file3.txt', 'rewritten since: freshword3 only\n');
		unlinkSync(abs('src/file5.txt'));
		backend.update(batchOf(['src/file3.txt']), [abs('src/file5.txt')], []);
		await until(log.onDidLog, () => log.written() === 2, 'the cache written again after the change');
		const after = cached();
		assert.ok(holdsCurrent(after, 'src/file3.txt'), 'the changed file as it is now');
		assert.notDeepEqual(after.get('src/file3.txt')!.signature, before.get('src/file3.txt')!.signature, 'with its new text\'s signature');
		assert.equal(after.has('src/file5.txt'), false, 'the removed file gone');
		assert.equal(after.size, FILES - 1);
		await noWriteBeforeTheNext(2);
	});

	it('a burst of changes: one write, holding them all', async () => {
		const burst = ['src/file1.txt', 'src/file2.txt', 'src/file4.txt', 'src/file6.txt', 'src/file8.txt'];
		for (const rel of burst) {
			write(rel, `burst text for ${rel}\n`);
			backend.update(batchOf([rel]), [], []);
		}
		await until(log.onDidLog, () => log.written() === 2, 'the cache written again after the burst');
		const after = cached();
		assert.deepEqual(burst.filter(rel => !holdsCurrent(after, rel)), [], 'every change of the burst in the one write');
		await noWriteBeforeTheNext(2);
	});

	it('no write while the index has a file left to read: the due write waits for it', async () => {
		write('src/file2.txt', 'changed beside a file whose read is held\n');
		write('src/held.txt', 'a new file the index cannot read yet\n');
		backend.update(batchOf(['src/file2.txt', 'src/held.txt']), [], []);
		await until(heldEmitter.event, () => held.length === 1, 'the worker\'s read of held.txt held');
		await until(log.onDidLog, () => log.lines.some(l => l.startsWith('search index: cache due, written once the index is idle (1 left to read)')), 'the delay passed with the read pending');
		assert.equal(log.written(), 1, 'no write while a file is left to read');
		channel.postMessage({ release: true });
		await until(log.onDidLog, () => log.written() === 2, 'the write, once the read is done');
		const after = cached();
		assert.ok(holdsCurrent(after, 'src/held.txt'), 'the file read last is in it');
		assert.ok(holdsCurrent(after, 'src/file2.txt'));
		await noWriteBeforeTheNext(2);
	});
});
