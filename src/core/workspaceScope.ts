import * as path from 'node:path';
import { Emitter } from '../common/event';
import { Disposable, IDisposable } from '../common/lifecycle';
import { FileFilter } from './files/fileFilter';
import { FileSettings, FileSystemReader, SettingsSource, WorkspaceFolder, WorkspaceFoldersSource } from './ports';
import { relativeInside } from './uriGuard';

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
 * folder and not refused by the files provider's rules (secrets deny-list, excludes and, for
 * the async check, .gitignore). Paths outside are never shown, so no host path leaks.
 */
export class WorkspaceScope extends Disposable {
	private readonly changeEmitter = this._register(new Emitter<void>());
	/** Folders or settings changed: what is in scope may differ. */
	readonly onDidChange = this.changeEmitter.event;
	private filterCache: FileFilter | undefined;
	private realFolders: Promise<readonly WorkspaceFolder[]> | undefined;
	private knownRealFolders: readonly WorkspaceFolder[] = [];

	constructor(
		private readonly folders: WorkspaceFoldersSource,
		private readonly settings: SettingsSource<FileSettings>,
		private readonly reader: FileSystemReader,
	) {
		super();
		const reset = () => {
			this.filterCache = undefined;
			this.realFolders = undefined;
			this.knownRealFolders = [];
			this.changeEmitter.fire();
		};
		this._register(folders.onDidChange(reset));
		this._register(settings.onDidChange(reset));
	}

	get isMultiRoot(): boolean {
		return this.folders.folders().length > 1;
	}

	/**
	 * The scoped path of `absPath` when it lies in a folder (by spelling, or by the folders'
	 * real paths once known) and is not refused by the synchronous rules.
	 */
	locate(absPath: string): ScopedPath | undefined {
		const found = this.find(this.folders.folders(), absPath) ?? this.findReal(absPath);
		if (!found || this.filter().isIgnored(found.folder, found.rel, false)) {
			return undefined;
		}
		return found;
	}

	/** The scoped path a client names by its display path, or undefined if out of scope. */
	resolveDisplay(display: string): ScopedPath | undefined {
		const segments = display.split('/');
		if (segments.some(s => s === '' || s === '.' || s === '..' || s.includes('\0') || s.includes('\\'))) {
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
		return this.locate(path.join(path.resolve(folder.path), ...rest));
	}

	/** The full check the files provider makes, .gitignore files included. */
	async isServed(absPath: string): Promise<boolean> {
		await this.loadRealFolders();
		const found = this.locate(absPath);
		return !!found && await this.filter().isServed(found.folder, found.rel, false);
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

	private filter(): FileFilter {
		this.filterCache ??= new FileFilter(this.reader, this.settings.get());
		return this.filterCache;
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
