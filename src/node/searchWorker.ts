// The body of the search's worker thread (bundled alone as dist/searchWorker.js; ThreadSearchBackend
// starts it): the same index and queries as a LocalSearchBackend, fed and asked by messages. The
// index's work runs in slices here too, so queries are answered while it is being built.
import { availableParallelism } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { InvalidParams } from '../core/errors';
import { LocalSearchBackend } from '../core/search/localSearchBackend';
import { IndexSetup } from '../core/search/ports';
import { NodeFileSystem } from './nodeFileSystem';
import { SearchCacheFile } from './searchCacheFile';
import { SearchReply, SearchRequest } from './searchMessages';
import { ThreadFileSigners } from './threadFileSigners';

/** Least time between writes of the cache after changes: a burst of saves writes it once. */
const SAVE_DELAY_MS = 3 * 60 * 1000;

if (parentPort) {
	const port = parentPort;
	// At the process's own priority, unlike the walk's thread: the whole text is read once, and
	// at a lower priority a busy machine starved that work while searches waited on it. It runs
	// beside the event loop, never on it.
	const reply = (message: SearchReply) => port.postMessage(message);
	// A second thread reads and signs files beside this one where there is a core for it: one
	// thread reads a tree's text at a fraction of what the disk cache and the cores allow.
	const signers = availableParallelism() > 1 ? new ThreadFileSigners(message => reply({ kind: 'log', level: 'warn', message })) : undefined;
	const backend = new LocalSearchBackend(new NodeFileSystem(), signers);
	// The cache: read at the first list of this process, written once every file of a list is
	// indexed, and after later changes at most once per SAVE_DELAY_MS, once the index is idle.
	let cache: SearchCacheFile | undefined;
	let firstFiles = true;
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
			saveTimer = setTimeout(() => void backend.index.whenIdle().then(() => {
				saveTimer = undefined;
				save();
			}), SAVE_DELAY_MS);
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
	/** The cache named by a list's message, read into the index before this process's first files. */
	const useCache = (message: { setup: IndexSetup; cacheDir?: string }) => {
		cache = message.cacheDir === undefined ? undefined : new SearchCacheFile(message.cacheDir, (level, text) => reply({ kind: 'log', level, message: text }));
		if (firstFiles) {
			firstFiles = false;
			const cached = cache?.load(message.setup);
			if (cached) {
				backend.index.seed(cached);
			}
		}
	};
	port.on('message', (message: SearchRequest) => {
		switch (message.kind) {
			case 'prefetch':
				useCache(message);
				backend.prefetch(message.setup, message.files);
				break;
			case 'reset':
				useCache(message);
				backend.reset(message.setup, message.files);
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
