import { Emitter } from '../../common/event';
import { Disposable } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { searchSorted } from '../pager';
import { ResourceProvider, SortedEntries } from '../resource';
import { fileUriToPath } from '../uriGuard';
import { FileSymbols, nameAt, packSymbols } from './fileSymbols';
import { NameMatch } from './nameMatch';
import { DeclarationSource, SymbolSearch, SymbolSearchResult, WorkspaceSymbol, WorkspaceSymbolSource } from './ports';
import { baseName, sourceText } from './sourceText';
import { SYMBOL_KINDS } from './symbolKinds';
import { SymbolShards } from './symbolShards';

/** The files provider, as the index reads it: its list, its reads (the served-or-not rule) and its changes. */
export type IndexedFiles = Pick<ResourceProvider, 'list' | 'read' | 'onDidChange' | 'ready'>;

export interface SymbolIndexLimits {
	/** Symbols held in all; files past it are not indexed (searches then say they are not complete). */
	readonly maxSymbols: number;
	/** Symbols held of one file (a generated file can declare tens of thousands). */
	readonly maxPerFile: number;
	/** Files read at once while indexing. */
	readonly readsAtOnce: number;
	/** How long the search that starts the index waits for it before answering from what it has. */
	readonly firstSearchWaitMs: number;
}

/** Longest run of indexing between two turns of the event loop. */
const SLICE_MS = 10;

export const DEFAULT_INDEX_LIMITS: SymbolIndexLimits = { maxSymbols: 2_000_000, maxPerFile: 5_000, readsAtOnce: 8, firstSearchWaitMs: 1_000 };

interface Candidate {
	readonly file: FileSymbols;
	readonly index: number;
	readonly match: NameMatch;
}

/**
 * Every served source file's declarations, from the grammars, for symbol searches without an
 * editor. Built in the background on the first search (a host nobody asks for symbols parses
 * nothing), from the files provider's list and reads, a few files at a time; then kept current
 * from its change events (a file written, created, deleted, or newly ignored). Searches never
 * touch the disk: they scan the packed names (FileSymbols), and stop at their deadline.
 */
export class SymbolIndex extends Disposable implements WorkspaceSymbolSource {
	private readonly changeEmitter = this._register(new Emitter<void>());
	readonly onDidChange = this.changeEmitter.event;
	private readonly files = new SymbolShards();
	private symbols = 0;
	/** Files left out because the index was full. */
	private skipped = 0;
	private readonly pending = new Set<string>();
	private building: Promise<void> | undefined;
	private built = false;
	private draining = false;
	private progress = { done: 0, total: 0 };
	private sliceStart = 0;

	constructor(
		private readonly source: IndexedFiles,
		private readonly grammars: DeclarationSource,
		private readonly log?: Logger,
		private readonly limits: SymbolIndexLimits = DEFAULT_INDEX_LIMITS,
	) {
		super();
		this._register(source.onDidChange(change => {
			if (!this.building) {
				return; // not asked for yet: the first build reads everything as it is then
			}
			const listed = this.source.list();
			for (const uri of change.updated) {
				// A change names each file by its own (listed) URI and also by every other spelling a
				// client subscribed to it with (`%73rc`, a path through a linked directory), so that
				// subscriber is told. Only the own URI is the file here, or one spelling would be a
				// second entry of it; a URI held but no longer listed is a file gone or newly ignored.
				if ((this.files.get(uri) || isListed(listed, uri)) && this.grammars.languageOf(baseName(uri))) {
					this.pending.add(uri);
				}
			}
			void this.drain();
		}));
	}

	/** Starts building, once. */
	start(): Promise<void> {
		this.building ??= this.build();
		return this.building;
	}

	/** Files and symbols held (tests, logs, the bench). */
	get size(): { files: number; symbols: number } {
		return { files: this.files.size, symbols: this.symbols };
	}

	get isBuilt(): boolean {
		return this.built;
	}

	async search(request: SymbolSearch): Promise<SymbolSearchResult> {
		// The search that starts the index waits a little for it (a small workspace is done by
		// then); the ones after answer at once from what it holds so far.
		const first = this.building === undefined;
		const building = this.start();
		if (first && !this.built) {
			let timer: NodeJS.Timeout | undefined;
			const wait = Math.max(0, Math.min(this.limits.firstSearchWaitMs, request.deadline - performance.now()));
			await Promise.race([building, new Promise<void>(resolve => { timer = setTimeout(resolve, wait); })]).finally(() => clearTimeout(timer));
		}
		const kinds = request.kinds ? Uint8Array.from(SYMBOL_KINDS, k => (request.kinds!.has(k) ? 1 : 0)) : undefined;
		const query = request.query;
		let candidates: Candidate[] = [];
		let strong = 0;
		const inTime = this.files.search(query,
			// Once more names contain the query than are wanted, looser matches can never rank.
			() => strong <= request.max,
			() => performance.now() <= request.deadline,
			(file, index, match) => {
				if (kinds && kinds[file.kinds[index]] === 0) {
					return;
				}
				candidates.push({ file, index, match });
				if (match !== NameMatch.Fuzzy) {
					strong++;
				}
				if (candidates.length > 50_000) {
					candidates = best(candidates, request.max + 1); // bounded, whatever the query
				}
			});
		const outOfTime = !inTime;
		const found = candidates.length;
		const symbols = best(candidates, request.max).map(c => toSymbol(c.file, c.index));
		const notes: string[] = [];
		if (!this.built) {
			notes.push(`the symbol index is still being built (${this.progress.done.toLocaleString('en-US')} of ${this.progress.total.toLocaleString('en-US')} files looked at)`);
		}
		if (outOfTime) {
			notes.push('the search ran out of time');
		}
		if (this.skipped > 0) {
			notes.push(`${this.skipped.toLocaleString('en-US')} files are not indexed: the index holds at most ${this.limits.maxSymbols.toLocaleString('en-US')} symbols`);
		}
		return { symbols, complete: this.built && !outOfTime && this.skipped === 0 && found <= request.max, ...(notes.length ? { note: notes.join('; ') } : {}) };
	}

	private async build(): Promise<void> {
		const started = performance.now();
		await this.source.ready();
		const list = this.source.list();
		this.progress = { done: 0, total: list.length };
		let batch: string[] = [];
		for (let i = 0; i < list.length && !this.isDisposed; i++) {
			const uri = list.at(i)?.uri;
			this.progress.done = i + 1;
			if (uri && this.grammars.languageOf(baseName(uri))) {
				batch.push(uri);
			}
			if (batch.length >= this.limits.readsAtOnce) {
				await this.indexBatch(batch);
				batch = [];
			}
		}
		await this.indexBatch(batch);
		this.built = true;
		this.log?.info(`indexed ${this.symbols} symbols of ${this.files.size} files in ${Math.round(performance.now() - started)} ms`);
		this.changeEmitter.fire();
		void this.drain();
	}

	/** Re-indexes the files changes named, a batch at a time, once the first build is done. */
	private async drain(): Promise<void> {
		if (this.draining || !this.built) {
			return;
		}
		this.draining = true;
		try {
			while (this.pending.size > 0 && !this.isDisposed) {
				const batch = [...this.pending].slice(0, this.limits.readsAtOnce);
				batch.forEach(uri => this.pending.delete(uri));
				await this.indexBatch(batch);
				if (this.pending.size === 0) {
					this.changeEmitter.fire();
				}
			}
		} finally {
			this.draining = false;
		}
	}

	/**
	 * Reads a batch at once (I/O overlaps), then parses one file after the other, then gives the
	 * event loop a turn when this slice has run long: reads of small files are synchronous, so
	 * without it a whole build is one chain of promises and no request is answered until it ends.
	 */
	private async indexBatch(uris: readonly string[]): Promise<void> {
		if (performance.now() - this.sliceStart > SLICE_MS) {
			await new Promise(resolve => setImmediate(resolve));
			this.sliceStart = performance.now();
		}
		const texts = await Promise.all(uris.map(uri => sourceText(this.source, fileUriToPath(uri)).catch(() => ({ kind: 'not-found' as const }))));
		for (let i = 0; i < uris.length && !this.isDisposed; i++) {
			const text = texts[i];
			const absPath = fileUriToPath(uris[i]);
			const language = this.grammars.languageOf(baseName(absPath));
			if (text.kind !== 'text' || !language) {
				this.remove(uris[i]);
				continue;
			}
			try {
				const packed = packSymbols(absPath, await this.grammars.parse(language, text.text), this.limits.maxPerFile);
				const old = this.files.get(uris[i])?.count ?? 0;
				if (this.symbols - old + packed.count > this.limits.maxSymbols) {
					this.remove(uris[i]);
					this.skipped++;
					continue;
				}
				this.files.set(uris[i], packed);
				this.symbols += packed.count - old;
			} catch (err) {
				this.remove(uris[i]);
				this.log?.warn(`could not parse ${baseName(absPath)} for symbols: ${String(err)}`);
			}
		}
	}

	private remove(uri: string): void {
		const old = this.files.get(uri);
		if (old) {
			this.files.delete(uri);
			this.symbols -= old.count;
		}
	}
}

/** Whether `uri` itself is in the URI-sorted list (a binary search: changes come in bursts). */
function isListed(entries: SortedEntries, uri: string): boolean {
	return entries.at(searchSorted(entries, uri))?.uri === uri;
}

/** The `max` best candidates: closest match, then shortest name, then by path and line. */
function best(candidates: Candidate[], max: number): Candidate[] {
	const length = (c: Candidate) => c.file.starts[c.index + 1] - c.file.starts[c.index];
	candidates.sort((a, b) => a.match - b.match || length(a) - length(b)
		|| (a.file.absPath < b.file.absPath ? -1 : a.file.absPath > b.file.absPath ? 1 : 0) || a.index - b.index);
	return candidates.length > max ? candidates.slice(0, max) : candidates;
}

function toSymbol(file: FileSymbols, i: number): WorkspaceSymbol {
	const container = file.containers[i];
	return {
		name: nameAt(file, i),
		kind: SYMBOL_KINDS[file.kinds[i]],
		...(container >= 0 ? { container: nameAt(file, container) } : {}),
		absPath: file.absPath,
		range: { start: { line: file.lines[2 * i], character: 0 }, end: { line: file.lines[2 * i + 1], character: 0 } },
	};
}
