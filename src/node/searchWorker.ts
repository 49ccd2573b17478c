// The body of the search's worker thread (bundled alone as dist/searchWorker.js; ThreadSearchBackend
// starts it): the same index and queries as a LocalSearchBackend, fed and asked by messages. The
// index's work runs in slices here too, so queries are answered while it is being built.
import { parentPort } from 'node:worker_threads';
import { InvalidParams } from '../core/errors';
import { LocalSearchBackend } from '../core/search/localSearchBackend';
import { NodeFileSystem } from './nodeFileSystem';
import { SearchReply, SearchRequest } from './searchMessages';

if (parentPort) {
	const port = parentPort;
	// At the process's own priority, unlike the walk's thread: the whole text is read once, and
	// at a lower priority a busy machine starved that work while searches waited on it. It runs
	// beside the event loop, never on it.
	const backend = new LocalSearchBackend(new NodeFileSystem());
	const reply = (message: SearchReply) => port.postMessage(message);
	backend.onDidIndex(report => reply({ kind: 'indexed', report }));
	const answer = (id: number, work: Promise<unknown>) => work.then(
		result => reply({ kind: 'answer', id, result }),
		(err: unknown) => reply(err instanceof InvalidParams
			? { kind: 'invalid', id, message: err.message }
			: { kind: 'failed', id, message: err instanceof Error ? err.message : String(err) }),
	);
	port.on('message', (message: SearchRequest) => {
		switch (message.kind) {
			case 'reset':
				backend.reset(message.setup, message.files);
				break;
			case 'update':
				backend.update(message.changed, message.removed, message.dirty);
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
