// The body of the search's worker thread (bundled alone as dist/searchWorker.js; ThreadSearchBackend
// starts it): the same index and queries as a LocalSearchBackend, fed and asked by messages. The
// index's work runs in slices here too, so queries are answered while it is being built.
import { parentPort } from 'node:worker_threads';
import { InvalidParams } from '../core/errors';
import { LocalSearchBackend } from '../core/search/localSearchBackend';
import { NodeFileSystem } from './nodeFileSystem';
import { SearchCacheFile } from './searchCacheFile';
import { SearchReply, SearchRequest } from './searchMessages';

/** Least time between writes of the cache after changes: a burst of saves writes it once. */
const SAVE_DELAY_MS = 3 * 60 * 1000;

if (parentPort) {
	const port = parentPort;
	// At the process's own priority, unlike the walk's thread: the whole text is read once, and
	// at a lower priority a busy machine starved that work while searches waited on it. It runs
	// beside the event loop, never on it.
	const backend = new LocalSearchBackend(new NodeFileSystem());
	const reply = (message: SearchReply) => port.postMessage(message);
	// The cache: read at the first list of this process, written once every file of a list is
	// indexed, and after later changes at most once per SAVE_DELAY_MS, once the index is idle.
	let cache: SearchCacheFile | undefined;
	let firstReset = true;
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
	port.on('message', (message: SearchRequest) => {
		switch (message.kind) {
			case 'reset':
				cache = message.cacheDir === undefined ? undefined : new SearchCacheFile(message.cacheDir, (level, text) => reply({ kind: 'log', level, message: text }));
				if (firstReset) {
					firstReset = false;
					const cached = cache?.load(message.setup);
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
