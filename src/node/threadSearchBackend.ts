import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Emitter } from '../common/event';
import { Logger } from '../common/logger';
import { InvalidParams } from '../core/errors';
import { FileSystemReader } from '../core/ports';
import { LocalSearchBackend } from '../core/search/localSearchBackend';
import { DirtyText, FileBatch, FilesAnswerData, IndexProgress, IndexReport, IndexSetup, SearchBackend, TextAnswerData } from '../core/search/ports';
import { FilesQuery, TextQuery } from '../core/search/searchQuery';
import { SearchReply, SearchRequest } from './searchMessages';

/** Next to this file: dist/searchWorker.js in the bundles, the compiled searchWorker.js in tests. */
const WORKER_SCRIPT = path.join(__dirname, 'searchWorker.js');

/**
 * The worker's space for new objects. Its work makes short-lived views, buffers and strings that a
 * small young generation collects as well; V8's default reserved several times as much, which
 * stayed resident beside the index.
 */
const YOUNG_GENERATION_MB = 8;

interface Pending {
	resolve(result: unknown): void;
	reject(err: Error): void;
}

/**
 * The search index in a worker thread (src/node/searchWorker.ts): reading every served file and
 * searching the text are CPU work that would otherwise hold the event loop the server (and, in
 * the editor, every extension) runs on, and a regex over a large tree runs for a while however
 * linear. The worker starts with the first list of files. When it cannot start or stops, the
 * log says why and the index moves into this thread (sliced), fed again from the files.
 */
export class ThreadSearchBackend implements SearchBackend {
	private worker: Worker | undefined;
	private local: LocalSearchBackend | undefined;
	private readonly pending = new Map<number, Pending>();
	private nextId = 1;
	private disposed = false;
	private readonly restartEmitter = new Emitter<void>();
	readonly onDidRestart = this.restartEmitter.event;
	private readonly indexedEmitter = new Emitter<IndexReport>();
	readonly onDidIndex = this.indexedEmitter.event;

	private readonly script: string;
	private readonly cacheDir: () => string | undefined;
	private readonly saveDelayMs: number | undefined;

	/**
	 * `cacheDir`: where the worker keeps the index between processes, asked at each new list
	 * (undefined: no cache is read or written, as in Restricted Mode or with `--no-cache`).
	 * `saveDelayMs`: least time between the cache's writes after changes (default 3 minutes;
	 * tests shorten it).
	 */
	constructor(private readonly reader: FileSystemReader, private readonly log: Logger, options: { script?: string; cacheDir?: () => string | undefined; saveDelayMs?: number } = {}) {
		this.script = options.script ?? WORKER_SCRIPT;
		this.cacheDir = options.cacheDir ?? (() => undefined);
		this.saveDelayMs = options.saveDelayMs;
	}

	reset(setup: IndexSetup, files: FileBatch, more?: boolean): void {
		this.post({ kind: 'reset', setup, files, more, cacheDir: this.cacheDir(), saveDelayMs: this.saveDelayMs }, () => this.local!.reset(setup, files, more));
	}

	extendReset(files: FileBatch, more?: boolean): void {
		this.post({ kind: 'extend', files, more }, () => this.local!.extendReset(files, more));
	}

	update(changed: FileBatch, removed: readonly string[], dirty: readonly DirtyText[]): void {
		this.post({ kind: 'update', changed, removed, dirty }, () => this.local!.update(changed, removed, dirty));
	}

	text(query: TextQuery, ranked: readonly string[], budgetMs: number): Promise<TextAnswerData> {
		return this.ask(id => ({ kind: 'text', id, query, ranked, budgetMs }), local => local.text(query, ranked, budgetMs));
	}

	files(query: FilesQuery, ranked: readonly string[]): Promise<FilesAnswerData> {
		return this.ask(id => ({ kind: 'files', id, query, ranked }), local => local.files(query, ranked));
	}

	/**
	 * Starts the worker while the files index is walked, and has it read the cache then: both came
	 * after the walk, ahead of the index, and a reopened window waited for them.
	 */
	prepare(setup: IndexSetup): void {
		this.post({ kind: 'prepare', setup, cacheDir: this.cacheDir() }, () => undefined);
	}

	progress(): Promise<IndexProgress> {
		return this.ask(id => ({ kind: 'progress', id }), local => local.progress());
	}

	dispose(): void {
		this.disposed = true;
		void this.worker?.terminate();
		this.worker = undefined;
		this.local?.dispose();
		this.failPending(new Error('the search index was stopped'));
		this.restartEmitter.dispose();
		this.indexedEmitter.dispose();
	}

	private post(message: SearchRequest, locally: () => void): void {
		if (this.disposed) {
			return;
		}
		const worker = this.local ? undefined : this.started();
		if (worker) {
			const batches = [message.kind === 'reset' || message.kind === 'extend' ? message.files : message.kind === 'update' ? message.changed : undefined].filter(b => b !== undefined);
			worker.postMessage(message, batches.flatMap(b => [b.folders.buffer, b.sizes.buffer, b.mtimes.buffer]) as ArrayBuffer[]);
		} else if (this.local) {
			locally();
		}
	}

	private ask<T>(message: (id: number) => SearchRequest, locally: (local: LocalSearchBackend) => Promise<T>): Promise<T> {
		if (this.disposed) {
			return Promise.reject(new Error('the search index was stopped'));
		}
		const worker = this.local ? undefined : this.started();
		if (!worker) {
			return locally(this.local!);
		}
		const id = this.nextId++;
		return new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
			worker.postMessage(message(id));
		});
	}

	/** The worker, started on first use; undefined once it could not start (the index is local then). */
	private started(): Worker | undefined {
		if (this.worker) {
			return this.worker;
		}
		try {
			const worker = new Worker(this.script, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
			worker.on('message', (reply: SearchReply) => this.onReply(reply));
			worker.on('error', err => this.fallBack(worker, err));
			worker.on('exit', code => this.fallBack(worker, new Error(`the worker stopped (exit code ${code})`)));
			worker.unref();
			this.worker = worker;
			return worker;
		} catch (err) {
			this.fallBack(undefined, err);
			return undefined;
		}
	}

	private onReply(reply: SearchReply): void {
		if (reply.kind === 'indexed') {
			this.indexedEmitter.fire(reply.report);
			return;
		}
		if (reply.kind === 'log') {
			this.log[reply.level](reply.message);
			return;
		}
		const pending = this.pending.get(reply.id);
		if (!pending) {
			return;
		}
		this.pending.delete(reply.id);
		if (reply.kind === 'answer') {
			pending.resolve(reply.result);
		} else if (reply.kind === 'invalid') {
			pending.reject(new InvalidParams(reply.message));
		} else {
			pending.reject(new Error(reply.message));
		}
	}

	/** The worker failed: answers in flight fail, and the index is built again in this thread. */
	private fallBack(worker: Worker | undefined, err: unknown): void {
		if (this.disposed || (worker && worker !== this.worker) || this.local) {
			return;
		}
		this.worker = undefined;
		this.log.warn(`the search index's worker thread failed (${err instanceof Error ? err.message : String(err)}); indexing in the main thread instead`);
		this.local = new LocalSearchBackend(this.reader);
		this.local.onDidIndex(report => this.indexedEmitter.fire(report));
		this.failPending(new Error('the search index restarted'));
		this.restartEmitter.fire();
	}

	private failPending(err: Error): void {
		for (const pending of this.pending.values()) {
			pending.reject(err);
		}
		this.pending.clear();
	}
}
