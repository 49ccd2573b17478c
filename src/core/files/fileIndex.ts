import * as path from 'node:path';
import { ResourceEntry } from '../resource';
import { mimeTypeForName } from '../mime';
import { fileUri } from '../uriGuard';
import { searchSorted } from '../pager';
import { FileInfo, FileSystemReader, WorkspaceFolder } from '../ports';
import { FileFilter } from './fileFilter';
import { Located, WorkspaceRoots } from './workspaceRoots';

/** Directories read at once while walking; each reads its files' stats together. */
const WALK_CONCURRENCY = 16;

export interface IndexDelta {
	readonly updated: string[];
	listChanged: boolean;
}

/**
 * Every served file of the workspace, keyed by URI, with the entry `resources/list` returns.
 * Built by one walk, then kept current from watcher events, so listing never touches the disk.
 */
export class FileIndex {
	private readonly entries = new Map<string, ResourceEntry>();
	private sortedCache: ResourceEntry[] | undefined;
	/** URIs added or removed since `sortedCache` was built, patched in on the next `sorted()`. */
	private sortedAdded = new Set<string>();
	private sortedRemoved = new Set<string>();
	/** URIs of symlinks refused because of where they lead (outside, or to something not served). */
	private readonly refusedLinks = new Set<string>();
	private cancelled = false;

	constructor(
		private readonly reader: FileSystemReader,
		readonly roots: WorkspaceRoots,
		readonly filter: FileFilter,
	) {}

	get size(): number {
		return this.entries.size;
	}

	has(uri: string): boolean {
		return this.entries.has(uri);
	}

	keys(): IterableIterator<string> {
		return this.entries.keys();
	}

	/** All entries sorted by URI (code unit order); rebuilt lazily after changes. */
	sorted(): readonly ResourceEntry[] {
		if (this.sortedCache && (this.sortedAdded.size > 0 || this.sortedRemoved.size > 0)) {
			this.patchSorted(this.sortedCache);
		}
		if (!this.sortedCache) {
			this.sortedCache = [...this.entries.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
		}
		this.sortedAdded.clear();
		this.sortedRemoved.clear();
		return this.sortedCache;
	}

	cancel(): void {
		this.cancelled = true;
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

	get isCancelled(): boolean {
		return this.cancelled;
	}

	/** Walks every folder. Unreadable directories are skipped, not fatal. */
	async build(): Promise<void> {
		await Promise.all(this.roots.folders.map(folder => this.walk(folder, '')));
	}

	/**
	 * Applies a batch of watcher events. Each path is looked at on disk (lstat) once per batch,
	 * whatever kinds the watcher reported for it. Paths that vanished and are not
	 * files of the index may be directories: everything below them is dropped in one pass over
	 * the index for the whole batch (a deleted tree of 10,000 files is one pass, not 10,000).
	 * Yields to the event loop regularly so requests are served during a burst.
	 */
	async applyBatch(events: readonly { kind: 'created' | 'changed' | 'deleted'; path: string }[], delta: IndexDelta): Promise<void> {
		const goneDirectories = new Set<string>();
		const seen = new Set<string>();
		let sinceYield = 0;
		for (const event of events) {
			if (seen.has(event.path)) {
				continue;
			}
			seen.add(event.path);
			if (++sinceYield >= 256) {
				sinceYield = 0;
				await new Promise<void>(resolve => setImmediate(resolve));
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
			if (!info || info.kind !== 'symlink') {
				this.refusedLinks.delete(fileUri(event.path));
			}
			if (!info) {
				const uri = fileUri(event.path);
				if (this.entries.delete(uri)) {
					this.changed(delta, uri, true);
				} else {
					goneDirectories.add(uri);
				}
				continue;
			}
			if (info.kind === 'directory') {
				if (!this.filter.isIgnored(located.folder, located.rel, true)) {
					await this.walk(located.folder, located.rel, delta);
				}
				continue;
			}
			const entry = await this.entryFor(located, info, false);
			if (entry) {
				this.upsert(entry, delta);
			} else if (this.entries.delete(fileUri(event.path))) {
				this.changed(delta, fileUri(event.path), true); // now ignored, or a link gone bad
			}
		}
		if (goneDirectories.size > 0) {
			this.removeBelow(goneDirectories, delta);
		}
	}

	/** Drops every entry that lies below one of `directoryUris`. */
	private removeBelow(directoryUris: ReadonlySet<string>, delta: IndexDelta): void {
		for (const key of [...this.entries.keys()]) {
			for (let slash = key.lastIndexOf('/'); slash > 'file://'.length; slash = key.lastIndexOf('/', slash - 1)) {
				if (directoryUris.has(key.slice(0, slash))) {
					this.entries.delete(key);
					this.changed(delta, key, true);
					break;
				}
			}
		}
	}

	private upsert(entry: ResourceEntry, delta: IndexDelta | undefined): void {
		const previous = this.entries.get(entry.uri);
		this.entries.set(entry.uri, entry);
		if (previous) {
			this.replaceSorted(entry); // same place in the order, new size and date
		} else {
			this.membershipChanged(entry.uri, true);
		}
		if (delta) {
			delta.updated.push(entry.uri);
			delta.listChanged ||= !previous;
		}
	}

	/**
	 * Few additions or removals are patched into the sorted list (binary search and splice);
	 * many (a branch switch) drop it, and one sort on the next list is cheaper.
	 */
	private membershipChanged(uri: string, added: boolean): void {
		if (!this.sortedCache) {
			return;
		}
		const [undo, record] = added ? [this.sortedRemoved, this.sortedAdded] : [this.sortedAdded, this.sortedRemoved];
		if (!undo.delete(uri)) {
			record.add(uri);
		}
		if (this.sortedAdded.size + this.sortedRemoved.size > 512) {
			this.sortedCache = undefined;
			this.sortedAdded.clear();
			this.sortedRemoved.clear();
		}
	}

	private patchSorted(sorted: ResourceEntry[]): void {
		for (const uri of this.sortedRemoved) {
			const i = searchSorted(sorted, uri);
			if (sorted[i]?.uri === uri) {
				sorted.splice(i, 1);
			}
		}
		for (const uri of this.sortedAdded) {
			const entry = this.entries.get(uri);
			const i = searchSorted(sorted, uri);
			if (entry && sorted[i]?.uri !== uri) {
				sorted.splice(i, 0, entry);
			}
		}
	}

	private replaceSorted(entry: ResourceEntry): void {
		if (this.sortedCache && !this.sortedAdded.has(entry.uri)) {
			const i = searchSorted(this.sortedCache, entry.uri);
			if (this.sortedCache[i]?.uri === entry.uri) {
				this.sortedCache[i] = entry;
			}
		}
	}

	private changed(delta: IndexDelta, uri: string, membership: boolean): void {
		delta.updated.push(uri);
		if (membership) {
			delta.listChanged = true;
			this.membershipChanged(uri, false);
		}
	}

	private async walk(folder: WorkspaceFolder, startRel: string, delta?: IndexDelta): Promise<void> {
		const pending: string[] = [startRel];
		let active = 0;
		await new Promise<void>(resolve => {
			const pump = () => {
				if (this.cancelled) {
					pending.length = 0;
				}
				while (active < WALK_CONCURRENCY && pending.length > 0) {
					const rel = pending.pop()!;
					active++;
					void this.readDir(folder, rel, pending, delta).finally(() => {
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

	private async readDir(folder: WorkspaceFolder, rel: string, pending: string[], delta?: IndexDelta): Promise<void> {
		const dirPath = rel ? path.join(folder.path, rel) : folder.path;
		let children;
		try {
			children = await this.reader.readDirectory(dirPath);
		} catch {
			return; // vanished or unreadable: nothing to serve below it
		}
		await this.filter.loadGitignore(folder, rel, children.some(c => c.name === '.gitignore' && c.kind === 'file'));
		const files: Located[] = [];
		const links: Promise<void>[] = [];
		for (const child of children) {
			const childRel = rel ? `${rel}/${child.name}` : child.name;
			if (child.kind === 'directory') {
				if (!this.filter.isIgnored(folder, childRel, true, true)) {
					pending.push(childRel);
				}
			} else if (child.kind === 'file') {
				if (!this.filter.isIgnored(folder, childRel, false, true)) {
					files.push({ folder, rel: childRel });
				}
			} else if (child.kind === 'symlink') {
				if (!this.filter.isIgnored(folder, childRel, false, true)) {
					links.push(this.addLink({ folder, rel: childRel }, delta));
				}
			}
		}
		const stats = await this.reader.statMany(files.map(f => `${dirPath}${path.sep}${path.basename(f.rel)}`));
		for (let i = 0; i < files.length; i++) {
			const stat = stats[i];
			if (stat?.kind === 'file') {
				this.upsert(this.makeEntry(files[i], `${dirPath}${path.sep}${path.basename(files[i].rel)}`, stat), delta);
			}
		}
		await Promise.all(links);
	}

	private async addLink(located: Located, delta?: IndexDelta): Promise<void> {
		try {
			const info = await this.reader.lstat(path.join(located.folder.path, located.rel));
			const entry = await this.entryFor(located, info, true);
			if (entry) {
				this.upsert(entry, delta);
			}
		} catch {
			// Gone between readdir and lstat.
		}
	}

	/**
	 * The list entry for a file, or undefined when it must not be served: ignored, or a
	 * symlink to a directory or to anything outside the workspace or not served itself.
	 */
	private async entryFor(located: Located, info: FileInfo, parentsChecked: boolean): Promise<ResourceEntry | undefined> {
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
		if (stat.kind !== 'file') {
			return undefined;
		}
		return this.makeEntry(located, absPath, stat);
	}

	private makeEntry(located: Located, absPath: string, stat: FileInfo): ResourceEntry {
		const base = path.basename(absPath);
		// No `title`: it would only repeat the last segment of `name` (about 11% of an entry's
		// bytes), and clients show `name` when there is no title.
		return {
			uri: fileUri(absPath),
			name: this.roots.displayName(located),
			mimeType: mimeTypeForName(base),
			size: stat.size,
			annotations: { lastModified: new Date(stat.mtimeMs).toISOString() },
		};
	}
}

