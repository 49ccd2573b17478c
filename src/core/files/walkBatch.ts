import { FileInfo, FileSettings, WorkspaceFolder } from '../ports';
import { FileFilter } from './fileFilter';
import { FileStore } from './fileStore';
import { WorkspaceRoots } from './workspaceRoots';

/** Files put into one batch before it is handed over. */
const BATCH_FILES = 4096;
/** Joins names in a batch: the one character no file name can hold. */
const SEPARATOR = '\0';

/**
 * What a walk in another thread found since its previous batch, as a few flat arrays and two
 * strings: posting them between threads copies (or moves) a handful of buffers, not an object
 * per file, and adding them to the store is a loop with nothing to parse.
 */
export interface WalkBatch {
	/** Directories interned since the previous batch, in order: each one's parent, by the walk's numbering. */
	readonly dirParents: Int32Array;
	/** Their names, joined by NUL. */
	readonly dirNames: string;
	/** Each file's directory (the walk's numbering), name (joined by NUL), size and mtime. */
	readonly fileDirs: Uint32Array;
	readonly fileNames: string;
	readonly sizes: Float64Array;
	readonly mtimes: Float64Array;
	/** The `.gitignore` of each directory read (text, or null for none), by folder index and relative path. */
	readonly gitignores: { folder: number; rel: string; text: string | null }[];
}

/** What the walk was asked: the same folders and settings as the index that asked. */
export interface WalkRequest {
	readonly folders: readonly WorkspaceFolder[];
	readonly settings: FileSettings;
}

/** How the walk ended: the symlinks it refused for where they lead, as URIs, and those it served. */
export interface WalkDone {
	readonly refusedLinks: string[];
	/** Each served symlink's path and the URI of the file it leads to, flat (see `ServedLinks.handOver`). */
	readonly links: string[];
}

/**
 * A walk done off the event loop (a worker thread). The extension host's event loop is shared by
 * every extension, and the walk's I/O callbacks, name checks and garbage hold it even in slices.
 */
export interface OffThreadWalker {
	/**
	 * Walks the folders elsewhere, handing each batch to `onBatch`, one at a time and in order.
	 * Resolves once every batch is handed over; rejects when the walk could not be done there
	 * (the caller then walks itself) or when `signal` aborts.
	 */
	walk(request: WalkRequest, onBatch: (batch: WalkBatch) => Promise<void>, signal: AbortSignal): Promise<WalkDone>;
}

/**
 * The walking side: records what a walk adds to its own (scratch) store as batches. The
 * directories are described by parent and name in the order the walk interned them, so the
 * receiving store, replaying them in the same order, numbers them the same way.
 */
export class WalkRecorder {
	private describedDirs: number;
	private dirs: number[] = [];
	private names: string[] = [];
	private sizes: number[] = [];
	private mtimes: number[] = [];
	private gitignores: { folder: number; rel: string; text: string | null }[] = [];

	constructor(private readonly store: FileStore, private readonly send: (batch: WalkBatch) => void) {
		this.describedDirs = store.dirs.length; // the folder roots, interned by both sides alike
	}

	/** The walk's `LiveFile`: takes a file instead of the store. */
	readonly file = (dir: number, name: string, stat: FileInfo): void => {
		this.dirs.push(dir);
		this.names.push(name);
		this.sizes.push(stat.size);
		this.mtimes.push(stat.mtimeMs);
		if (this.dirs.length >= BATCH_FILES) {
			this.flush();
		}
	};

	gitignore(folder: number, rel: string, text: string | null): void {
		this.gitignores.push({ folder, rel, text });
	}

	/**
	 * Sends what was recorded since the last batch (nothing when there is nothing). The walk's
	 * table only grows (directories are released by a commit, and a walk never commits), so the
	 * new directories are those numbered from `describedDirs` on.
	 */
	flush(): void {
		const table = this.store.dirs;
		const newDirs = table.length - this.describedDirs;
		if (newDirs === 0 && this.dirs.length === 0 && this.gitignores.length === 0) {
			return;
		}
		const dirParents = new Int32Array(newDirs);
		const dirNames: string[] = [];
		for (let i = 0; i < newDirs; i++) {
			const dir = table.get(this.describedDirs + i);
			dirParents[i] = dir.parent;
			dirNames.push(dir.rel.slice(dir.rel.lastIndexOf('/') + 1));
		}
		this.describedDirs = table.length;
		this.send({
			dirParents,
			dirNames: dirNames.join(SEPARATOR),
			fileDirs: Uint32Array.from(this.dirs),
			fileNames: this.names.join(SEPARATOR),
			sizes: Float64Array.from(this.sizes),
			mtimes: Float64Array.from(this.mtimes),
			gitignores: this.gitignores,
		});
		this.dirs = [];
		this.names = [];
		this.sizes = [];
		this.mtimes = [];
		this.gitignores = [];
	}
}

/** The receiving side: adds batches to the index's store and filter, a slice at a time. */
export class WalkReplay {
	/** The store's directory number for each of the walk's. */
	private readonly dirMap: number[];

	constructor(
		private readonly target: { readonly store: FileStore; readonly filter: FileFilter; readonly roots: WorkspaceRoots },
		rootDirs: readonly number[],
	) {
		this.dirMap = [...rootDirs];
	}

	async apply(batch: WalkBatch, pause: () => Promise<void> | undefined): Promise<void> {
		const { store, filter, roots } = this.target;
		const dirNames = batch.dirParents.length > 0 ? batch.dirNames.split(SEPARATOR) : [];
		for (let i = 0; i < dirNames.length; i++) {
			this.dirMap.push(store.dirs.child(this.dirMap[batch.dirParents[i]], dirNames[i]));
		}
		for (const { folder, rel, text } of batch.gitignores) {
			filter.adoptGitignore(roots.folders[folder], rel, text);
		}
		const names = batch.fileDirs.length > 0 ? batch.fileNames.split(SEPARATOR) : [];
		for (let i = 0; i < names.length; i++) {
			const wait = (i & 0xff) === 0xff ? pause() : undefined;
			if (wait) {
				await wait;
			}
			store.add(this.dirMap[batch.fileDirs[i]], names[i], batch.sizes[i], batch.mtimes[i]);
		}
	}
}

/** The buffers a batch can move to another thread instead of copying. */
export function transferablesOf(batch: WalkBatch): ArrayBuffer[] {
	return [batch.dirParents.buffer, batch.fileDirs.buffer, batch.sizes.buffer, batch.mtimes.buffer] as ArrayBuffer[];
}
