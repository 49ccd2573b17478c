import { Buffer } from 'node:buffer';
import { Event } from '../common/event';
import { IDisposable } from '../common/lifecycle';

/** A root the files provider serves. `path` is absolute. */
export interface WorkspaceFolder {
	readonly name: string;
	readonly path: string;
}

export interface WorkspaceFoldersSource {
	folders(): readonly WorkspaceFolder[];
	readonly onDidChange: Event<void>;
}

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface DirectoryEntry {
	readonly name: string;
	readonly kind: EntryKind;
}

export interface FileInfo {
	readonly kind: EntryKind;
	readonly size: number;
	readonly mtimeMs: number;
}

/** Disk access. Errors are Node-style (`code` ENOENT, EACCES, ...). */
export interface FileSystemReader {
	readDirectory(dirPath: string): Promise<DirectoryEntry[]>;
	/** Does not follow symlinks. */
	lstat(filePath: string): Promise<FileInfo>;
	/** Follows symlinks. */
	stat(filePath: string): Promise<FileInfo>;
	realpath(filePath: string): Promise<string>;
	/**
	 * Opens `filePath` (following links), asks `accept` about the real path of what was opened,
	 * and reads it only if accepted and not larger than `maxBytes`. Both checks look at the open
	 * file, never at the name again: a link swapped in after the check cannot redirect the read,
	 * and a file that grows between stat and read cannot slip past the cap.
	 */
	readFileUpTo(filePath: string, maxBytes: number, accept: (realPath: string) => boolean | Promise<boolean>): Promise<ReadResult>;
	/**
	 * Reads a file the search index lists, as `readListedFileSync` in node/nodeFileSystem.ts does
	 * (the index's signatures only; what a client sees is read through `readFileUpTo`).
	 */
	readListedFile(filePath: string, maxBytes: number, scratch: ReadScratch, listedSize?: number): Promise<ListedRead>;
	/**
	 * Stats many files (following symlinks) in one call; undefined for those that vanished.
	 * Indexing calls it once per directory, which is far cheaper than a promise per file.
	 */
	statMany(filePaths: readonly string[]): Promise<(FileInfo | undefined)[]>;
}

/**
 * A buffer kept between reads of many files whose bytes are used at once and dropped: grown when
 * a file does not fit, and what a read returns is a view of it until the next read.
 */
export interface ReadScratch {
	buffer: Buffer;
}

/** A listed file's bytes, and where the file really is when its name was a link. */
export interface ListedRead {
	readonly result: ReadResult;
	/** Set only when the last part of the name was a link: where it led. */
	readonly realPath?: string;
}

export type ReadResult =
	| { readonly kind: 'ok'; readonly bytes: Uint8Array }
	| { readonly kind: 'too-large'; readonly size: number }
	| { readonly kind: 'not-a-file' }
	/** `accept` said no, or the opened file's real path could not be known. */
	| { readonly kind: 'refused' };

export interface FileChangeEvent {
	readonly kind: 'created' | 'changed' | 'deleted';
	readonly path: string;
}

/** Decides whether the watcher may skip a path (an ignored directory need not be watched). */
export type WatchFilter = (absPath: string, isDirectory: boolean | undefined) => boolean;

/** File-system change events for the workspace folders. */
export interface FileWatcher extends IDisposable {
	readonly onDidChange: Event<readonly FileChangeEvent[]>;
	/**
	 * (Re)starts watching these folders; `ignored` may be consulted to skip subtrees.
	 * `directories` are the served directories the index just walked: a watcher that watches
	 * directory by directory may take them instead of reading the whole tree again.
	 */
	watch(folders: readonly WorkspaceFolder[], ignored: WatchFilter, directories?: Iterable<string>): void;
	/**
	 * Watches one more directory from now on (watchers that watch directory by directory). A walk
	 * calls it right before it reads each directory, so that a file made there after the read is
	 * reported: watched first, then read, nothing falls between.
	 */
	watchDirectory?(dir: string): void;
}

/** Documents open in an editor. Headless there are none. */
export interface OpenDocuments {
	/** The unsaved text of the file when it is open and dirty. */
	dirtyText(absPath: string): string | undefined;
	/** The absolute paths of the documents open and dirty now (the search index takes their text when it starts). */
	dirtyPaths?(): readonly string[];
	/** Fires the absolute path of a document whose text changed, was saved or reverted. */
	readonly onDidChange: Event<string>;
}

/** `maxFileSize` when the user sets none, in both hosts (the `mcpResources.maxFileSize` default in package.json too). */
export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/** What the files provider serves, from settings (VS Code) or arguments (headless). */
/** Where git's user-level configuration lives, as the host sees it (git's own rules). */
export interface GitUserConfig {
	/** The system and global config files, in the order git reads them (a later value wins). */
	readonly configFiles: readonly string[];
	/** The user's home, for values that start with `~/`. */
	readonly home: string;
	/** Git's excludes file when no config names one: `$XDG_CONFIG_HOME/git/ignore`, or `~/.config/git/ignore`. */
	readonly defaultExcludesFile: string;
}

export interface FileSettings {
	/** Glob patterns, relative to each folder, like VS Code's `files.exclude` keys. */
	readonly exclude: readonly string[];
	/** Extra secret patterns in .gitignore syntax, on top of the built-in deny-list. */
	readonly secrets: readonly string[];
	readonly respectGitignore: boolean;
	/** Largest file `resources/read` returns, in bytes. */
	readonly maxFileSize: number;
	/** Where a user changes `maxFileSize`, named in the too-large error. */
	readonly maxFileSizeSetting: string;
	/**
	 * Where git's user-level config is, so that with `respectGitignore` the user's global
	 * excludes file (`core.excludesFile`) applies inside repositories as git applies it.
	 * Absent: no such file is read.
	 */
	readonly gitUser?: GitUserConfig;
}

/**
 * The one served-or-not decision every family asks (the files provider makes it): secrets,
 * excludes, `.gitignore`, and links that leave the workspace. Paths are absolute, spelled
 * under the workspace folders as the user named them.
 */
export interface ServedRule {
	/** Resolves once the rules are loaded (the `.gitignore` files read). */
	ready(): Promise<void>;
	/**
	 * The decision from what is loaded, for synchronous callers (lists, change events): false
	 * until the rules are loaded, so nothing is shown before it can be judged.
	 */
	isServedNow(absPath: string): boolean;
	/**
	 * The full decision: reads what is not loaded yet and resolves links. `isDirectory` when the
	 * path names a directory (git lists a new one as `dir/`): directory patterns (`.ssh/`) apply.
	 */
	isServed(absPath: string, isDirectory?: boolean): Promise<boolean>;
	/** The rules changed (settings, folders, a `.gitignore`): decisions may differ. */
	readonly onDidChangeRules: Event<void>;
}

export interface SettingsSource<T> {
	get(): T;
	readonly onDidChange: Event<void>;
}

export const noOpenDocuments: OpenDocuments = {
	dirtyText: () => undefined,
	onDidChange: Event.None,
};
