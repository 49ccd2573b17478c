import * as path from 'node:path';
import { Event } from '../../common/event';
import { IDisposable } from '../../common/lifecycle';
import { FilesQuery, TextQuery } from './searchQuery';

/** A workspace folder as the index reads its files: as named, and its real path (links resolved). */
export interface SearchRoot {
	readonly path: string;
	readonly realPath: string;
	/** What display paths start with in a multi-root workspace (the folder's unique name). */
	readonly name: string;
}

/**
 * Files as the files provider lists them (its one served-or-not rule made the list), joined by
 * NUL: a hundred thousand of them cross to another thread as a string and three arrays, not as
 * an object each. Each file's folder is a number: the index finds a file by its folder and its
 * display path, so the absolute paths (most of the list's characters) are not sent.
 */
export interface FileBatch {
	/** The paths as answers show them (folder-relative, the folder's name first in a multi-root workspace). */
	readonly displays: string;
	/** The folder each file is in (index of `IndexSetup.roots`). */
	readonly folders: Uint16Array;
	readonly sizes: Float64Array;
	readonly mtimes: Float64Array;
}

/** What the index is built for: the folders, and the largest file it reads (`maxFileSize`). */
export interface IndexSetup {
	readonly roots: readonly SearchRoot[];
	readonly maxFileSize: number;
}

/** An open document's unsaved text (undefined: saved or closed again, the disk decides). */
export interface DirtyText {
	readonly path: string;
	readonly text: string | undefined;
}

/** One file of a text answer, with its matched lines (already cut to show). */
export interface TextFileHits {
	readonly path: string;
	readonly display: string;
	readonly hits: readonly { readonly line: number; readonly column: number; readonly text: string }[];
}

/** Why an answer is not complete. */
export type IncompleteReason = 'max' | 'time';

export interface TextAnswerData {
	readonly files: readonly TextFileHits[];
	readonly complete: boolean;
	readonly reason?: IncompleteReason;
	/** Files not indexed yet when the search ran (they were read and searched all the same). */
	readonly unindexed: number;
}

export interface FilesAnswerData {
	readonly files: readonly { readonly path: string; readonly display: string; readonly score: number }[];
	readonly complete: boolean;
}

export interface IndexProgress {
	/** Files whose text the index holds (or has looked at and found binary or too large). */
	readonly indexed: number;
	readonly total: number;
	/** Bytes of text indexed, and of the index (its signatures). */
	readonly textBytes: number;
	readonly indexBytes: number;
}

/**
 * Where the search index lives and queries run: in this thread (`LocalSearchBackend`) or in a
 * worker thread (`src/node/threadSearchBackend.ts`). It is told which files to hold by the
 * files provider's list and changes; it never decides what is served.
 */
export interface SearchBackend extends IDisposable {
	/**
	 * The whole set of files to index (after the files index was built or rebuilt), in one batch
	 * or in parts: with `more`, the list goes on in `extendReset` calls, the last without `more`,
	 * so no thread holds the whole list at once. Until the last part, the list before is searched.
	 */
	reset(setup: IndexSetup, files: FileBatch, more?: boolean): void;
	/** The next part of the list a `reset` with `more` began (none begun: nothing to do). */
	extendReset(files: FileBatch, more?: boolean): void;
	/** Files written or made, files gone (absolute paths), and open documents' unsaved text. */
	update(changed: FileBatch, removed: readonly string[], dirty: readonly DirtyText[]): void;
	/** `ranked`: absolute paths of the relevance ranking, searched first in that order. */
	text(query: TextQuery, ranked: readonly string[], budgetMs: number): Promise<TextAnswerData>;
	files(query: FilesQuery, ranked: readonly string[]): Promise<FilesAnswerData>;
	progress(): Promise<IndexProgress>;
	/**
	 * A list for `setup` is on its way (the files index has begun to be built): what needs no list
	 * (reading the index an earlier process cached) is done meanwhile. Optional.
	 */
	prepare?(setup: IndexSetup): void;
	/** The backend lost what it was told (its worker stopped and another took over): tell it again. */
	readonly onDidRestart?: Event<void>;
	/** Every file of a new list is indexed: how many, and how long it took since the list came. */
	readonly onDidIndex?: Event<IndexReport>;
}

export interface IndexReport extends IndexProgress {
	readonly ms: number;
	/** Files whose signature came from the cache an earlier process wrote (not read again). */
	readonly reused?: number;
}

/** A file another thread read and signed for the index. */
export interface SignedFile {
	/**
	 * Where the opened file really is when its name was a link (`ListedRead`): taken only if
	 * that is a file the index holds.
	 */
	readonly realPath?: string;
	readonly size: number;
	/** Undefined: nothing to search in it (binary, over the cap, not a file). */
	readonly signature: Int32Array | undefined;
}

/**
 * Threads beside the index's own that read and sign files (`src/node/threadFileSigners.ts`):
 * reading a tree's text is system calls and hashing, which one thread does at a fraction of
 * what the cores can. The index keeps deciding what it holds; these only read.
 */
export interface FileSigners {
	/** Whether another batch would start soon (a batch waits behind at most one other). */
	ready(): boolean;
	/**
	 * The files' signatures, in order; undefined for one that could not be opened (gone).
	 * `sizes`: each file's size as listed, which spares a stat of each file that still has it.
	 */
	sign(paths: readonly string[], maxFileSize: number, sizes?: readonly number[]): Promise<(SignedFile | undefined)[]>;
	/** Nothing is left to read: let go of what the threads hold until more comes. */
	rest(): void;
	dispose(): void;
}

/** Strings joined in one step at most: joining a million at once holds the thread for its whole length. */
const JOIN_CHUNK = 4096;

/**
 * Joins files into a batch (the sender's side) one file at a time, so that a caller working in
 * slices holds no object per file and never joins the whole list in one step.
 */
export class FileBatchBuilder {
	private displays: string[] = [];
	private readonly displayChunks: string[] = [];
	private folders: Uint16Array;
	private sizes: Float64Array;
	private mtimes: Float64Array;
	private count = 0;

	/**
	 * `expected`: about how many files will be added (more may be). `roots`: the folders, in the
	 * order of `IndexSetup.roots`, to tell each file's folder by its path (none: all in the first).
	 */
	constructor(expected: number, private readonly roots: readonly { readonly path: string }[] = []) {
		this.folders = new Uint16Array(Math.max(expected, 16));
		this.sizes = new Float64Array(this.folders.length);
		this.mtimes = new Float64Array(this.folders.length);
	}

	/** Files added so far. */
	get length(): number {
		return this.count;
	}

	add(file: { path: string; display: string; size: number; mtimeMs: number }): void {
		if (this.count === this.sizes.length) {
			this.folders = grown(this.folders, new Uint16Array(this.count * 2));
			this.sizes = grown(this.sizes, new Float64Array(this.count * 2));
			this.mtimes = grown(this.mtimes, new Float64Array(this.count * 2));
		}
		this.displays.push(file.display);
		this.folders[this.count] = this.roots.length > 1 ? folderOf(this.roots, file.path) : 0;
		this.sizes[this.count] = file.size;
		this.mtimes[this.count] = file.mtimeMs;
		this.count++;
		if (this.displays.length === JOIN_CHUNK) {
			this.joinChunk();
		}
	}

	build(): FileBatch {
		this.joinChunk();
		const full = this.count === this.sizes.length;
		return {
			displays: this.displayChunks.join('\0'),
			folders: full ? this.folders : this.folders.slice(0, this.count),
			sizes: full ? this.sizes : this.sizes.slice(0, this.count),
			mtimes: full ? this.mtimes : this.mtimes.slice(0, this.count),
		};
	}

	private joinChunk(): void {
		if (this.displays.length > 0) {
			this.displayChunks.push(this.displays.join('\0'));
			this.displays = [];
		}
	}
}

function grown<T extends Uint16Array | Float64Array>(numbers: T, larger: T): T {
	larger.set(numbers);
	return larger;
}

/** The folder (index of `roots`) a listed path lies in: the longest root it is in. */
function folderOf(roots: readonly { readonly path: string }[], absPath: string): number {
	let best = 0;
	let bestLength = -1;
	roots.forEach((root, i) => {
		if ((absPath === root.path || absPath.startsWith(withSep(root.path))) && root.path.length > bestLength) {
			best = i;
			bestLength = root.path.length;
		}
	});
	return best;
}

function withSep(dir: string): string {
	return dir.endsWith(path.sep) ? dir : dir + path.sep;
}

/** The files of a batch (the receiver's side). */
export function batchFiles(batch: FileBatch): { display: string; folder: number; size: number; mtimeMs: number }[] {
	if (batch.sizes.length === 0) {
		return [];
	}
	return batch.displays.split('\0').map((display, i) => ({ display, folder: batch.folders[i], size: batch.sizes[i], mtimeMs: batch.mtimes[i] }));
}
