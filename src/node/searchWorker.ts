// The body of the search's worker thread (bundled alone as dist/searchWorker.js; ThreadSearchBackend
// starts it): serveSearchRequests over the disk.
import { availableParallelism } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { NodeFileSystem } from './nodeFileSystem';
import { SearchReply } from './searchMessages';
import { serveSearchRequests } from './serveSearchRequests';
import { ThreadFileSigners } from './threadFileSigners';

if (parentPort) {
	const port = parentPort;
	// At the process's own priority, unlike the walk's thread: the whole text is read once, and
	// at a lower priority a busy machine starved that work while searches waited on it. It runs
	// beside the event loop, never on it. A second thread reads and signs files beside this one
	// where there is a core for it: one thread reads a tree's text at a fraction of what the disk
	// cache and the cores allow.
	const signers = availableParallelism() > 1 ? new ThreadFileSigners(message => port.postMessage({ kind: 'log', level: 'warn', message } satisfies SearchReply)) : undefined;
	serveSearchRequests(port, new NodeFileSystem(), signers);
}
