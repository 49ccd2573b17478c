import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger } from '../common/logger';
import { OffThreadWalker, WalkBatch, WalkDone, WalkRequest } from '../core/files/walkBatch';
import { BATCH_APPLIED, WalkWorkerMessage } from './walkMessages';

/** Next to this file: dist/walkWorker.js in the bundles, the compiled walkWorker.js in tests. */
const WORKER_SCRIPT = path.join(__dirname, 'walkWorker.js');

/**
 * Walks in a worker thread (src/node/walkWorker.ts), one per walk, ended when the walk is done,
 * fails or is cancelled: the thread's memory is given back once the index is built. When the
 * worker cannot start or fails, says so in the log and rejects (the index walks in its own thread).
 */
export class ThreadWalker implements OffThreadWalker {
	constructor(private readonly log: Logger, private readonly script = WORKER_SCRIPT) {}

	walk(request: WalkRequest, onBatch: (batch: WalkBatch) => Promise<void>, signal: AbortSignal): Promise<WalkDone> {
		return new Promise<WalkDone>((resolve, reject) => {
			let worker: Worker | undefined;
			let settled = false;
			let doneSent = false;
			/** Batches are applied one at a time, in the order they were posted. */
			let applied = Promise.resolve();
			const finish = (err: unknown, done?: WalkDone) => {
				if (settled) {
					return;
				}
				settled = true;
				signal.removeEventListener('abort', onAbort);
				void worker?.terminate();
				if (done) {
					resolve(done);
					return;
				}
				if (!signal.aborted) {
					this.log.warn(`walking the workspace in a worker thread failed (${err instanceof Error ? err.message : String(err)}); walking in the main thread instead`);
				}
				reject(err instanceof Error ? err : new Error(String(err)));
			};
			const onAbort = () => finish(new Error('the walk was cancelled'));
			if (signal.aborted) {
				onAbort();
				return;
			}
			signal.addEventListener('abort', onAbort, { once: true });
			try {
				worker = new Worker(this.script, { workerData: request });
			} catch (err) {
				finish(err);
				return;
			}
			worker.on('message', (message: WalkWorkerMessage) => {
				if (message.kind === 'batch') {
					applied = applied.then(async () => {
						if (!settled) {
							await onBatch(message.batch);
							worker?.postMessage(BATCH_APPLIED); // the walk waits for these (pacing)
						}
					}).catch(err => finish(err));
				} else if (message.kind === 'done') {
					doneSent = true;
					void applied.then(() => finish(undefined, message.done));
				} else {
					finish(new Error(message.message));
				}
			});
			worker.on('error', err => finish(err));
			worker.on('exit', code => {
				if (!doneSent) {
					finish(new Error(`the worker stopped (exit code ${code}) before the walk was done`));
				}
			});
		});
	}
}
