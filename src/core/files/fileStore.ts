import * as path from 'node:path';
import { isoDate } from '../isoDate';
import { mimeTypeForName } from '../mime';
import { ResourceEntry, SortedEntries } from '../resource';
import { fileUri } from '../uriGuard';

/** A slot that holds no file (freed, or never used). */
const FREE = 0xffffffff;

/** Names that `pathToFileURL` leaves as they are, so a URI is the directory's URI plus the name. */
const PLAIN_NAME = /^[A-Za-z0-9._!$&'()*+,;=@-]+$/;

interface Directory {
	readonly folder: number;
	/** Workspace-relative path with `/` separators ('' for a folder root). */
	readonly rel: string;
	/** Absolute path, as the walk spelled it. */
	readonly absPath: string;
	readonly uri: string;
	/** What list entries put before a file name: the display path of the directory and `/`. */
	readonly namePrefix: string;
	/** Sort key among its siblings: the encoded name and `/` (empty for a folder root). */
	readonly key: string;
	readonly parent: number;
}

/**
 * The files of an index in a compact form: per file a directory number, a name (UTF-8 bytes in
 * one buffer), a size and a time in typed arrays (about 50 bytes a file, against 600 for an
 * entry object in a map), and the URI order as an array of file numbers. URIs, names and
 * entries are built only for what a caller asks for (a page, a search step).
 *
 * The order is the URI order (code units) of the files: a walk of the directory tree visiting
 * each directory's files and subdirectories by encoded name, where a subdirectory's name counts
 * with a trailing `/`. That is exactly how the full URIs compare, so one small sort per directory
 * replaces a sort of all URIs. Changes are collected and merged in one pass (`commit`).
 */
export class FileStore {
	private readonly dirs: Directory[] = [];
	private readonly dirIds = new Map<string, number>();
	/**
	 * File names as UTF-8 in one buffer (start and length per file): a million names as
	 * strings would be a million objects for the collector to copy and mark, and twice the bytes.
	 */
	private nameBytes = Buffer.allocUnsafe(1 << 16);
	private nameUsed = 0;
	/** Bytes of names of removed files, reclaimed by `compactNames`. */
	private nameDead = 0;
	private nameStart = new Uint32Array(1024);
	private nameLength = new Uint32Array(1024);
	private dirOf = new Uint32Array(1024);
	private sizes = new Float64Array(1024);
	private mtimes = new Float64Array(1024);
	private slots = 0;
	private readonly freeSlots: number[] = [];
	private live = 0;
	/** File numbers in URI order; only its first `orderLength` items count. */
	private order = new Uint32Array(0);
	private orderLength = 0;
	/** Added since the last `commit`, by URI: not yet in `order`. */
	private readonly pending = new Map<string, number>();
	/** Removed since the last `commit`: still in `order` until then, but no longer found. */
	private readonly removed = new Set<number>();

	constructor(private readonly folderNames: readonly string[], private readonly multiRoot: boolean) {}

	/** Files present (committed or pending, removals applied). */
	get size(): number {
		return this.live;
	}

	/** The directory of a workspace folder's root. */
	root(folder: number, absPath: string): number {
		return this.intern(absPath, () => ({
			folder, rel: '', absPath, uri: fileUri(absPath), namePrefix: this.multiRoot ? `${this.folderNames[folder]}/` : '', key: '', parent: -1,
		}));
	}

	/** The subdirectory `name` of a directory, remembered from now on. */
	child(parent: number, name: string): number {
		const p = this.dirs[parent];
		const absPath = p.absPath.endsWith(path.sep) ? p.absPath + name : `${p.absPath}${path.sep}${name}`;
		return this.intern(absPath, () => {
			const encoded = this.encode(p, absPath, name);
			return {
				folder: p.folder, rel: p.rel ? `${p.rel}/${name}` : name, absPath, uri: `${this.uriBase(p)}${encoded}`, namePrefix: `${p.namePrefix}${name}/`, key: `${encoded}/`, parent,
			};
		});
	}

	dirPath(dir: number): string {
		return this.dirs[dir].absPath;
	}

	/** Every directory seen, in the order first seen. */
	*directoryPaths(): Iterable<string> {
		for (const dir of this.dirs) {
			yield dir.absPath;
		}
	}

	dirFolder(dir: number): number {
		return this.dirs[dir].folder;
	}

	dirRel(dir: number): string {
		return this.dirs[dir].rel;
	}


	/** Adds a file. It is found at once, and listed after the next `commit` (or `sortAll`). */
	add(dir: number, name: string, size: number, mtimeMs: number, uri?: string): number {
		const slot = this.freeSlots.pop() ?? this.nextSlot();
		this.dirOf[slot] = dir;
		this.setName(slot, name);
		this.sizes[slot] = size;
		this.mtimes[slot] = mtimeMs;
		this.live++;
		if (uri !== undefined) {
			this.pending.set(uri, slot);
		}
		return slot;
	}

	update(slot: number, size: number, mtimeMs: number): void {
		this.sizes[slot] = size;
		this.mtimes[slot] = mtimeMs;
	}

	/** Removes a file; listing drops it at the next `commit`. */
	remove(slot: number, uri: string): void {
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
		const dir = this.dirs[this.dirOf[slot]];
		const name = this.nameOf(slot);
		return `${this.uriBase(dir)}${this.encode(dir, undefined, name)}`;
	}

	entryOf(slot: number): ResourceEntry {
		const dir = this.dirs[this.dirOf[slot]];
		const name = this.nameOf(slot);
		// No `title`: it would only repeat the last segment of `name`, and clients show `name`
		// when there is no title.
		return {
			uri: `${this.uriBase(dir)}${this.encode(dir, undefined, name)}`,
			name: dir.namePrefix + name,
			mimeType: mimeTypeForName(name),
			size: this.sizes[slot],
			annotations: { lastModified: isoDate(this.mtimes[slot]) },
		};
	}

	/** The name a client sees for a file (`name` of its entry), without building the entry. */
	displayName(slot: number): string {
		return this.dirs[this.dirOf[slot]].namePrefix + this.nameOf(slot);
	}

	/** The directory's part of `displayName`, for callers that test names per directory. */
	displayPrefixOf(slot: number): string {
		return this.dirs[this.dirOf[slot]].namePrefix;
	}

	dirNumberOf(slot: number): number {
		return this.dirOf[slot];
	}

	nameOf(slot: number): string {
		const start = this.nameStart[slot];
		return this.nameBytes.toString('utf8', start, start + this.nameLength[slot]);
	}

	/** The committed files in URI order, entries built per item asked for. */
	readonly view: SortedEntries = new StoreView(this);

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
	 * Orders every file from scratch (after the first walk): one sort per directory, then one
	 * walk of the tree. `pause` is awaited between directories so the event loop is never held.
	 */
	async sortAll(pause: () => Promise<void> | undefined): Promise<void> {
		this.pending.clear();
		for (const slot of this.removed) {
			this.release(slot);
		}
		this.removed.clear();
		// Files per directory, by counting: no array per directory.
		const dirCount = this.dirs.length;
		const starts = new Uint32Array(dirCount + 1);
		for (let slot = 0; slot < this.slots; slot++) {
			if (this.dirOf[slot] !== FREE) {
				starts[this.dirOf[slot] + 1]++;
			}
		}
		for (let d = 0; d < dirCount; d++) {
			starts[d + 1] += starts[d];
		}
		const byDir = new Uint32Array(starts[dirCount]);
		const fill = starts.slice(0, dirCount);
		for (let slot = 0; slot < this.slots; slot++) {
			const d = this.dirOf[slot];
			if (d !== FREE) {
				byDir[fill[d]++] = slot;
			}
		}
		const subdirs: number[][] = Array.from({ length: dirCount }, () => []);
		const roots: number[] = [];
		for (let d = 0; d < dirCount; d++) {
			const parent = this.dirs[d].parent;
			(parent < 0 ? roots : subdirs[parent]).push(d);
		}
		const order = new Uint32Array(byDir.length);
		let length = 0;
		const nested = roots.some(r => roots.some(o => o !== r && this.dirs[r].uri.startsWith(`${this.uriBase(this.dirs[o])}`)));
		// Roots by URI and `/`; a folder inside another is rare and gets the plain sort below.
		roots.sort((a, b) => compare(this.uriBase(this.dirs[a]), this.uriBase(this.dirs[b])));
		const visit = async (d: number): Promise<void> => {
			const dir = this.dirs[d];
			// Children as [key, file number or -(directory number) - 1], sorted by key.
			const keys: string[] = [];
			const ids: number[] = [];
			for (let i = starts[d]; i < starts[d + 1]; i++) {
				keys.push(this.encode(dir, undefined, this.nameOf(byDir[i])));
				ids.push(byDir[i]);
			}
			for (const sub of subdirs[d]) {
				keys.push(this.dirs[sub].key);
				ids.push(-sub - 1);
			}
			const index = keys.map((_, i) => i).sort((a, b) => compare(keys[a], keys[b]));
			for (const i of index) {
				const id = ids[i];
				if (id >= 0) {
					order[length++] = id;
				} else {
					const wait = pause();
					if (wait) {
						await wait;
					}
					await visit(-id - 1);
				}
			}
		};
		for (const root of roots) {
			await visit(root);
		}
		if (nested) {
			const uris = Array.from(order, slot => this.uriOf(slot));
			const index = uris.map((_, i) => i).sort((a, b) => compare(uris[a], uris[b]));
			const sorted = Uint32Array.from(index, i => order[i]);
			this.order = sorted;
		} else {
			this.order = order;
		}
		this.orderLength = length;
	}

	/**
	 * Makes the changes since the last commit visible in the order: removed files leave, added
	 * ones are merged in by URI. One pass over the order, however many changed; the search for
	 * where added files go gives the event loop turns (`pause`), and nothing may change the
	 * store until it is done.
	 */
	async commit(pause: () => Promise<void> | undefined): Promise<void> {
		if (this.pending.size === 0 && this.removed.size === 0) {
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
		this.order = next;
		this.orderLength = n;
		await this.compactNames(pause);
	}

	private release(slot: number): void {
		this.dirOf[slot] = FREE;
		this.nameDead += this.nameLength[slot];
		this.nameLength[slot] = 0;
		this.freeSlots.push(slot);
	}

	private setName(slot: number, name: string): void {
		const room = name.length * 3;
		if (this.nameUsed + room > this.nameBytes.length) {
			const bigger = Buffer.allocUnsafe(Math.max(this.nameBytes.length * 2, this.nameUsed + room));
			this.nameBytes.copy(bigger, 0, 0, this.nameUsed);
			this.nameBytes = bigger;
		}
		this.nameStart[slot] = this.nameUsed;
		this.nameLength[slot] = this.nameBytes.write(name, this.nameUsed, 'utf8');
		this.nameUsed += this.nameLength[slot];
	}

	/**
	 * Copies the names of present files into a new buffer once most of it belongs to removed
	 * files (many branch switches). Readers see the old buffer until the swap at the end.
	 */
	private async compactNames(pause: () => Promise<void> | undefined): Promise<void> {
		if (this.nameDead < 1 << 20 || this.nameDead * 2 < this.nameUsed) {
			return;
		}
		const bytes = Buffer.allocUnsafe(Math.max(1 << 16, Math.ceil((this.nameUsed - this.nameDead) * 1.5)));
		const starts = new Uint32Array(this.nameStart.length);
		let used = 0;
		for (let slot = 0; slot < this.slots; slot++) {
			if ((slot & 0xffff) === 0xffff) {
				const wait = pause();
				if (wait) {
					await wait;
				}
			}
			const length = this.nameLength[slot];
			if (length > 0) {
				this.nameBytes.copy(bytes, used, this.nameStart[slot], this.nameStart[slot] + length);
				starts[slot] = used;
				used += length;
			}
		}
		this.nameBytes = bytes;
		this.nameStart = starts;
		this.nameUsed = used;
		this.nameDead = 0;
	}

	private nextSlot(): number {
		if (this.slots === this.dirOf.length) {
			const capacity = this.dirOf.length * 2;
			this.dirOf = grow(this.dirOf, new Uint32Array(capacity));
			this.sizes = grow(this.sizes, new Float64Array(capacity));
			this.mtimes = grow(this.mtimes, new Float64Array(capacity));
			this.nameStart = grow(this.nameStart, new Uint32Array(capacity));
			this.nameLength = grow(this.nameLength, new Uint32Array(capacity));
		}
		return this.slots++;
	}

	private intern(absPath: string, make: () => Directory): number {
		let id = this.dirIds.get(absPath);
		if (id === undefined) {
			id = this.dirs.length;
			this.dirs.push(make());
			this.dirIds.set(absPath, id);
		}
		return id;
	}

	/** The directory's URI with the `/` its children's names follow. */
	private uriBase(dir: Directory): string {
		return dir.uri.endsWith('/') ? dir.uri : `${dir.uri}/`;
	}

	/** A name as it appears in a URI below `dir`: as it is, or exactly as `pathToFileURL` encodes it. */
	private encode(dir: Directory, absPath: string | undefined, name: string): string {
		if (PLAIN_NAME.test(name)) {
			return name;
		}
		const full = absPath ?? (dir.absPath.endsWith(path.sep) ? dir.absPath + name : `${dir.absPath}${path.sep}${name}`);
		return fileUri(full).slice(this.uriBase(dir).length);
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
}

function compare(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

function grow<T extends Uint32Array | Float64Array>(old: T, bigger: T): T {
	bigger.set(old);
	return bigger;
}
