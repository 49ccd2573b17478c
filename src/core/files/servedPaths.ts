import * as path from 'node:path';
import { ResourceNotFound } from '../errors';
import { FileSystemReader } from '../ports';
import { fileUriToPath } from '../uriGuard';
import { FileIndex } from './fileIndex';

/** A client's file URI as a path the rules serve by its spelling, and the index that judged it. */
export interface LocatedFile {
	readonly absPath: string;
	readonly index: FileIndex;
}

/**
 * The one served-or-not rule for workspace files, as the current index applies it: by name
 * (settings, `.gitignore` files, secrets), then by where links lead for a path that exists.
 * The files' reads and subscriptions use it, and every other family through `ServedRule`.
 */
export class ServedPaths {
	constructor(
		private readonly reader: FileSystemReader,
		/** The index now, if one is built. */
		private readonly current: () => FileIndex | undefined,
		/** Resolves once the first index is built (or failed). */
		private readonly ready: () => Promise<void>,
	) {}

	/**
	 * The rule by name, from the current index's loaded `.gitignore` files (every directory the
	 * index walked): what problems, editor state and the like show synchronously. `isDirectory`
	 * when the path names a folder: folder patterns (`build/`, `.ssh/`) apply.
	 */
	isServedNow(absPath: string, isDirectory = false): boolean {
		const index = this.current();
		const located = index?.roots.locate(absPath);
		return !!located && !index!.filter.isIgnored(located.folder, located.rel, isDirectory) && !index!.links.isBehindRefused(absPath);
	}

	/** The rule the files' own reads apply: by name, then by real path when the file exists. */
	async isServed(absPath: string, isDirectory = false): Promise<boolean> {
		const index = await this.servedByName(absPath, isDirectory);
		// A path that is gone (a deleted file git still shows) is judged by its name alone.
		return !!index && await this.leadsToServed(absPath, index, true, isDirectory);
	}

	/** A client's URI as a path inside a workspace folder that the rules serve, by its spelling. */
	async locate(uri: string): Promise<LocatedFile> {
		const absPath = fileUriToPath(uri);
		const index = await this.servedByName(absPath);
		if (!index) {
			throw new ResourceNotFound(uri);
		}
		return { absPath, index };
	}

	/** Refuses a path whose real path (symlinks resolved) leaves the workspace or is not served. */
	async checkTarget(uri: string, { absPath, index }: LocatedFile): Promise<void> {
		if (!(await this.leadsToServed(absPath, index, false))) {
			throw new ResourceNotFound(uri);
		}
	}

	/**
	 * The file a subscription to `uri` watches, by the path the index and its watcher name it
	 * (links resolved): refused, as its read would be, unless it is a file the rules serve, or a
	 * link (or a path through a linked directory) to one.
	 */
	async subscribedFile(uri: string, { absPath, index }: LocatedFile): Promise<string> {
		const realPath = await this.reader.realpath(absPath).catch(() => undefined);
		const target = realPath === undefined ? undefined : realPath === absPath ? index.roots.locate(absPath) : index.roots.locateReal(realPath);
		const served = target !== undefined && (realPath === absPath || await index.filter.isServed(target.folder, target.rel, false));
		const stat = served ? await this.reader.stat(realPath!).catch(() => undefined) : undefined;
		if (!target || stat?.kind !== 'file') {
			throw new ResourceNotFound(uri);
		}
		return path.join(target.folder.path, target.rel);
	}

	/** Whether a real path (links resolved) is a file (or a directory) the rules serve. */
	async isServedTarget(realPath: string, index: FileIndex, isDirectory = false): Promise<boolean> {
		const target = index.roots.locateReal(realPath);
		return !!target && await index.filter.isServed(target.folder, target.rel, isDirectory);
	}

	/** The index that judged `absPath` served by its spelling (`.gitignore` files loaded), if it did. */
	private async servedByName(absPath: string, isDirectory = false): Promise<FileIndex | undefined> {
		await this.ready();
		const index = this.current();
		const located = index?.roots.locate(absPath);
		return index && located && await index.filter.isServed(located.folder, located.rel, isDirectory) ? index : undefined;
	}

	/** Whether `absPath`, links resolved, is itself or lands on a served file; `ifGone` when it does not exist. */
	private async leadsToServed(absPath: string, index: FileIndex, ifGone: boolean, isDirectory = false): Promise<boolean> {
		let realPath: string;
		try {
			realPath = await this.reader.realpath(absPath);
		} catch {
			return ifGone;
		}
		return realPath === absPath || this.isServedTarget(realPath, index, isDirectory);
	}
}
