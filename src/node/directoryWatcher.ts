import { Dirent, FSWatcher, lstatSync, promises as fs, Stats, watch } from 'node:fs';
import * as path from 'node:path';
import { Emitter } from '../common/event';
import { Logger } from '../common/logger';
import { EventLoopSlices } from '../core/files/eventLoopSlices';
import { FileChangeEvent, FileWatcher, WatchFilter, WorkspaceFolder } from '../core/ports';

/** Batches raw events for this long so a burst reaches the index as a few batches. */
const BATCH_MS = 25;
/** Longest stretch of watches set up at once while clients may be listing (see `watchList`). */
const SETUP_SLICE_MS = 1;

/**
 * Headless file watching: one inotify watch (`fs.watch`, non-recursive) per served directory.
 * Ignored directories (node_modules, build output, secrets) are never watched. It replaces
 * chokidar, whose own initial scan stat()s every file a second time after our index did and
 * held state per file: only directories are read here, without stats.
 *
 * Events carry only a path; the index looks at the disk to learn what happened, so the
 * "rename"/"change" distinction of fs.watch does not matter.
 */
export class DirectoryWatcher implements FileWatcher {
	private readonly emitter = new Emitter<readonly FileChangeEvent[]>();
	readonly onDidChange = this.emitter.event;
	private readonly watchers = new Map<string, FSWatcher>();
	/**
	 * The directory of each watch, for listeners every watch shares: two closures per watch
	 * added up over a large tree's folders, and the heap's size after a full collection sets how
	 * far it grows before the next one.
	 */
	private readonly watchedDirs = new Map<FSWatcher, string>();
	private readonly listeners = sharedListeners(
		(watcher, filename) => {
			const dir = this.watchedDirs.get(watcher);
			if (dir !== undefined) {
				this.onEvent(dir, filename === null ? undefined : String(filename));
			}
		},
		watcher => {
			const dir = this.watchedDirs.get(watcher);
			if (dir !== undefined) {
				this.remove(dir);
			}
		},
	);
	private ignored: WatchFilter = () => false;
	/** The folders watched, joined: watching the same ones again keeps the watches there are. */
	private folderKey: string | undefined;
	private pending = new Set<string>();
	private timer: NodeJS.Timeout | undefined;
	private generation = 0;
	private warnedLimit = false;
	private disposed = false;
	private readonly slices = new EventLoopSlices();
	/** Slices of the watches set up after indexing (see `watchList`). */
	private readonly setupSlices = new EventLoopSlices(SETUP_SLICE_MS);

	constructor(private readonly log: Logger) {}

	/**
	 * With `directories`, watches those (and keeps every watch there is, when the folders are the
	 * same): the index hands over what it walked, and a walk in this thread has already had each
	 * folder watched before reading it (`watchDirectory`), those made since included, which a
	 * list taken before their events are applied would not hold. Without, watches the folders'
	 * trees afresh, reading them.
	 */
	watch(folders: readonly WorkspaceFolder[], ignored: WatchFilter, directories?: Iterable<string>): void {
		const folderKey = folders.map(f => f.path).join('\0');
		if (!directories || folderKey !== this.folderKey) {
			this.closeAll();
		}
		this.folderKey = folderKey;
		this.ignored = ignored;
		const generation = ++this.generation;
		if (directories) {
			void this.watchList(directories, generation);
			return;
		}
		for (const folder of folders) {
			void this.watchTree(folder.path, generation);
		}
	}

	watchDirectory(dir: string): void {
		this.add(dir);
	}

	/**
	 * Watches the directories the index walked, without reading them again: on a large tree that
	 * second walk would read every directory again while clients are already listing. Setting up
	 * the watches takes a while on a large tree, right when the first clients ask for their first
	 * page: slices of at most `SETUP_SLICE_MS` keep a request from waiting long behind them.
	 */
	private async watchList(directories: Iterable<string>, generation: number): Promise<void> {
		for (const dir of directories) {
			if (generation !== this.generation) {
				return;
			}
			this.add(dir);
			const wait = this.setupSlices.pause();
			if (wait) {
				await wait;
			}
		}
	}

	private async watchTree(dir: string, generation: number): Promise<void> {
		const queue = [dir];
		while (queue.length > 0 && generation === this.generation) {
			const current = queue.pop()!;
			if (!this.add(current)) {
				continue;
			}
			let entries: Dirent[];
			try {
				entries = await fs.readdir(current, { withFileTypes: true });
			} catch {
				continue;
			}
			for (const entry of entries) {
				if (entry.isDirectory()) {
					const child = path.join(current, entry.name);
					if (!this.ignored(child, true)) {
						queue.push(child);
					}
				}
			}
		}
	}

	/** Starts watching one directory; false when it cannot be watched. */
	private add(dir: string): boolean {
		if (this.watchers.has(dir)) {
			return true;
		}
		try {
			const watcher = watch(dir, { persistent: false }, this.listeners.change);
			watcher.on('error', this.listeners.error);
			this.watchers.set(dir, watcher);
			this.watchedDirs.set(watcher, dir);
			return true;
		} catch (err) {
			const code = (err as NodeJS.ErrnoException).code;
			if ((code === 'ENOSPC' || code === 'EMFILE') && !this.warnedLimit) {
				this.warnedLimit = true;
				this.log.warn(`file watching limit reached (${code}); changes in some folders will not be seen. ` +
					'Raise fs.inotify.max_user_watches or exclude large folders with --exclude.');
			}
			return false;
		}
	}

	/**
	 * Stops watching a directory that went away and everything watched under it. Most deleted
	 * paths are files, never watched: they return at once, so a branch switch deleting thousands
	 * of files does not scan every watch once per file (which held the event loop noticeably on a
	 * large tree).
	 */
	private remove(dir: string): void {
		if (!this.watchers.has(dir)) {
			// A directory is watched only after its parent (watchTree walks down; watchList gets the
			// index's directories in walk order), so nothing is watched under an unwatched path.
			return;
		}
		const prefix = dir + path.sep;
		for (const [watched, watcher] of this.watchers) {
			if (watched === dir || watched.startsWith(prefix)) {
				watcher.close();
				this.watchers.delete(watched);
				this.watchedDirs.delete(watcher);
			}
		}
	}

	private onEvent(dir: string, name: string | undefined): void {
		const changed = name ? path.join(dir, name) : dir;
		this.pending.add(changed);
		this.timer ??= setTimeout(() => void this.flush(), BATCH_MS);
	}

	private async flush(): Promise<void> {
		this.timer = undefined;
		const paths = [...this.pending];
		this.pending = new Set();
		const events: FileChangeEvent[] = [];
		for (const p of paths) {
			// Synchronous lstats, a few milliseconds of them at a time: a branch switch names
			// thousands of paths, and a thread-pool round trip and a promise per path cost ten
			// times the call itself (the largest item of the switch's profile).
			const wait = this.slices.pause();
			if (wait) {
				await wait;
			}
			const stat = lstatOrGone(p);
			if (!stat) {
				this.remove(p); // a watched directory that went away
				events.push({ kind: 'deleted', path: p });
			} else if (stat.isDirectory()) {
				// Watch a new directory before the index walks it, so nothing created in
				// it after the walk can be missed.
				if (!this.ignored(p, true)) {
					await this.watchTree(p, this.generation);
				}
				events.push({ kind: 'created', path: p });
			} else {
				events.push({ kind: 'changed', path: p });
			}
		}
		// Fired even when the folders were watched again meanwhile: the watches an event came
		// from may well have been kept, and the index ignores paths outside its folders.
		if (events.length > 0 && !this.disposed) {
			this.emitter.fire(events);
		}
	}

	private closeAll(): void {
		for (const watcher of this.watchers.values()) {
			watcher.close();
		}
		this.watchers.clear();
		this.watchedDirs.clear();
	}

	dispose(): void {
		this.disposed = true;
		this.generation++;
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		this.closeAll();
		this.emitter.dispose();
	}
}

/** A watch's listeners, one pair for every watch: node calls each with the watch as `this`. */
function sharedListeners(onChange: (watcher: FSWatcher, filename: string | Buffer | null) => void, onError: (watcher: FSWatcher) => void) {
	return {
		change(this: FSWatcher, _event: string, filename: string | Buffer | null): void {
			onChange(this, filename);
		},
		error(this: FSWatcher): void {
			onError(this);
		},
	};
}

/** The path's lstat, or undefined when it is gone or cannot be looked at (as a deleted path). */
function lstatOrGone(p: string): Stats | undefined {
	try {
		return lstatSync(p, { throwIfNoEntry: false });
	} catch {
		return undefined;
	}
}
