import { Emitter } from '../../common/event';
import { FileSystemReader } from '../ports';
import { FuzzyPaths } from './fuzzyPaths';
import { DirtyText, FileBatch, FileSigners, FilesAnswerData, IndexProgress, IndexReport, IndexSetup, SearchBackend, TextAnswerData } from './ports';
import { SearchIndex } from './searchIndex';
import { FilesQuery, TextQuery } from './searchQuery';
import { searchText } from './textSearch';

/**
 * The search index and its queries in this thread, a slice at a time: what the worker thread
 * runs (src/node/searchWorker.ts), and what a host uses when no worker can start.
 */
export class LocalSearchBackend implements SearchBackend {
	readonly index: SearchIndex;
	private readonly fuzzy: FuzzyPaths;
	private readonly indexedEmitter = new Emitter<IndexReport>();
	readonly onDidIndex = this.indexedEmitter.event;
	private resets = 0;
	private disposed = false;

	/** `signers`: other threads that read and sign files while the index is built (none: this thread alone). */
	constructor(reader: FileSystemReader, private readonly signers?: FileSigners) {
		this.index = new SearchIndex(reader, undefined, signers);
		this.fuzzy = new FuzzyPaths(this.index);
	}

	reset(setup: IndexSetup, files: FileBatch): void {
		const started = performance.now();
		const reset = ++this.resets;
		this.index.reset(setup, files);
		const reused = this.index.reused;
		void this.index.whenIdle().then(() => {
			if (reset === this.resets && !this.disposed) {
				this.indexedEmitter.fire({ ...this.index.progress(), ms: performance.now() - started, reused });
			}
		});
	}

	update(changed: FileBatch, removed: readonly string[], dirty: readonly DirtyText[]): void {
		this.index.update(changed, removed, dirty);
	}

	text(query: TextQuery, ranked: readonly string[], budgetMs: number): Promise<TextAnswerData> {
		return searchText(this.index, query, ranked, budgetMs);
	}

	async files(query: FilesQuery, ranked: readonly string[]): Promise<FilesAnswerData> {
		return this.fuzzy.search(query, ranked);
	}

	async progress(): Promise<IndexProgress> {
		return this.index.progress();
	}

	dispose(): void {
		this.disposed = true;
		this.indexedEmitter.dispose();
		this.index.dispose();
		this.signers?.dispose();
	}
}
