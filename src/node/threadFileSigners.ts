import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { FileSigners, SignedFile } from '../core/search/ports';
import { SignReply, SignRequest } from './signerMessages';

/** Next to this file: dist/signerWorker.js in the bundles, the compiled signerWorker.js in tests. */
const WORKER_SCRIPT = path.join(__dirname, 'signerWorker.js');
/** Batches a thread holds at once: one it works on and one waiting, so it never idles between them. */
const BATCHES_PER_THREAD = 3;

interface Pending {
	resolve(results: (SignedFile | undefined)[]): void;
	reject(err: Error): void;
}

/**
 * One thread that reads and signs files for the search index, beside the index's own thread
 * (which keeps reading too, between its queries). Started at the first batch. When it cannot
 * start or stops, its batches fail (the index reads them itself) and it is not used again.
 */
export class ThreadFileSigners implements FileSigners {
	private worker: Worker | undefined;
	private failed = false;
	private readonly pending = new Map<number, Pending>();
	private nextId = 1;

	constructor(private readonly onFailure: (message: string) => void, private readonly script = WORKER_SCRIPT) {}

	/** Whether its thread is running now (started by a batch, stopped by `rest`). */
	get running(): boolean {
		return this.worker !== undefined;
	}

	ready(): boolean {
		return !this.failed && this.pending.size < BATCHES_PER_THREAD;
	}

	sign(paths: readonly string[], maxFileSize: number, sizes?: readonly number[]): Promise<(SignedFile | undefined)[]> {
		const worker = this.started();
		if (!worker) {
			return Promise.reject(new Error('no signer thread'));
		}
		const id = this.nextId++;
		return new Promise((resolve, reject) => {
			this.pending.set(id, { resolve, reject });
			const request: SignRequest = { id, paths, maxFileSize, sizes };
			worker.postMessage(request);
		});
	}

	/**
	 * Stops the thread while nothing is asked of it: its heap and buffers are a large share of the
	 * memory of a built index, and it is needed again only for a bulk of changes (a new list, a
	 * branch switch), when it starts anew.
	 */
	rest(): void {
		if (this.worker && this.pending.size === 0) {
			const worker = this.worker;
			this.worker = undefined;
			void worker.terminate();
		}
	}

	dispose(): void {
		this.fail(undefined, new Error('the search index was stopped'), false);
	}

	private started(): Worker | undefined {
		if (this.worker || this.failed) {
			return this.worker;
		}
		try {
			const worker = new Worker(this.script);
			worker.on('message', (reply: SignReply) => {
				const pending = this.pending.get(reply.id);
				this.pending.delete(reply.id);
				pending?.resolve([...reply.results]);
			});
			worker.on('error', err => this.fail(worker, err, true));
			worker.on('exit', code => this.fail(worker, new Error(`it stopped (exit code ${code})`), true));
			worker.unref();
			this.worker = worker;
		} catch (err) {
			this.fail(undefined, err, true);
		}
		return this.worker;
	}

	private fail(worker: Worker | undefined, err: unknown, say: boolean): void {
		if (this.failed || (worker && worker !== this.worker)) {
			return;
		}
		this.failed = true;
		void this.worker?.terminate();
		this.worker = undefined;
		const error = err instanceof Error ? err : new Error(String(err));
		if (say) {
			this.onFailure(`the search index's signer thread failed (${error.message}); reading in one thread instead`);
		}
		for (const pending of this.pending.values()) {
			pending.reject(error);
		}
		this.pending.clear();
	}
}
