import * as path from 'node:path';
import { fileUri } from '../uriGuard';
import { DirectoryHolds } from './directoryHolds';

/** Names that `pathToFileURL` leaves as they are, so a URI is the directory's URI plus the name. */
const PLAIN_NAME = /^[A-Za-z0-9._!$&'()*+,;=@-]+$/;

export interface Directory {
	readonly folder: number;
	/** Workspace-relative path with `/` separators ('' for a folder root). */
	readonly rel: string;
	/** Absolute path, as the walk spelled it. */
	readonly absPath: string;
	/** The directory's URI with the `/` its children's names follow (kept whole: every listed entry starts with it). */
	readonly base: string;
	/** What list entries put before a file name: the display path of the directory and `/`. */
	readonly namePrefix: string;
	/** Sort key among its siblings: the encoded name and `/` (empty for a folder root). */
	readonly key: string;
	readonly parent: number;
}

/**
 * The directories of an index, each with what its files' URIs and list names start with: a file
 * then needs only its name and a directory number. A directory stays while a file in it or
 * below it does (`DirectoryHolds`); its number is then used again, so the table follows what is
 * listed, not everything ever seen. Numbers say nothing about order: the URI order comes from
 * the keys, and cursors and lookups go by URI.
 */
export class DirectoryTable {
	/** By directory number; undefined for a released number not yet used again. */
	private readonly dirs: (Directory | undefined)[] = [];
	private readonly ids = new Map<string, number>();
	private readonly holds = new DirectoryHolds();
	/** Released numbers, used again before new ones. */
	private readonly freeNumbers: number[] = [];

	constructor(private readonly folderNames: readonly string[], private readonly multiRoot: boolean) {}

	/** Every directory number is below this (some of them free: see `has`). */
	get length(): number {
		return this.dirs.length;
	}

	/** Directories in the table now. */
	get count(): number {
		return this.dirs.length - this.freeNumbers.length;
	}

	has(dir: number): boolean {
		return this.dirs[dir] !== undefined;
	}

	get(dir: number): Directory {
		return this.dirs[dir]!;
	}

	/** The directory of a workspace folder's root, kept for good. */
	root(folder: number, absPath: string): number {
		return this.intern(absPath, -1, () => ({
			folder, rel: '', absPath, base: withSlash(fileUri(absPath)), namePrefix: this.multiRoot ? `${this.folderNames[folder]}/` : '', key: '', parent: -1,
		}));
	}

	/**
	 * The subdirectory `name` of a directory. It stays while a file in it or below it does
	 * (see `hold`), or until the next `releaseUnheld` when none ever is.
	 */
	child(parent: number, name: string): number {
		const p = this.dirs[parent]!;
		const absPath = p.absPath.endsWith(path.sep) ? p.absPath + name : `${p.absPath}${path.sep}${name}`;
		return this.intern(absPath, parent, () => {
			const encoded = this.encode(p, name, absPath);
			return {
				folder: p.folder, rel: p.rel ? `${p.rel}/${name}` : name, absPath, base: `${p.base}${encoded}/`, namePrefix: `${p.namePrefix}${name}/`, key: `${encoded}/`, parent,
			};
		});
	}

	/** A file now in `dir`. */
	hold(dir: number): void {
		this.holds.hold(dir);
	}

	/** A file no longer in `dir` (its number freed). */
	drop(dir: number): void {
		this.holds.drop(dir);
	}

	/**
	 * Releases the directories no file is in or below any more, and those interned since the
	 * last call that none ever was. Nothing may hold a directory number across it but files.
	 */
	releaseUnheld(pause: () => Promise<void> | undefined): Promise<void> {
		return this.holds.sweep(dir => this.release(dir), pause);
	}

	/**
	 * After a walk: directories it found empty stay until the next `releaseUnheld`, and the
	 * notes of all the others it interned (held by their files by now) are let go.
	 */
	walked(): void {
		this.holds.trim();
	}

	/** Every directory in the table, by number. */
	*paths(): Iterable<string> {
		for (const dir of this.dirs) {
			if (dir !== undefined) {
				yield dir.absPath;
			}
		}
	}

	/** A name as it appears in a URI below `dir`: as it is, or exactly as `pathToFileURL` encodes it. */
	encode(dir: Directory, name: string, absPath?: string): string {
		if (PLAIN_NAME.test(name)) {
			return name;
		}
		const full = absPath ?? (dir.absPath.endsWith(path.sep) ? dir.absPath + name : `${dir.absPath}${path.sep}${name}`);
		return fileUri(full).slice(dir.base.length);
	}

	/** Sorts names of files in `dir` as their URIs sort. */
	sortNames(dir: Directory, names: string[]): void {
		if (names.every(name => PLAIN_NAME.test(name))) {
			names.sort(); // no comparator: UTF-16 code units, as URIs compare
		} else {
			const keys = new Map(names.map(name => [name, this.encode(dir, name)]));
			names.sort((a, b) => compare(keys.get(a)!, keys.get(b)!));
		}
	}

	/** The URI of the file `name` in a directory. */
	fileUri(dir: Directory, name: string): string {
		return dir.base + this.encode(dir, name);
	}

	private intern(absPath: string, parent: number, make: () => Directory): number {
		let id = this.ids.get(absPath);
		if (id === undefined) {
			id = this.freeNumbers.pop() ?? this.dirs.length;
			this.dirs[id] = make();
			this.ids.set(absPath, id);
			this.holds.interned(id, parent);
		}
		return id;
	}

	/** Forgets a directory nothing holds; gives its parent. */
	private release(dir: number): number {
		const { absPath, parent } = this.dirs[dir]!;
		this.ids.delete(absPath);
		this.dirs[dir] = undefined;
		this.freeNumbers.push(dir);
		return parent;
	}
}

function withSlash(uri: string): string {
	return uri.endsWith('/') ? uri : `${uri}/`;
}

/** Code unit order, as URIs compare. */
export function compare(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
