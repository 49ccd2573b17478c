import * as path from 'node:path';
import { Emitter } from '../common/event';
import { Disposable, IDisposable } from '../common/lifecycle';
import { isFileOrGone } from './fileOrGone';
import { FileSystemReader, ServedRule, WorkspaceFolder, WorkspaceFoldersSource } from './ports';
import { isInsideFolder, relativeInside } from '../common/pathContainment';

/** A path inside a workspace folder that the files provider would not refuse outright. */
export interface ScopedPath {
	readonly folder: WorkspaceFolder;
	/** Relative to the folder, `/` separators. */
	readonly rel: string;
	/** What clients see: `rel`, prefixed by the folder name in a multi-root workspace. */
	readonly display: string;
	readonly absPath: string;
}

/**
 * Which absolute paths the problems, git and editor providers may mention: inside a workspace
 * folder and served by the one rule the files provider applies (secrets, excludes,
 * `.gitignore`, links). Paths outside are never shown, so no host path leaks.
 */
export class WorkspaceScope extends Disposable {
	private readonly changeEmitter = this._register(new Emitter<void>());
	/** Folders or rules changed: what is in scope may differ. */
	readonly onDidChange = this.changeEmitter.event;
	private realFolders: Promise<readonly WorkspaceFolder[]> | undefined;
	private knownRealFolders: readonly WorkspaceFolder[] = [];

	constructor(
		private readonly folders: WorkspaceFoldersSource,
		private readonly rule: ServedRule,
		private readonly reader: FileSystemReader,
	) {
		super();
		this._register(folders.onDidChange(() => {
			this.realFolders = undefined;
			this.knownRealFolders = [];
			this.changeEmitter.fire();
		}));
		this._register(rule.onDidChangeRules(() => this.changeEmitter.fire()));
	}

	/** Resolves once paths can be located and judged. */
	async ready(): Promise<void> {
		await Promise.all([this.loadRealFolders(), this.rule.ready()]);
	}

	get isMultiRoot(): boolean {
		return this.folders.folders().length > 1;
	}

	/**
	 * The scoped path of `absPath` when it lies in a folder (by spelling, or by the folders'
	 * real paths once known) and the rule, as loaded, serves it.
	 */
	locate(absPath: string): ScopedPath | undefined {
		const found = this.inFolder(absPath);
		return found && this.rule.isServedNow(found.absPath) ? found : undefined;
	}

	/**
	 * Like `locate`, with the full decision (`.gitignore` files not loaded yet, links resolved);
	 * `isDirectory` when the path names a directory, so directory patterns (`.ssh/`) apply.
	 */
	async locateServed(absPath: string, isDirectory = false): Promise<ScopedPath | undefined> {
		await this.loadRealFolders();
		const found = this.inFolder(absPath);
		return found && await this.rule.isServed(found.absPath, isDirectory) ? found : undefined;
	}

	/** The scoped path a client names by its display path, or undefined if out of scope. */
	async resolveDisplay(display: string): Promise<ScopedPath | undefined> {
		const segments = display.split('/');
		// A backslash separates only on Windows; on POSIX it is a name's own character, which
		// `file:` URIs read (uriGuard): a file's problems and outline must read as well.
		if (segments.some(s => s === '' || s === '.' || s === '..' || s.includes('\0') || (path.sep === '\\' && s.includes('\\')))) {
			return undefined;
		}
		const folders = this.folders.folders();
		let folder: WorkspaceFolder | undefined;
		let rest = segments;
		if (folders.length > 1) {
			folder = folders.find(f => f.name === segments[0]);
			rest = segments.slice(1);
		} else {
			folder = folders[0];
		}
		if (!folder || rest.length === 0) {
			return undefined;
		}
		return this.locateServed(path.join(path.resolve(folder.path), ...rest));
	}

	/**
	 * The position of the first workspace folder that `root` holds or lies in (by spelling, or by
	 * the folders' real paths once known); Infinity when none does. Git names repositories in this
	 * order, so two of one name are told apart as their folders are (`app`, `app-2`).
	 */
	folderPosition(root: string): number {
		const spelled = this.folders.folders();
		for (let i = 0; i < spelled.length; i++) {
			for (const folder of [spelled[i].path, this.knownRealFolders[i]?.path]) {
				if (folder !== undefined && (isInsideFolder(folder, root) || isInsideFolder(root, folder))) {
					return i;
				}
			}
		}
		return Infinity;
	}

	/** The full check the files provider makes, .gitignore files and links included. */
	async isServed(absPath: string, isDirectory = false): Promise<boolean> {
		return (await this.locateServed(absPath, isDirectory)) !== undefined;
	}

	/**
	 * Whether the files provider serves `absPath` as a file, or would were it there (a deleted
	 * file git names): what git state may name. The rule alone passes a directory, a link to one
	 * and a link that leads nowhere, none of which is a resource.
	 */
	async isServedFile(absPath: string): Promise<boolean> {
		return await this.isServed(absPath) && await isFileOrGone(this.reader, absPath);
	}

	/** `isFileOrGone` through this scope's reader, for a path already located. */
	isFileOrGone(absPath: string): Promise<boolean> {
		return isFileOrGone(this.reader, absPath);
	}

	/** Resolves the folders' real paths, so paths git reports (always real) can be located. */
	async loadRealFolders(): Promise<void> {
		this.realFolders ??= Promise.all(this.folders.folders().map(async f => {
			try {
				return { name: f.name, path: await this.reader.realpath(f.path) };
			} catch {
				return f;
			}
		}));
		const current = this.realFolders;
		const reals = await current;
		if (current === this.realFolders) {
			this.knownRealFolders = reals;
		}
	}

	private inFolder(absPath: string): ScopedPath | undefined {
		return this.find(this.folders.folders(), absPath) ?? this.findReal(absPath);
	}

	private findReal(absPath: string): ScopedPath | undefined {
		const found = this.find(this.knownRealFolders, absPath);
		if (!found) {
			return undefined;
		}
		// Report the folder as the user named it.
		const folder = this.folders.folders().find(f => f.name === found.folder.name) ?? found.folder;
		return { ...found, folder, absPath: path.join(path.resolve(folder.path), ...found.rel.split('/')) };
	}

	private find(folders: readonly WorkspaceFolder[], absPath: string): ScopedPath | undefined {
		let best: ScopedPath | undefined;
		const multi = this.folders.folders().length > 1;
		for (const folder of folders) {
			const rel = relativeInside(path.resolve(folder.path), absPath);
			if (rel !== undefined && (!best || folder.path.length > best.folder.path.length)) {
				best = { folder, rel, display: multi ? `${folder.name}/${rel}` : rel, absPath };
			}
		}
		return best;
	}
}

/** Registers `source` with its owner when it holds resources (adapters do, plain fakes may not). */
export function ownIfDisposable(source: unknown, register: (d: IDisposable) => void): void {
	if (source && typeof (source as Partial<IDisposable>).dispose === 'function') {
		register(source as IDisposable);
	}
}

/** Percent-encodes each segment of a `/`-separated path for use inside a URI. */
export function encodePath(rel: string): string {
	return rel.split('/').map(encodeURIComponent).join('/');
}

/** The inverse of `encodePath`; undefined for malformed escapes or encoded separators. */
export function decodePath(encoded: string): string | undefined {
	const out: string[] = [];
	for (const raw of encoded.split('/')) {
		let segment: string;
		try {
			segment = decodeURIComponent(raw);
		} catch {
			return undefined;
		}
		if (segment.includes('/')) {
			return undefined;
		}
		out.push(segment);
	}
	return out.join('/');
}
