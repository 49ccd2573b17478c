import * as path from 'node:path';
import { SortedEntries } from '../resource';
import { fileUri } from '../uriGuard';
import { FileInfo, FileSystemReader, WorkspaceFolder } from '../ports';
import { FileFilter } from './fileFilter';
import { FileStore } from './fileStore';
import { Located, WorkspaceRoots } from './workspaceRoots';

/** Directories read at once while walking; each reads its files' stats together. */
const WALK_CONCURRENCY = 16;
/** Longest stretch of work between two turns of the event loop. */
const SLICE_MS = 8;
/** Files of one directory stat()ed between two checks of the slice. */
const STAT_CHUNK = 256;

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
export class FileIndex {
	private readonly store: FileStore;
	/** URIs of symlinks refused because of where they lead (outside, or to something not served). */
	private readonly refusedLinks = new Set<string>();
	private readonly rootPaths: ReadonlySet<string>;
	private cancelled = false;
	private sliceStart = performance.now();

	constructor(
		private readonly reader: FileSystemReader,
		readonly roots: WorkspaceRoots,
		readonly filter: FileFilter,
	) {
		this.store = new FileStore(roots.folders.map(f => f.name), roots.isMultiRoot);
		this.rootPaths = new Set(roots.folders.map(f => f.path));
	}

	get size(): number {
		return this.store.size;
	}

	/** All entries sorted by URI (code unit order), each built when asked for. */
	sorted(): SortedEntries {
		return this.store.view;
	}

	/** The directories the index walked (served ones, folder roots first), as absolute paths. */
	directories(): Iterable<string> {
		return this.store.directoryPaths();
	}

	cancel(): void {
		this.cancelled = true;
	}

	get isCancelled(): boolean {
		return this.cancelled;
	}

	/**
	 * True when the path, or a directory above it, is a symlink the index refused for where it
	 * leads: names alone cannot tell, and synchronous callers cannot resolve links.
	 */
	isBehindRefusedLink(absPath: string): boolean {
		if (this.refusedLinks.size === 0) {
			return false;
		}
		const uri = fileUri(absPath);
		for (let end = uri.length; end > 'file://'.length; end = uri.lastIndexOf('/', end - 1)) {
			if (this.refusedLinks.has(uri.slice(0, end))) {
				return true;
			}
		}
		return false;
	}

	/** Walks every folder, then orders the files. Unreadable directories are skipped, not fatal. */
	async build(): Promise<void> {
		const roots = this.roots.folders.map((folder, i) => this.store.root(i, folder.path));
		await Promise.all(roots.map(dir => this.walk(dir)));
		if (!this.cancelled) {
			await this.store.sortAll(() => this.pause());
		}
	}

	/**
	 * Whether this task must let the event loop turn first: undefined while the current slice of
	 * work lasts, else a promise that resolves in a later turn. Waiting tasks are let through one
	 * per turn of the loop (timers, I/O and other extensions run between), in the order they
	 * came, so a burst of finished directory reads cannot run back to back.
	 */
	pause(): Promise<void> | undefined {
		if (this.turnWaiters.length === 0 && performance.now() - this.sliceStart < SLICE_MS) {
			return undefined;
		}
		return new Promise<void>(resolve => {
			this.turnWaiters.push(resolve);
			this.scheduleTurn();
		});
	}

	private readonly turnWaiters: (() => void)[] = [];
	private turnScheduled = false;

	private scheduleTurn(): void {
		if (this.turnScheduled) {
			return;
		}
		this.turnScheduled = true;
		setImmediate(() => {
			this.turnScheduled = false;
			this.sliceStart = performance.now();
			this.turnWaiters.shift()?.();
			if (this.turnWaiters.length > 0) {
				this.scheduleTurn();
			}
		});
	}

	/**
	 * The symmetric difference with another index's files, as URIs: what a rebuild added or
	 * dropped. One merge of the two URI orders.
	 */
	async difference(other: FileIndex): Promise<string[]> {
		const a = this.store;
		const b = other.store;
		const out: string[] = [];
		let i = 0;
		let j = 0;
		let aUri = i < a.committedLength ? a.uriOf(a.slotAt(i)) : undefined;
		let bUri = j < b.committedLength ? b.uriOf(b.slotAt(j)) : undefined;
		while (aUri !== undefined || bUri !== undefined) {
			const wait = this.pause();
			if (wait) {
				await wait;
			}
			if (bUri === undefined || (aUri !== undefined && aUri < bUri)) {
				out.push(aUri!);
				aUri = ++i < a.committedLength ? a.uriOf(a.slotAt(i)) : undefined;
			} else if (aUri === undefined || bUri < aUri) {
				out.push(bUri);
				bUri = ++j < b.committedLength ? b.uriOf(b.slotAt(j)) : undefined;
			} else {
				aUri = ++i < a.committedLength ? a.uriOf(a.slotAt(i)) : undefined;
				bUri = ++j < b.committedLength ? b.uriOf(b.slotAt(j)) : undefined;
			}
		}
		return out;
	}

	/**
	 * Paths for completion: those whose URI starts with `prefixUri` (one run of the order, found
	 * by binary search), then those whose name contains `lowerQuery` elsewhere. At most `limit`
	 * values; `total` counts them all.
	 */
	async complete(prefixUri: string, lowerQuery: string, limit: number): Promise<{ slots: number[]; total: number }> {
		const store = this.store;
		const length = store.committedLength;
		const slots: number[] = [];
		if (!lowerQuery) {
			for (let i = 0; i < Math.min(limit, length); i++) {
				slots.push(store.slotAt(i));
			}
			return { slots, total: length };
		}
		const start = store.search(prefixUri, false);
		let end = start;
		while (end < length && store.uriOf(store.slotAt(end)).startsWith(prefixUri)) {
			if (slots.length < limit) {
				slots.push(store.slotAt(end));
			}
			end++;
			if ((end & 0x3ff) === 0) {
				await this.pause();
			}
		}
		let total = end - start;
		// A query without `/` cannot span a directory's display path and the name (the path ends
		// in `/`), so each directory is tested once and each name on its own.
		const perDirectory = !lowerQuery.includes('/');
		const dirMatches = new Map<number, boolean>();
		for (let i = 0; i < length; i++) {
			if (i === start && end > start) {
				i = end - 1; // the prefix run, counted above
				continue;
			}
			if ((i & 0x3fff) === 0) {
				const wait = this.pause();
				if (wait) {
					await wait;
				}
			}
			const slot = store.slotAt(i);
			let match: boolean;
			if (perDirectory) {
				const dir = store.dirNumberOf(slot);
				let dirMatch = dirMatches.get(dir);
				if (dirMatch === undefined) {
					dirMatch = store.displayPrefixOf(slot).toLowerCase().includes(lowerQuery);
					dirMatches.set(dir, dirMatch);
				}
				match = dirMatch || store.nameOf(slot).toLowerCase().includes(lowerQuery);
			} else {
				match = store.displayName(slot).toLowerCase().includes(lowerQuery);
			}
			if (match) {
				if (slots.length < limit) {
					slots.push(slot);
				}
				total++;
			}
		}
		return { slots, total };
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
		const goneDirectories = new Set<string>();
		const seen = new Set<string>();
		try {
			for (const event of events) {
				if (seen.has(event.path)) {
					continue;
				}
				seen.add(event.path);
				const wait = this.pause();
				if (wait) {
					await wait;
					if (this.cancelled) {
						return;
					}
				}
				const located = this.roots.locate(event.path);
				if (!located) {
					continue;
				}
				// The disk decides, not the event kind: events for one path may arrive in any order.
				const info = await this.reader.lstat(event.path).catch(() => undefined);
				const uri = fileUri(event.path);
				if (!info || info.kind !== 'symlink') {
					this.refusedLinks.delete(uri);
				}
				if (!info) {
					const slot = this.store.find(uri);
					if (slot >= 0) {
						this.store.remove(slot, uri);
						this.changed(delta, uri, true);
					} else {
						goneDirectories.add(uri);
					}
					continue;
				}
				if (info.kind === 'directory') {
					if (!this.filter.isIgnored(located.folder, located.rel, true)) {
						await this.walk(this.directoryOf(located), delta);
					}
					continue;
				}
				const parent = this.parentDirectory(located);
				const stat = await this.statFor(located, info, false);
				if (stat) {
					this.upsert(parent, path.basename(event.path), stat, delta);
				} else {
					const slot = this.store.find(uri);
					if (slot >= 0) {
						this.store.remove(slot, uri); // now ignored, or a link gone bad
						this.changed(delta, uri, true);
					}
				}
			}
			for (const directoryUri of goneDirectories) {
				for (const { slot, uri } of this.store.below(directoryUri)) {
					this.store.remove(slot, uri);
					this.changed(delta, uri, true);
				}
			}
		} finally {
			await this.store.commit(() => this.pause());
		}
	}

	private changed(delta: IndexDelta, uri: string, membership: boolean): void {
		delta.updated.push(uri);
		delta.listChanged ||= membership;
	}

	/** Adds or updates a file found while the index is live (a watcher event or a new directory). */
	private upsert(dir: number, name: string, stat: FileInfo, delta: IndexDelta): void {
		const uri = fileUri(path.join(this.store.dirPath(dir), name));
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
		let dir = this.store.root(folderIndex, located.folder.path);
		if (located.rel) {
			for (const part of located.rel.split('/')) {
				dir = this.store.child(dir, part);
			}
		}
		return dir;
	}

	private parentDirectory(located: Located): number {
		const slash = located.rel.lastIndexOf('/');
		return this.directoryOf({ folder: located.folder, rel: slash < 0 ? '' : located.rel.slice(0, slash) });
	}

	private async walk(start: number, delta?: IndexDelta): Promise<void> {
		const pending: number[] = [start];
		let active = 0;
		await new Promise<void>(resolve => {
			const pump = () => {
				if (this.cancelled) {
					pending.length = 0;
				}
				while (active < WALK_CONCURRENCY && pending.length > 0) {
					const dir = pending.pop()!;
					active++;
					void this.readDir(dir, pending, delta).finally(() => {
						active--;
						pump();
					});
				}
				if (active === 0 && pending.length === 0) {
					resolve();
				}
			};
			pump();
		});
	}

	private async readDir(dir: number, pending: number[], delta?: IndexDelta): Promise<void> {
		const store = this.store;
		const dirPath = store.dirPath(dir);
		const folder = this.roots.folders[store.dirFolder(dir)];
		const rel = store.dirRel(dir);
		let children;
		try {
			children = await this.reader.readDirectory(dirPath);
		} catch {
			return; // vanished or unreadable: nothing to serve below it
		}
		await this.pause();
		let hasGitignore = false;
		for (const child of children) {
			if (child.kind === 'file' && child.name === '.gitignore') {
				hasGitignore = true;
				break;
			}
		}
		await this.filter.loadGitignore(folder, rel, hasGitignore);
		const isIgnored = this.filter.checkerFor(folder, rel);
		const prefix = dirPath.endsWith(path.sep) ? dirPath : dirPath + path.sep;
		const files: string[] = [];
		const links: Promise<void>[] = [];
		for (const child of children) {
			if (child.kind === 'directory') {
				if (!isIgnored(child.name, true) && !this.rootPaths.has(prefix + child.name)) {
					pending.push(store.child(dir, child.name)); // another folder's root is walked as that folder
				}
			} else if (child.kind === 'file') {
				if (!isIgnored(child.name, false)) {
					files.push(child.name);
				}
			} else if (child.kind === 'symlink') {
				if (!isIgnored(child.name, false)) {
					links.push(this.addLink(dir, folder, rel ? `${rel}/${child.name}` : child.name, child.name, delta));
				}
			}
		}
		// A few hundred stats at a time: a directory of 50,000 files is many slices, not one.
		for (let start = 0; start < files.length; start += STAT_CHUNK) {
			if (start > 0) {
				await this.pause();
			}
			const chunk = files.slice(start, start + STAT_CHUNK);
			const stats = await this.reader.statMany(chunk.map(name => prefix + name));
			for (let i = 0; i < chunk.length; i++) {
				const stat = stats[i];
				if (stat?.kind === 'file') {
					if (delta) {
						this.upsert(dir, chunk[i], stat, delta);
					} else {
						store.add(dir, chunk[i], stat.size, stat.mtimeMs);
					}
				}
			}
		}
		await Promise.all(links);
	}

	private async addLink(dir: number, folder: WorkspaceFolder, rel: string, name: string, delta?: IndexDelta): Promise<void> {
		try {
			const located = { folder, rel };
			const info = await this.reader.lstat(path.join(folder.path, rel));
			const stat = await this.statFor(located, info, true);
			if (stat) {
				if (delta) {
					this.upsert(dir, name, stat, delta);
				} else {
					this.store.add(dir, name, stat.size, stat.mtimeMs);
				}
			}
		} catch {
			// Gone between readdir and lstat.
		}
	}

	/**
	 * What to list for a file (its own stat, or its target's for a link), or undefined when it
	 * must not be served: ignored, or a symlink to a directory or to anything outside the
	 * workspace or not served itself.
	 */
	private async statFor(located: Located, info: FileInfo, parentsChecked: boolean): Promise<FileInfo | undefined> {
		if (this.filter.isIgnored(located.folder, located.rel, false, parentsChecked)) {
			return undefined;
		}
		const absPath = path.join(located.folder.path, located.rel);
		let stat = info;
		if (info.kind === 'symlink') {
			const uri = fileUri(absPath);
			try {
				const target = this.roots.locateReal(await this.reader.realpath(absPath));
				if (!target || this.filter.isIgnored(target.folder, target.rel, false)) {
					this.refusedLinks.add(uri);
					return undefined;
				}
				this.refusedLinks.delete(uri);
				stat = await this.reader.stat(absPath);
			} catch {
				return undefined; // dangling or looping link
			}
		}
		return stat.kind === 'file' ? stat : undefined;
	}
}
