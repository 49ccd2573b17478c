// The body of the search's worker thread (bundled alone as dist/searchWorker.js; ThreadSearchBackend
// starts it): serveSearchRequests over the disk.
import { parentPort } from 'node:worker_threads';
import { NodeFileSystem } from './nodeFileSystem';
import { serveSearchRequests } from './serveSearchRequests';

if (parentPort) {
	// At the process's own priority, unlike the walk's thread: the whole text is read once, and
	// at a lower priority a busy machine starved that work while searches waited on it. It runs
	// beside the event loop, never on it.
	serveSearchRequests(parentPort, new NodeFileSystem());
}
