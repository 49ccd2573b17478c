import { Emitter, Event } from '../../common/event';
import { Disposable } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { EventLoopSlices } from '../files/eventLoopSlices';
import { FileSettings, FileSystemReader, OpenDocuments, SettingsSource, WorkspaceFoldersSource } from '../ports';
import { StoredFiles } from '../files/fileStore';
import { ResourceChange } from '../resource';
import { fileUri, fileUriToPath } from '../uriGuard';
import { DirtyText, FileBatchBuilder, IndexSetup, SearchBackend, SearchRoot } from './ports';

/** Gathers a burst of changes (a save, typing) into one update of the index. */
const FLUSH_MS = 20;
/** Longest stretch of taking the list between two turns of the event loop. */
const SLICE_MS = 4;
/**
 * Files sent to the backend at a time: a whole list of a million files, joined and posted at
 * once, was held two and three times over (the strings, their copy in the message, the other
 * thread's copy) next to the index. A part this small joins into a string V8 keeps with the
 * young objects, gone at the next minor collection, where a larger one is a large object that
 * only a full collection frees.
 */
export const PART_FILES = 1024;

/**
 * The files the search may look at, as the files provider lists them: its list was made by the
 * one served-or-not rule, and its changes follow that rule. The search never decides for itself.
 */
export interface ListedFiles {
	ready(): Promise<void>;
	/** Resolves once the files index is first built, without starting it; absent: the feed waits for a search. */
	whenBuilt?(): Promise<void>;
	/** Resolves once the files index begins to be built, without starting it. */
	whenBuilding?(): Promise<void>;
	/** The listed files with their paths (no entries are built for them). */
	listedFiles(): StoredFiles;
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
	/** How the whole list is cut into slices (tests pass slices that pause at every step). */
	readonly slices?: EventLoopSlices;
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
	/** A list was begun: `prepare` has nothing left to say. */
	private listBegun = false;
	private readonly slices: EventLoopSlices;

	constructor(private readonly ports: SearchFeedPorts) {
		super();
		// Short slices: the list is sent while clients are being served.
		this.slices = ports.slices ?? new EventLoopSlices(SLICE_MS);
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

	/**
	 * Tells the backend which list is coming while the files index is being built (no list was
	 * sent yet): it can read its cache meanwhile.
	 */
	async prepare(): Promise<void> {
		const setup = await this.setup();
		if (!this.listBegun && !this.isDisposed) {
			this.ports.backend.prepare?.(setup);
		}
	}

	/** The folders (with where each really is) and the read cap: what an index and its cache are for. */
	private async setup(): Promise<IndexSetup> {
		const { folders, reader, settings } = this.ports;
		const roots: SearchRoot[] = await Promise.all(folders.folders().map(async f => ({
			path: f.path,
			name: f.name,
			realPath: await reader.realpath(f.path).catch(() => f.path),
		})));
		return { roots, maxFileSize: settings.get().maxFileSize };
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

	/**
	 * Sends the whole list, taken a slice at a time and sent in parts of `PART_FILES`. After each
	 * pause the walk goes on after the last file taken, found again by its URI: files listed or
	 * gone meanwhile move the others, and those changes themselves reach the backend as updates
	 * once the list is sent.
	 */
	private async sync(): Promise<void> {
		const { files, documents, backend } = this.ports;
		const setup = await this.setup();
		const { roots } = setup;
		this.listBegun = true;
		let listed = files.listedFiles();
		let part = new FileBatchBuilder(Math.min(listed.length, PART_FILES), roots);
		let begun = false;
		const send = (more: boolean) => {
			if (begun) {
				backend.extendReset(part.build(), more);
			} else {
				backend.reset(setup, part.build(), more);
				begun = true;
			}
			part = new FileBatchBuilder(Math.min(listed.length, PART_FILES), roots);
		};
		let taken = 0;
		for (let i = 0; i < listed.length; i++) {
			const wait = (taken & 0xff) === 0xff ? this.slices.pause() : undefined;
			if (wait) {
				const last = listed.uriAt(i - 1);
				await wait;
				if (this.isDisposed) {
					return;
				}
				listed = files.listedFiles();
				i = listed.search(last, true);
				if (i >= listed.length) {
					break;
				}
			}
			part.add(listed.at(i));
			taken++;
			if (part.length === PART_FILES) {
				send(true);
			}
		}
		if (this.isDisposed) {
			return;
		}
		send(false);
		const dirty = (documents.dirtyPaths?.() ?? [])
			.filter(p => files.isServedNow(p))
			.map(p => ({ path: p, text: documents.dirtyText(p) }));
		if (dirty.length > 0) {
			backend.update(new FileBatchBuilder(0).build(), [], dirty);
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
		const listed = files.listedFiles();
		const changed = new FileBatchBuilder(uris.size, this.ports.folders.folders());
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
			const file = listed.find(own);
			if (file) {
				changed.add(file);
				dirty.push({ path: absPath, text: documents.dirtyText(absPath) });
			} else {
				removed.push(absPath);
			}
		}
		backend.update(changed.build(), removed, dirty);
		this.updatedEmitter.fire();
	}
}
