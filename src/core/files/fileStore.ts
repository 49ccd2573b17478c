import * as path from 'node:path';
import { inFourDigitYears, isoDate } from '../isoDate';
import { mimeTypeForName } from '../mime';
import { plainConstructor } from '../plainConstructor';
import { ResourceEntry, SortedEntries } from '../resource';
import { compare, DirectoryTable } from './directoryTable';
import { FileEntry } from './fileEntry';
import { GrowArray } from './growArray';
import { NameBuffer } from './nameBuffer';
import { ArrivalOrder, treeOrder } from './treeOrder';

/** A file entry's annotations as the index builds them (see `plainConstructor` for why not a literal). */
const FileTimes = plainConstructor<[string], NonNullable<ResourceEntry['annotations']>>(function (lastModified) {
	this.lastModified = lastModified;
});

/** A listed file as the search index takes it: no URI, entry or date string is made for it. */
export interface StoredFile {
	/** Its absolute path, as the walk found it. */
	readonly path: string;
	/** The name clients see (`name` of its entry). */
	readonly display: string;
	readonly size: number;
	readonly mtimeMs: number;
}

/** The committed files in URI order as `StoredFile`s, and any file (pending too) by its URI. */
export interface StoredFiles {
	readonly length: number;
	at(index: number): StoredFile;
	uriAt(index: number): string;
	/** First position whose URI is not less than `uri` (or greater, with `after`). */
	search(uri: string, after: boolean): number;
	find(uri: string): StoredFile | undefined;
}

/** A slot that holds no file (freed, or never used). */
const FREE = 0xffffffff;

/**
 * The files of an index in a compact form: per file a directory number, a name (UTF-8 bytes in
 * one buffer), a size and a time in typed arrays (a fraction of an entry object in a map), and
 * the URI order as an array of file numbers. URIs, names and entries are built only for what a
 * caller asks for (a page, a search step).
 *
 * The order is the URI order (code units) of the files: a walk of the directory tree visiting
 * each directory's files and subdirectories by encoded name, where a subdirectory's name counts
 * with a trailing `/`. That is exactly how the full URIs compare, so one small sort per directory
 * replaces a sort of all URIs. Changes are collected and merged in one pass (`commit`).
 */
export class FileStore {
	readonly dirs: DirectoryTable;
	private readonly names = new NameBuffer();
	private readonly dirOf = new GrowArray('uint32');
	private readonly sizes = new GrowArray('float64');
	private readonly mtimes = new GrowArray('float64');
	private slots = 0;
	private readonly freeSlots: number[] = [];
	private live = 0;
	/** File numbers in URI order; only its first `orderLength` items count. */
	private order: Uint32Array = new Uint32Array(0);
	private orderLength = 0;
	/** Added since the last `commit`, by URI: not yet in `order`. */
	private readonly pending = new Map<string, number>();
	/** Removed since the last `commit`: still in `order` until then, but no longer found. */
	private readonly removed = new Set<number>();
	/** Until the first `sortAll`: which directories' files came in key order. */
	private arrival: ArrivalOrder | undefined = new ArrivalOrder();
	/** Counts changes (see `version`). */
	private changes = 0;

	constructor(folderNames: readonly string[], multiRoot: boolean) {
		this.dirs = new DirectoryTable(folderNames, multiRoot);
	}

	/** Files present (committed or pending, removals applied). */
	get size(): number {
		return this.live;
	}

	/**
	 * Changes with every change to the files, committed or not (an update shows in entries at
	 * once): a page built at one version is what a page built later at the same version holds.
	 */
	get version(): number {
		return this.changes;
	}

	/** Adds a file. It is found at once, and listed after the next `commit` (or `sortAll`). */
	add(dir: number, name: string, size: number, mtimeMs: number, uri?: string): number {
		this.changes++;
		const reused = this.freeSlots.pop();
		const slot = reused ?? this.nextSlot();
		this.arrival?.note(dir, this.dirs.encode(this.dirs.get(dir), name), reused !== undefined);
		this.dirs.hold(dir);
		this.dirOf.set(slot, dir);
		this.names.set(slot, name);
		this.sizes.set(slot, size);
		this.mtimes.set(slot, mtimeMs);
		this.live++;
		if (uri !== undefined) {
			this.pending.set(uri, slot);
		}
		return slot;
	}

	update(slot: number, size: number, mtimeMs: number): void {
		this.changes++;
		this.sizes.set(slot, size);
		this.mtimes.set(slot, mtimeMs);
	}

	/** Removes a file; listing drops it at the next `commit`. */
	remove(slot: number, uri: string): void {
		this.changes++;
		if (this.pending.delete(uri)) {
			this.release(slot);
		} else if (!this.removed.has(slot)) {
			this.removed.add(slot);
			this.live--;
		}
	}

	/** The file number of a URI, or -1. */
	find(uri: string): number {
		const pending = this.pending.get(uri);
		if (pending !== undefined) {
			return pending;
		}
		const i = this.search(uri, false);
		if (i < this.orderLength) {
			const slot = this.order[i];
			if (!this.removed.has(slot) && this.uriOf(slot) === uri) {
				return slot;
			}
		}
		return -1;
	}

	/** File numbers and URIs of the files below a directory URI (committed and pending). */
	below(directoryUri: string): { slot: number; uri: string }[] {
		const prefix = directoryUri.endsWith('/') ? directoryUri : `${directoryUri}/`;
		const found: { slot: number; uri: string }[] = [];
		for (let i = this.search(prefix, false); i < this.orderLength; i++) {
			const slot = this.order[i];
			const uri = this.uriOf(slot);
			if (!uri.startsWith(prefix)) {
				break;
			}
			if (!this.removed.has(slot)) {
				found.push({ slot, uri });
			}
		}
		for (const [uri, slot] of this.pending) {
			if (uri.startsWith(prefix)) {
				found.push({ slot, uri });
			}
		}
		return found;
	}

	uriOf(slot: number): string {
		return this.dirs.fileUri(this.dirs.get(this.dirOf.get(slot)), this.nameOf(slot));
	}

	entryOf(slot: number): ResourceEntry {
		const dir = this.dirs.get(this.dirOf.get(slot));
		const name = this.nameOf(slot);
		// No `title`: it would only repeat the last segment of `name`, and clients show `name`
		// when there is no title.
		return new FileEntry(this.dirs.fileUri(dir, name), dir.namePrefix + name, mimeTypeForName(name), this.sizes.get(slot), new FileTimes(isoDate(inFourDigitYears(this.mtimes.get(slot)))));
	}

	/**
	 * Whether the slot's entry shows this size and modification time, without building the
	 * entry: the time as listed, to the millisecond (`isoDate` truncates as `Date` does).
	 */
	listsSizeAndTime(slot: number, size: number, mtimeMs: number): boolean {
		return this.sizes.get(slot) === size && Math.trunc(this.mtimes.get(slot)) === Math.trunc(mtimeMs);
	}

	/** The name a client sees for a file (`name` of its entry), without building the entry. */
	displayName(slot: number): string {
		return this.dirs.get(this.dirOf.get(slot)).namePrefix + this.nameOf(slot);
	}

	/** The directory's part of `displayName`, for callers that test names per directory. */
	displayPrefixOf(slot: number): string {
		return this.dirs.get(this.dirOf.get(slot)).namePrefix;
	}

	/** The file's directory number: for as long as the file is in the store, since a released number is used again. */
	dirNumberOf(slot: number): number {
		return this.dirOf.get(slot);
	}

	nameOf(slot: number): string {
		return this.names.get(slot);
	}

	/** The committed files in URI order, entries built per item asked for. */
	readonly view: SortedEntries = new StoreView(this);

	/** The same files as `StoredFile`s, for work that needs paths and not entries. */
	readonly files: StoredFiles = new StoredFileView(this);

	storedFile(slot: number): StoredFile {
		const dir = this.dirs.get(this.dirOf.get(slot));
		const name = this.nameOf(slot);
		return {
			path: dir.absPath.endsWith(path.sep) ? dir.absPath + name : `${dir.absPath}${path.sep}${name}`,
			display: dir.namePrefix + name,
			size: this.sizes.get(slot),
			mtimeMs: this.mtimes.get(slot),
		};
	}

	/** The committed file at a position of the order. */
	slotAt(index: number): number {
		return this.order[index];
	}

	get committedLength(): number {
		return this.orderLength;
	}

	/** First position whose URI is not less than `uri` (or greater, with `after`). */
	search(uri: string, after: boolean): number {
		let lo = 0;
		let hi = this.orderLength;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			const midUri = this.uriOf(this.order[mid]);
			if (midUri < uri || (after && midUri === uri)) {
				lo = mid + 1;
			} else {
				hi = mid;
			}
		}
		return lo;
	}

	/**
	 * Orders every file from scratch (after the first walk). `pause` is awaited between
	 * directories so the event loop is never held.
	 */
	async sortAll(pause: () => Promise<void> | undefined): Promise<void> {
		this.changes++;
		this.pending.clear();
		for (const slot of this.removed) {
			this.release(slot);
		}
		this.removed.clear();
		const arrival = this.arrival;
		this.arrival = undefined;
		const order = await treeOrder({
			dirs: this.dirs,
			dirOf: this.dirOf,
			slotCount: this.slots,
			free: FREE,
			keyOf: slot => this.dirs.encode(this.dirs.get(this.dirOf.get(slot)), this.nameOf(slot)),
			isOrdered: dir => arrival?.isOrdered(dir) ?? false,
			uriOf: slot => this.uriOf(slot),
		}, pause);
		this.changes++;
		this.order = order;
		this.orderLength = order.length;
		// Directories the walk found empty stay until the first commit: the watcher is handed
		// every directory walked (`FileIndex.directories`), empty ones too.
		this.dirs.walked();
	}

	/**
	 * Makes the changes since the last commit visible in the order: removed files leave, added
	 * ones are merged in by URI. One pass over the order, however many changed; the search for
	 * where added files go gives the event loop turns (`pause`), and nothing may change the
	 * store until it is done.
	 */
	async commit(pause: () => Promise<void> | undefined): Promise<void> {
		if (this.pending.size === 0 && this.removed.size === 0) {
			// A batch that listed nothing may still have interned directories for files it found
			// hidden (`node_modules/.cache/<hash>/x`) or for directories it found empty.
			await this.dirs.releaseUnheld(pause);
			return;
		}
		// Where each added file goes, by binary search in the old order (URIs are built for
		// those steps only), then one copy of the runs between.
		const added = [...this.pending].sort((a, b) => compare(a[0], b[0]));
		const at = new Uint32Array(added.length);
		for (let a = 0; a < added.length; a++) {
			at[a] = this.search(added[a][0], false);
			const wait = (a & 0xff) === 0xff ? pause() : undefined;
			if (wait) {
				await wait;
			}
		}
		const gone = new Uint8Array(this.removed.size > 0 ? this.slots : 0);
		for (const slot of this.removed) {
			gone[slot] = 1;
		}
		const next = new Uint32Array(this.orderLength - this.removed.size + added.length);
		let n = 0;
		let from = 0;
		const copyUpTo = (end: number) => {
			if (gone.length === 0) {
				next.set(this.order.subarray(from, end), n);
				n += end - from;
			} else {
				for (let i = from; i < end; i++) {
					const slot = this.order[i];
					if (gone[slot] === 0) {
						next[n++] = slot;
					}
				}
			}
			from = end;
		};
		for (let a = 0; a < added.length; a++) {
			copyUpTo(at[a]);
			next[n++] = added[a][1];
		}
		copyUpTo(this.orderLength);
		for (const slot of this.removed) {
			this.release(slot);
		}
		this.removed.clear();
		this.pending.clear();
		this.changes++;
		this.order = next;
		this.orderLength = n;
		// After the released files let go of their directories; nothing in the order is in one
		// of those, so readers in the sweep's pauses see no difference.
		await this.dirs.releaseUnheld(pause);
		await this.names.compact(this.slots, pause);
	}

	private release(slot: number): void {
		this.dirs.drop(this.dirOf.get(slot));
		this.dirOf.set(slot, FREE);
		this.names.release(slot);
		this.freeSlots.push(slot);
	}

	private nextSlot(): number {
		const slot = this.slots++;
		this.dirOf.reserve(this.slots);
		this.sizes.reserve(this.slots);
		this.mtimes.reserve(this.slots);
		this.names.reserve(this.slots);
		return slot;
	}
}

class StoreView implements SortedEntries {
	constructor(private readonly store: FileStore) {}

	get length(): number {
		return this.store.committedLength;
	}

	at(index: number): ResourceEntry | undefined {
		return index >= 0 && index < this.store.committedLength ? this.store.entryOf(this.store.slotAt(index)) : undefined;
	}

	search(uri: string, after: boolean): number {
		return this.store.search(uri, after);
	}

	get version(): number {
		return this.store.version;
	}
}

class StoredFileView implements StoredFiles {
	constructor(private readonly store: FileStore) {}

	get length(): number {
		return this.store.committedLength;
	}

	at(index: number): StoredFile {
		return this.store.storedFile(this.store.slotAt(index));
	}

	uriAt(index: number): string {
		return this.store.uriOf(this.store.slotAt(index));
	}

	search(uri: string, after: boolean): number {
		return this.store.search(uri, after);
	}

	find(uri: string): StoredFile | undefined {
		const slot = this.store.find(uri);
		return slot < 0 ? undefined : this.store.storedFile(slot);
	}
}
