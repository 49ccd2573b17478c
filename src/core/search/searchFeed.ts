import { Emitter, Event } from '../../common/event';
import { Disposable } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { EventLoopSlices } from '../files/eventLoopSlices';
import { FileSettings, FileSystemReader, OpenDocuments, SettingsSource, WorkspaceFoldersSource } from '../ports';
import { ResourceChange, ResourceEntry, SortedEntries } from '../resource';
import { fileUri, fileUriToPath } from '../uriGuard';
import { DirtyText, fileBatch, SearchBackend, SearchRoot } from './ports';

/** Gathers a burst of changes (a save, typing) into one update of the index. */
const FLUSH_MS = 20;

/**
 * The files the search may look at, as the files provider lists them: its list was made by the
 * one served-or-not rule, and its changes follow that rule. The search never decides for itself.
 */
export interface ListedFiles {
	ready(): Promise<void>;
	/** Resolves once the files index is first built, without starting it; absent: the feed waits for a search. */
	whenBuilt?(): Promise<void>;
	list(): SortedEntries;
	/** The rule, by name, as loaded now: every answer is checked against it once more. */
	isServedNow(absPath: string): boolean;
	readonly onDidChange: Event<ResourceChange>;
	/** A new files index (settings, folders, `.gitignore`) decides from now on. */
	readonly onDidChangeRules: Event<void>;
}

export interface SearchFeedPorts {
	readonly files: ListedFiles;
	readonly folders: WorkspaceFoldersSource;
	readonly reader: FileSystemReader;
	readonly settings: SettingsSource<FileSettings>;
	readonly documents: OpenDocuments;
	readonly backend: SearchBackend;
	readonly log: Logger;
}

/**
 * Keeps the search backend's files what the files provider lists: the whole list once the files
 * index is built (and again whenever it is rebuilt), then each change it announces, with the
 * unsaved text of open documents. Changes are gathered for a few milliseconds, and none is sent
 * while the whole list is on its way, so the backend sees them in order.
 */
export class SearchFeed extends Disposable {
	private readonly updatedEmitter = this._register(new Emitter<void>());
	/** The backend was told of changes (or of a new list): answers may differ now. */
	readonly onDidUpdate = this.updatedEmitter.event;
	private pending = new Set<string>();
	private timer: NodeJS.Timeout | undefined;
	private syncing: Promise<void> | undefined;
	private syncAgain = false;
	private first: Promise<void> | undefined;
	private readonly slices = new EventLoopSlices();

	constructor(private readonly ports: SearchFeedPorts) {
		super();
		this._register(ports.files.onDidChangeRules(() => this.resync()));
		this._register(ports.files.onDidChange(change => this.changed(change.updated)));
		if (ports.backend.onDidRestart) {
			this._register(ports.backend.onDidRestart(() => void (this.first && this.resync())));
		}
		this._register({ dispose: () => this.timer && clearTimeout(this.timer) });
	}

	/** Resolves once the backend has had the first whole list (starting it if need be). */
	ready(): Promise<void> {
		this.first ??= this.ports.files.ready().then(() => this.resync());
		return this.first;
	}

	private resync(): Promise<void> {
		if (this.syncing) {
			this.syncAgain = true;
			return this.syncing;
		}
		this.syncing = this.sync().catch(err => this.ports.log.error('search index: could not take the file list', err)).finally(() => {
			this.syncing = undefined;
			if (this.syncAgain && !this.isDisposed) {
				this.syncAgain = false;
				void this.resync();
			} else {
				this.flush();
			}
		});
		return this.syncing;
	}

	/** Sends the whole list, entries read a slice at a time (the list builds each one asked for). */
	private async sync(): Promise<void> {
		const { files, folders, reader, settings, documents, backend } = this.ports;
		const roots: SearchRoot[] = await Promise.all(folders.folders().map(async f => ({
			path: f.path,
			name: f.name,
			realPath: await reader.realpath(f.path).catch(() => f.path),
		})));
		const list = files.list();
		const listed: { path: string; display: string; size: number; mtimeMs: number }[] = [];
		for (let i = 0; i < list.length; i++) {
			const wait = (i & 0xff) === 0xff ? this.slices.pause() : undefined;
			if (wait) {
				await wait;
			}
			const file = listedFile(list.at(i));
			if (file) {
				listed.push(file);
			}
		}
		if (this.isDisposed) {
			return;
		}
		backend.reset({ roots, maxFileSize: settings.get().maxFileSize }, fileBatch(listed));
		const dirty = (documents.dirtyPaths?.() ?? [])
			.filter(p => files.isServedNow(p))
			.map(p => ({ path: p, text: documents.dirtyText(p) }));
		if (dirty.length > 0) {
			backend.update(fileBatch([]), [], dirty);
		}
		this.updatedEmitter.fire();
	}

	private changed(uris: readonly string[]): void {
		for (const uri of uris) {
			if (/^file:[^?#]*$/i.test(uri)) {
				this.pending.add(uri);
			}
		}
		if (this.pending.size > 0 && !this.timer) {
			this.timer = setTimeout(() => {
				this.timer = undefined;
				this.flush();
			}, FLUSH_MS);
		}
	}

	/** Tells the backend what the gathered URIs are now: listed (written or made), or gone. */
	private flush(): void {
		if (this.syncing || !this.first || this.pending.size === 0 || this.isDisposed) {
			return; // after the whole list, or once there is one
		}
		const uris = this.pending;
		this.pending = new Set();
		const { files, documents, backend } = this.ports;
		const list = files.list();
		const changed: { path: string; display: string; size: number; mtimeMs: number }[] = [];
		const removed: string[] = [];
		const dirty: DirtyText[] = [];
		const seen = new Set<string>();
		for (const uri of uris) {
			let absPath: string;
			try {
				absPath = fileUriToPath(uri);
			} catch {
				continue;
			}
			// By the file's own URI: a client's other spelling of it names the same file.
			const own = fileUri(absPath);
			if (seen.has(own)) {
				continue;
			}
			seen.add(own);
			const file = listedFile(find(list, own));
			if (file) {
				changed.push(file);
				dirty.push({ path: absPath, text: documents.dirtyText(absPath) });
			} else {
				removed.push(absPath);
			}
		}
		backend.update(fileBatch(changed), removed, dirty);
		this.updatedEmitter.fire();
	}
}

/** The listed entry of a URI, if it is listed. */
function find(list: SortedEntries, uri: string): ResourceEntry | undefined {
	if (list.search) {
		const entry = list.at(list.search(uri, false));
		return entry?.uri === uri ? entry : undefined;
	}
	for (let i = 0; i < list.length; i++) {
		if (list.at(i)?.uri === uri) {
			return list.at(i);
		}
	}
	return undefined;
}

function listedFile(entry: ResourceEntry | undefined): { path: string; display: string; size: number; mtimeMs: number } | undefined {
	if (!entry) {
		return undefined;
	}
	let absPath: string;
	try {
		absPath = fileUriToPath(entry.uri);
	} catch {
		return undefined;
	}
	const modified = entry.annotations?.lastModified;
	return { path: absPath, display: entry.name, size: entry.size ?? 0, mtimeMs: modified ? Date.parse(modified) : 0 };
}
