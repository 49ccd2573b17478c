import * as path from 'node:path';
import { SortedEntries } from '../resource';
import { fileUri } from '../uriGuard';
import { FileInfo, FileSystemReader, WorkspaceFolder } from '../ports';
import { DirectoryWalk, rootDirectories, walkFolders, WalkTarget } from './directoryWalk';
import { EventLoopSlices } from './eventLoopSlices';
import { FileFilter, NameCheck } from './fileFilter';
import { FileStore, StoredFiles } from './fileStore';
import { completeFiles, storeDifference } from './indexQueries';
import { ServedLinks } from './servedLinks';
import { OffThreadWalker, WalkReplay } from './walkBatch';
import { Located, WorkspaceRoots } from './workspaceRoots';

/** A directory of a batch's files: its number in the store, and how its names are checked (none when it is hidden). */
interface ParentDirectory {
	readonly dir: number;
	readonly names: NameCheck | undefined;
}

export interface IndexDelta {
	readonly updated: string[];
	listChanged: boolean;
}

/**
 * Every served file of the workspace, with what `resources/list` returns about it, in the
 * compact form of `FileStore`. Built by one walk, then kept current from watcher events, so
 * listing never touches the disk. Long work (the walk, the sort, a large batch of changes)
 * gives the event loop a turn every few milliseconds: the extension host is shared.
 */
export class FileIndex implements WalkTarget {
	/** Replaced only when a walk elsewhere failed halfway and this thread walks again. */
	store: FileStore;
	/** The symlinks refused for where they lead, and those served as the file they lead to. */
	readonly links: ServedLinks;
	private readonly slices = new EventLoopSlices();
	private cancelled = false;
	private readonly cancellation = new AbortController();

	/**
	 * With a `walker`, the first walk is done by it (off this thread) when it can. `beforeRead` is
	 * told each directory a walk in this thread is about to read (the watcher watches it first).
	 */
	constructor(
		readonly reader: FileSystemReader,
		readonly roots: WorkspaceRoots,
		readonly filter: FileFilter,
		private readonly walker?: OffThreadWalker,
		readonly beforeRead?: (absPath: string) => void,
	) {
		this.store = this.emptyStore();
		this.links = new ServedLinks(reader, roots, filter);
	}

	private emptyStore(): FileStore {
		return new FileStore(this.roots.folders.map(f => f.name), this.roots.isMultiRoot);
	}

	get size(): number {
		return this.store.size;
	}

	/** All entries sorted by URI (code unit order), each built when asked for. */
	sorted(): SortedEntries {
		return this.store.view;
	}

	/** The same files with their paths, for the search index. */
	files(): StoredFiles {
		return this.store.files;
	}

	/**
	 * The directories the index holds, as absolute paths: right after `build`, every served
	 * directory it walked (folder roots first), empty ones too; once batches are applied, those
	 * on the way to listed files. A copy: a watcher takes it in slices while batches may release
	 * directories (an empty one it must still watch among them).
	 */
	directories(): Iterable<string> {
		return [...this.store.dirs.paths()];
	}

	cancel(): void {
		this.cancelled = true;
		this.cancellation.abort();
	}

	get isCancelled(): boolean {
		return this.cancelled;
	}

	/**
	 * Walks every folder (through the walker if there is one, else or if it fails in this thread),
	 * then orders the files. Unreadable directories are skipped, not fatal.
	 */
	async build(): Promise<void> {
		await this.filter.loadRepositoryRules(this.roots.folders);
		if (!this.walker || !await this.walkElsewhere(this.walker)) {
			await walkFolders(this);
		}
		if (!this.cancelled) {
			await this.store.sortAll(() => this.pause());
		}
	}

	/** True when the walker walked (or the index was cancelled meanwhile); false when this thread must. */
	private async walkElsewhere(walker: OffThreadWalker): Promise<boolean> {
		const replay = new WalkReplay(this, rootDirectories(this));
		try {
			const done = await walker.walk(
				{ folders: this.roots.folders, settings: this.filter.settings },
				batch => replay.apply(batch, () => this.pause()),
				this.cancellation.signal,
			);
			this.links.adopt(done);
			return true;
		} catch {
			// The walker logged why. What it handed over is dropped: this thread starts afresh.
			this.store = this.emptyStore();
			return this.cancelled;
		}
	}

	/** Undefined while the current slice of work lasts, else a promise of a later turn (`EventLoopSlices`). */
	pause(): Promise<void> | undefined {
		return this.slices.pause();
	}

	/**
	 * The symmetric difference with another index's files, as URIs: what a rebuild added or
	 * dropped. One merge of the two URI orders.
	 */
	difference(other: FileIndex): Promise<string[]> {
		return storeDifference(this.store, other.store, () => this.pause());
	}

	/**
	 * Paths for completion: those whose URI starts with `prefixUri`, then those whose name
	 * contains `lowerQuery` elsewhere. At most `limit` values; `total` counts them all.
	 */
	complete(prefixUri: string, lowerQuery: string, limit: number): Promise<{ slots: number[]; total: number }> {
		return completeFiles(this.store, prefixUri, lowerQuery, limit, () => this.pause());
	}

	uriOf(slot: number): string {
		return this.store.uriOf(slot);
	}

	/**
	 * Applies a batch of watcher events. Each path is looked at on disk (lstat) once per batch,
	 * whatever kinds the watcher reported for it. Paths that vanished and are not
	 * files of the index may be directories: everything below them is dropped (one range of
	 * the URI order each). Changes become visible to listing together, when the batch is done.
	 * Yields to the event loop regularly so requests are served during a burst.
	 */
	async applyBatch(events: readonly { kind: 'created' | 'changed' | 'deleted'; path: string }[], delta: IndexDelta): Promise<void> {
		/** Paths gone from disk that were no file of the index, by URI. */
		const goneDirectories = new Map<string, Located>();
		const seen = new Set<string>();
		const parents = new Map<string, ParentDirectory>();
		try {
			for (const event of events) {
				if (!await this.applyOnce(event.path, seen, delta, parents, goneDirectories)) {
					return;
				}
			}
			for (const directoryUri of goneDirectories.keys()) {
				for (const { slot, uri } of this.store.below(directoryUri)) {
					this.store.remove(slot, uri);
					this.changed(delta, uri, true);
				}
			}
			// With what the filter read in them: a directory made again is read again.
			await this.filter.forgetGone(goneDirectories.values(), () => this.pause());
			// No watcher reports the links to a file that changed, went or came: they are looked
			// at as if it had. A link is never a directory, so none of them adds a gone one.
			if (this.links.size > 0) {
				const linked = this.links.leadingTo(delta.updated);
				if (delta.listChanged) {
					linked.push(...this.links.dangling());
				}
				for (const link of linked) {
					if (!await this.applyOnce(link, seen, delta, parents, new Map())) {
						return;
					}
				}
			}
		} finally {
			await this.store.commit(() => this.pause());
		}
	}

	/** Applies what the disk now has at `absPath`, once per batch; false when the index was cancelled meanwhile. */
	private async applyOnce(absPath: string, seen: Set<string>, delta: IndexDelta, parents: Map<string, ParentDirectory>, goneDirectories: Map<string, Located>): Promise<boolean> {
		if (seen.has(absPath)) {
			return true;
		}
		seen.add(absPath);
		const wait = this.pause();
		if (wait) {
			await wait;
			if (this.cancelled) {
				return false;
			}
		}
		const located = this.roots.locate(absPath);
		if (!located) {
			return true;
		}
		// The disk decides, not the event kind: events for one path may arrive in any order.
		const info = await this.reader.lstat(absPath).catch(() => undefined);
		const uri = fileUri(absPath);
		if (!info || info.kind !== 'symlink') {
			this.links.forget(absPath, uri);
		}
		if (!info) {
			const slot = this.store.find(uri);
			if (slot >= 0) {
				this.store.remove(slot, uri);
				this.changed(delta, uri, true);
			} else {
				goneDirectories.set(uri, located);
			}
			return true;
		}
		const slash = located.rel.lastIndexOf('/');
		const dirRel = slash < 0 ? '' : located.rel.slice(0, slash);
		if (info.kind === 'directory') {
			// Its parent's `.gitignore` first, if not read (see `parentOf`): it may ignore this one.
			const reading = this.filter.readMissing(located.folder, dirRel);
			if (reading) {
				await reading;
			}
			if (!this.filter.isIgnored(located.folder, located.rel, true)) {
				await new DirectoryWalk(this, (dir, name, stat) => this.upsert(dir, name, stat, delta)).run(this.directoryOf(located));
				parents.clear(); // the walk may have loaded `.gitignore` files
			}
			return true;
		}
		const parent = parents.get(`${located.folder.path}\0${dirRel}`) ?? await this.parentOf(located.folder, dirRel, parents);
		const name = located.rel.slice(slash + 1);
		const stat = parent.names && !parent.names.isIgnored(name, false) ? await this.links.statOf(located, info) : undefined;
		if (stat) {
			this.upsert(parent.dir, name, stat, delta, uri);
		} else {
			const slot = this.store.find(uri);
			if (slot >= 0) {
				this.store.remove(slot, uri); // now ignored, or a link gone bad
				this.changed(delta, uri, true);
			}
		}
		return true;
	}

	private changed(delta: IndexDelta, uri: string, membership: boolean): void {
		delta.updated.push(uri);
		delta.listChanged ||= membership;
	}

	/** Adds or updates a file found while the index is live (a watcher event or a new directory). */
	private upsert(dir: number, name: string, stat: FileInfo, delta: IndexDelta, uri = fileUri(path.join(this.store.dirs.get(dir).absPath, name))): void {
		const slot = this.store.find(uri);
		if (slot >= 0) {
			this.store.update(slot, stat.size, stat.mtimeMs);
		} else {
			this.store.add(dir, name, stat.size, stat.mtimeMs, uri);
		}
		delta.updated.push(uri);
		delta.listChanged ||= slot < 0;
	}

	/** The store's directory for a located directory path, interning its ancestors. */
	private directoryOf(located: Located): number {
		const folderIndex = this.roots.folders.indexOf(located.folder);
		let dir = this.store.dirs.root(folderIndex, located.folder.path);
		if (located.rel) {
			for (const part of located.rel.split('/')) {
				dir = this.store.dirs.child(dir, part);
			}
		}
		return dir;
	}

	/**
	 * The store's directory `rel` of a batch's files and the check for names in it, worked out
	 * once per directory of a batch: a branch switch changes files dozens to a directory, and
	 * checking each file's ancestors against the rules again, and interning them, was most of the
	 * batch.
	 */
	private async parentOf(folder: WorkspaceFolder, rel: string, parents: Map<string, ParentDirectory>): Promise<ParentDirectory> {
		// A directory gone and made again, reported only by its files: judged by its `.gitignore` now.
		const reading = this.filter.readMissing(folder, rel);
		if (reading) {
			await reading;
		}
		// The folder root is served; another directory only when neither it nor an ancestor is hidden.
		const served = rel === '' || !this.filter.isIgnored(folder, rel, true);
		const parent = { dir: this.directoryOf({ folder, rel }), names: served ? this.filter.checkerFor(folder, rel) : undefined };
		parents.set(`${folder.path}\0${rel}`, parent);
		return parent;
	}

	/**
	 * What to list for a file (its own stat, or its target's for a link), or undefined when it
	 * must not be served: ignored, or a symlink to a directory or to anything outside the
	 * workspace or not served itself.
	 */
	async statFor(located: Located, info: FileInfo, parentsChecked: boolean): Promise<FileInfo | undefined> {
		if (this.filter.isIgnored(located.folder, located.rel, false, parentsChecked)) {
			return undefined;
		}
		return this.links.statOf(located, info);
	}
}
