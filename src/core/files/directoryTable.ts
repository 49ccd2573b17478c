import * as path from 'node:path';
import { fileUri } from '../uriGuard';

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
 * The directories of an index, numbered in the order first seen, each with what its files'
 * URIs and list names start with: a file then needs only its name and a directory number.
 */
export class DirectoryTable {
	private readonly dirs: Directory[] = [];
	private readonly ids = new Map<string, number>();

	constructor(private readonly folderNames: readonly string[], private readonly multiRoot: boolean) {}

	get length(): number {
		return this.dirs.length;
	}

	get(dir: number): Directory {
		return this.dirs[dir];
	}

	/** The directory of a workspace folder's root. */
	root(folder: number, absPath: string): number {
		return this.intern(absPath, () => ({
			folder, rel: '', absPath, base: withSlash(fileUri(absPath)), namePrefix: this.multiRoot ? `${this.folderNames[folder]}/` : '', key: '', parent: -1,
		}));
	}

	/** The subdirectory `name` of a directory, remembered from now on. */
	child(parent: number, name: string): number {
		const p = this.dirs[parent];
		const absPath = p.absPath.endsWith(path.sep) ? p.absPath + name : `${p.absPath}${path.sep}${name}`;
		return this.intern(absPath, () => {
			const encoded = this.encode(p, name, absPath);
			return {
				folder: p.folder, rel: p.rel ? `${p.rel}/${name}` : name, absPath, base: `${p.base}${encoded}/`, namePrefix: `${p.namePrefix}${name}/`, key: `${encoded}/`, parent,
			};
		});
	}

	/** Every directory seen, in the order first seen. */
	*paths(): Iterable<string> {
		for (const dir of this.dirs) {
			yield dir.absPath;
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

	private intern(absPath: string, make: () => Directory): number {
		let id = this.ids.get(absPath);
		if (id === undefined) {
			id = this.dirs.length;
			this.dirs.push(make());
			this.ids.set(absPath, id);
		}
		return id;
	}
}

function withSlash(uri: string): string {
	return uri.endsWith('/') ? uri : `${uri}/`;
}

/** Code unit order, as URIs compare. */
export function compare(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
