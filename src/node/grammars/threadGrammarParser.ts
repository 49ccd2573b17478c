import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger } from '../../common/logger';
import { Declaration, DeclarationSource, GrammarLanguage } from '../../core/symbols/ports';
import { GrammarWorkerData, ParseAnswer, ParseRequest } from './grammarMessages';
import { TreeSitterParser } from './treeSitterParser';

/** Next to this file: dist/grammarWorker.js in the bundles, the compiled grammarWorker.js in tests. */
const WORKER_SCRIPT = path.join(__dirname, 'grammarWorker.js');

/**
 * Texts up to this many characters parse in this thread: the round trip to the worker costs more
 * than their parse (the headless symbol index of 100,000 small files, parsed one after another,
 * took nearly twice as long through the worker; docs/performance.md), and tree-sitter reads 3-5 MB
 * of code a second, so such a parse holds the thread some 20 ms at most.
 */
const IN_THREAD_MAX_CHARS = 64 * 1024;

interface Pending {
	readonly language: GrammarLanguage;
	readonly text: string;
	resolve(declarations: readonly Declaration[]): void;
	reject(err: Error): void;
}

/**
 * Parses large texts in a worker thread (grammarWorker.ts). Tree-sitter's parse and its queries are
 * synchronous: a 5 MB TypeScript file held the thread that asked for 3.5 s, a 16 MB one (ranges
 * and signatures read files that large) past the HTTP server's 10 s header timeout, so every
 * other client's request waited or was reset, and in the editor every extension waited. The
 * worker starts with the first parse and stays (each grammar loads in it once); it does not keep
 * the process alive. When it cannot start, or stops, parses (those under way too) are made in
 * this thread from then on, as small texts always are.
 */
export class ThreadGrammarParser implements DeclarationSource {
	private worker: Worker | undefined;
	private readonly pending = new Map<number, Pending>();
	private nextId = 0;
	/** This thread's parser (nothing loads until its first parse): small texts, and all once the worker could not be used. */
	private readonly inThread: TreeSitterParser;
	private workerFailed = false;
	private disposed = false;

	constructor(private readonly grammarDir: string, private readonly log: Logger, private readonly script = WORKER_SCRIPT) {
		this.inThread = new TreeSitterParser(grammarDir);
	}

	languageOf(fileName: string): GrammarLanguage | undefined {
		return this.inThread.languageOf(fileName);
	}

	languageNames(): readonly string[] {
		return this.inThread.languageNames();
	}

	parse(language: GrammarLanguage, text: string): Promise<readonly Declaration[]> {
		const worker = text.length > IN_THREAD_MAX_CHARS && !this.workerFailed ? this.started() : undefined;
		if (!worker) {
			return this.inThread.parse(language, text);
		}
		const id = this.nextId++;
		return new Promise<readonly Declaration[]>((resolve, reject) => {
			this.pending.set(id, { language, text, resolve, reject });
			worker.postMessage({ id, languageId: language.id, text } satisfies ParseRequest);
		});
	}

	dispose(): void {
		this.disposed = true;
		this.stop(new Error('the grammars were disposed'));
	}

	private started(): Worker | undefined {
		if (this.worker || this.disposed) {
			return this.worker;
		}
		let worker: Worker;
		try {
			worker = new Worker(this.script, { workerData: { grammarDir: this.grammarDir } satisfies GrammarWorkerData });
		} catch (err) {
			this.log.warn(`grammars: no worker thread (${err instanceof Error ? err.message : String(err)}); parsing in this thread`);
			this.workerFailed = true;
			return undefined;
		}
		worker.unref();
		worker.on('message', (answer: ParseAnswer) => {
			const pending = this.pending.get(answer.id);
			this.pending.delete(answer.id);
			if ('failed' in answer) {
				pending?.reject(new Error(answer.failed));
			} else {
				pending?.resolve(answer.declarations);
			}
		});
		const failed = (err: Error) => {
			if (this.worker !== worker) {
				return;
			}
			this.log.warn(`grammars: the worker thread stopped (${err.message}); parsing in this thread`);
			const asked = [...this.pending.values()];
			this.pending.clear();
			this.stop(err);
			this.workerFailed = true;
			for (const p of asked) {
				this.inThread.parse(p.language, p.text).then(p.resolve, p.reject);
			}
		};
		worker.on('error', failed);
		worker.on('exit', code => failed(new Error(`exit code ${code}`)));
		this.worker = worker;
		return worker;
	}

	private stop(err: Error): void {
		const worker = this.worker;
		this.worker = undefined;
		void worker?.terminate();
		for (const pending of this.pending.values()) {
			pending.reject(err);
		}
		this.pending.clear();
	}
}
