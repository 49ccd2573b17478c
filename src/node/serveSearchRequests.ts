import { MessagePort } from 'node:worker_threads';
import { InvalidParams } from '../core/errors';
import { FileSystemReader } from '../core/ports';
import { LocalSearchBackend } from '../core/search/localSearchBackend';
import { FileSigners } from '../core/search/ports';
import { SeedFiles } from '../core/search/searchIndex';
import { headerOf } from './searchCacheCodec';
import { CacheLog, SearchCacheFile } from './searchCacheFile';
import { SearchReply, SearchRequest } from './searchMessages';

/** Least time between writes of the cache after changes unless the list says: a burst of saves writes it once. */
const SAVE_DELAY_MS = 3 * 60 * 1000;

/**
 * The search's worker thread's work (src/node/searchWorker.ts runs it over the disk): the same
 * index and queries as a LocalSearchBackend, fed and asked by ThreadSearchBackend's messages on
 * `port`, the files read through `reader` (and by `signers`' threads beside it, if given). The
 * index's work runs in slices here too, so queries are answered while it is being built.
 */
export function serveSearchRequests(port: MessagePort, reader: FileSystemReader, signers?: FileSigners): void {
	const backend = new LocalSearchBackend(reader, signers);
	const reply = (message: SearchReply) => port.postMessage(message);
	// The cache: read at the first list of this process, written once every file of a list is
	// indexed, and after later changes at most once per SAVE_DELAY_MS, once the index is idle.
	let cache: SearchCacheFile | undefined;
	let saveDelayMs = SAVE_DELAY_MS;
	let firstReset = true;
	/** The cache as read while the files were walked (`prepare`), for the first list if its setup and folder are the same. */
	let early: { header: string; cacheDir: string; files: SeedFiles | undefined } | undefined;
	const cacheLog: CacheLog = (level, text) => reply({ kind: 'log', level, message: text });
	let saveTimer: NodeJS.Timeout | undefined;
	const save = () => {
		if (saveTimer) {
			clearTimeout(saveTimer);
			saveTimer = undefined;
		}
		cache?.save(backend.index.currentSetup(), backend.index.snapshot());
	};
	const saveLater = () => {
		if (cache && !saveTimer) {
			saveTimer = setTimeout(() => {
				const { indexed, total } = backend.index.progress();
				if (indexed < total) {
					reply({ kind: 'log', level: 'debug', message: `search index: cache due, written once the index is idle (${total - indexed} left to read)` });
				}
				void backend.index.whenIdle().then(() => {
					saveTimer = undefined;
					save();
				});
			}, saveDelayMs);
			saveTimer.unref();
		}
	};
	backend.onDidIndex(report => {
		reply({ kind: 'indexed', report });
		save();
	});
	const answer = (id: number, work: Promise<unknown>) => work.then(
		result => reply({ kind: 'answer', id, result }),
		(err: unknown) => reply(err instanceof InvalidParams
			? { kind: 'invalid', id, message: err.message }
			: { kind: 'failed', id, message: err instanceof Error ? err.message : String(err) }),
	);
	port.on('message', (message: SearchRequest) => {
		switch (message.kind) {
			case 'prepare':
				if (firstReset && message.cacheDir !== undefined) {
					const files = new SearchCacheFile(message.cacheDir, cacheLog).load(message.setup);
					early = { header: headerOf(message.setup), cacheDir: message.cacheDir, files };
					reply({ kind: 'log', level: 'debug', message: `search index: cache read before the list (${files?.files.size ?? 0} files)` });
				}
				break;
			case 'reset':
				cache = message.cacheDir === undefined ? undefined : new SearchCacheFile(message.cacheDir, cacheLog);
				saveDelayMs = message.saveDelayMs ?? SAVE_DELAY_MS;
				if (firstReset) {
					firstReset = false;
					const cached = early !== undefined && early.cacheDir === message.cacheDir && early.header === headerOf(message.setup)
						? early.files
						: cache?.load(message.setup);
					early = undefined;
					if (cached) {
						backend.index.seed(cached);
					}
				}
				backend.reset(message.setup, message.files, message.more);
				break;
			case 'extend':
				backend.extendReset(message.files, message.more);
				break;
			case 'update':
				backend.update(message.changed, message.removed, message.dirty);
				saveLater();
				break;
			case 'text':
				void answer(message.id, backend.text(message.query, message.ranked, message.budgetMs));
				break;
			case 'files':
				void answer(message.id, backend.files(message.query, message.ranked));
				break;
			case 'progress':
				void answer(message.id, backend.progress());
				break;
		}
	});
}
