import * as path from 'node:path';
import { DirectoryEntry, FileInfo, FileSystemReader, WorkspaceFolder } from '../ports';
import { FileFilter } from './fileFilter';
import { FileStore } from './fileStore';
import { Located, WorkspaceRoots } from './workspaceRoots';

/** Directories read at once while walking; each reads its files' stats together. */
const WALK_CONCURRENCY = 16;
/** Files of one directory stat()ed between two checks of the slice. */
const STAT_CHUNK = 256;

/** What a walk puts its files into, and how it asks about them: the index that runs it. */
export interface WalkTarget {
	readonly store: FileStore;
	readonly reader: FileSystemReader;
	readonly roots: WorkspaceRoots;
	readonly filter: FileFilter;
	readonly isCancelled: boolean;
	pause(): Promise<void> | undefined;
	/** Called right before a directory is read (to watch it first). */
	beforeRead?(absPath: string): void;
	/** What to list for a file found by a link, or undefined when it is not served. */
	statFor(located: Located, info: FileInfo, parentsChecked: boolean): Promise<FileInfo | undefined>;
}

/** Takes a file found in a live index (to add or update it and note the change). */
export type LiveFile = (dir: number, name: string, stat: FileInfo) => void;

/**
 * Walks every folder of the target from its root (interning the roots first, in folder order),
 * into its store or, with `live`, into that.
 */
export async function walkFolders(target: WalkTarget, live?: LiveFile): Promise<void> {
	const roots = rootDirectories(target);
	const walk = new DirectoryWalk(target, live);
	await Promise.all(roots.map(dir => walk.run(dir)));
}

/** The folder roots' directory numbers in the target's store (interned on first call). */
export function rootDirectories(target: WalkTarget): number[] {
	return target.roots.folders.map((folder, i) => target.store.dirs.root(i, folder.path));
}

/**
 * Reads a directory tree into the store: 16 directories at a time, `.gitignore` and filters
 * checked once per directory and then by name, stats a few hundred at a time. With `live`
 * (a directory created while the index is live) files go there, to be announced.
 */
export class DirectoryWalk {
	private readonly rootPaths: ReadonlySet<string>;

	constructor(private readonly target: WalkTarget, private readonly live?: LiveFile) {
		this.rootPaths = new Set(target.roots.folders.map(f => f.path));
	}

	async run(start: number): Promise<void> {
		const pending: number[] = [start];
		let active = 0;
		await new Promise<void>(resolve => {
			const pump = () => {
				if (this.target.isCancelled) {
					pending.length = 0;
				}
				while (active < WALK_CONCURRENCY && pending.length > 0) {
					const dir = pending.pop()!;
					active++;
					void this.readDir(dir, pending).finally(() => {
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

	/**
	 * One directory: read, then the per-name and per-file work in the synchronous steps below.
	 * This async function keeps only the waits: the engine optimizes it as a whole, with what it
	 * inlines, and compiles it again after each surprise (an empty directory, the first
	 * `.gitignore`, the first link), which cost more than the walk's own work at 100,000 files
	 * when the loops lived here.
	 */
	private async readDir(dir: number, pending: number[]): Promise<void> {
		const { store, filter, reader } = this.target;
		const directory = store.dirs.get(dir);
		const folder = this.target.roots.folders[directory.folder];
		let children;
		try {
			this.target.beforeRead?.(directory.absPath);
			children = await reader.readDirectory(directory.absPath);
		} catch {
			return; // vanished or unreadable: nothing to serve below it
		}
		// Awaited only when the slice is over: an `await` of nothing still costs a turn of the
		// microtask queue, per directory.
		const wait = this.target.pause();
		if (wait) {
			await wait;
		}
		await filter.loadGitignore(folder, directory.rel, hasFile(children, '.gitignore'));
		const files: string[] = [];
		const prefix = withSeparator(directory.absPath);
		const links = this.sortOut(dir, directory.rel, prefix, folder, children, files, pending);
		// In URI order, so the store needs no sort for this directory.
		store.dirs.sortNames(directory, files);
		// A few hundred stats at a time: a directory of 50,000 files is many slices, not one.
		for (let start = 0; start < files.length; start += STAT_CHUNK) {
			const between = start > 0 ? this.target.pause() : undefined;
			if (between) {
				await between;
			}
			const end = Math.min(start + STAT_CHUNK, files.length);
			this.addFiles(dir, files, start, await reader.statMany(pathsOf(prefix, files, start, end)));
		}
		if (links.length > 0) {
			await Promise.all(links);
		}
	}

	/**
	 * Sorts a directory's served children: subdirectories onto `pending`, files into `files`,
	 * links to be checked (returned); the rest is dropped. `rel` and `prefix` are the directory's
	 * relative path and its absolute path with a separator.
	 */
	private sortOut(dir: number, rel: string, prefix: string, folder: WorkspaceFolder, children: readonly DirectoryEntry[], files: string[], pending: number[]): Promise<void>[] {
		const { store, filter } = this.target;
		const names = filter.checkerFor(folder, rel);
		const links: Promise<void>[] = [];
		for (let i = 0; i < children.length; i++) {
			const { name, kind } = children[i];
			if (kind === 'directory') {
				if (!names.isIgnored(name, true) && !this.rootPaths.has(prefix + name)) {
					pending.push(store.dirs.child(dir, name)); // another folder's root is walked as that folder
				}
			} else if (kind === 'file') {
				if (!names.isIgnored(name, false)) {
					files.push(name);
				}
			} else if (kind === 'symlink') {
				if (!names.isIgnored(name, false)) {
					links.push(this.addLink(dir, folder, rel ? `${rel}/${name}` : name, name));
				}
			}
		}
		return links;
	}

	/** Adds the files of `names` from `start` on whose stats (in the same order) say they still are files. */
	private addFiles(dir: number, names: readonly string[], start: number, stats: readonly (FileInfo | undefined)[]): void {
		for (let i = 0; i < stats.length; i++) {
			const stat = stats[i];
			if (stat !== undefined && stat.kind === 'file') {
				this.add(dir, names[start + i], stat);
			}
		}
	}

	private async addLink(dir: number, folder: WorkspaceFolder, rel: string, name: string): Promise<void> {
		try {
			const located = { folder, rel };
			const info = await this.target.reader.lstat(path.join(folder.path, rel));
			const stat = await this.target.statFor(located, info, true);
			if (stat) {
				this.add(dir, name, stat);
			}
		} catch {
			// Gone between readdir and lstat.
		}
	}

	private add(dir: number, name: string, stat: FileInfo): void {
		if (this.live) {
			this.live(dir, name, stat);
		} else {
			this.target.store.add(dir, name, stat.size, stat.mtimeMs);
		}
	}
}

function hasFile(children: readonly DirectoryEntry[], name: string): boolean {
	for (let i = 0; i < children.length; i++) {
		// Both read for every child: a property first read only on a match would be new to the
		// optimized code, which is then thrown away and compiled again.
		const { name: childName, kind } = children[i];
		if (kind === 'file' && childName === name) {
			return true;
		}
	}
	return false;
}

function withSeparator(dirPath: string): string {
	return dirPath.endsWith(path.sep) ? dirPath : dirPath + path.sep;
}

/** The full paths of `names[start..end)` in the directory whose path (with its separator) is `prefix`. */
function pathsOf(prefix: string, names: readonly string[], start: number, end: number): string[] {
	const paths: string[] = [];
	for (let i = start; i < end; i++) {
		paths.push(prefix + names[i]);
	}
	return paths;
}
