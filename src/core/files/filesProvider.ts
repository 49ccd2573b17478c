import { Emitter } from '../../common/event';
import { Disposable, IDisposable, nothingToDispose } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { MAX_COMPLETIONS } from '../completions';
import { HeadMoveRecheck, MovedPath, PathRecheck } from '../git/headMoveRecheck';
import { GitSource } from '../git/ports';
import {
	FileChangeEvent, FileSettings, FileSystemReader, FileWatcher, OpenDocuments, ServedRule, SettingsSource,
	WorkspaceFoldersSource,
} from '../ports';
import { Completion, ResourceChange, ResourceContent, ResourceProvider, SortedEntries, TemplateEntry } from '../resource';
import { fileUri, fileUriToPath } from '../uriGuard';
import { UrisByFile } from '../urisByFile';
import { fileContents } from './fileContents';
import { FileFilter } from './fileFilter';
import { FileIndex, IndexDelta } from './fileIndex';
import { StoredFiles } from './fileStore';
import { eventsForHeadMove } from './headMoveEvents';
import { ServedPaths } from './servedPaths';
import { OffThreadWalker } from './walkBatch';
import { WorkspaceRoots } from './workspaceRoots';
import * as path from 'node:path';

export const FILE_TEMPLATE = 'file:///{+path}';

export interface FilesProviderPorts {
	readonly folders: WorkspaceFoldersSource;
	readonly reader: FileSystemReader;
	readonly watcher: FileWatcher;
	readonly documents: OpenDocuments;
	readonly settings: SettingsSource<FileSettings>;
	readonly log: Logger;
	/** Where whole-workspace walks run, when not on this thread's event loop. */
	readonly walker?: OffThreadWalker;
}

const NO_FILES: StoredFiles = {
	length: 0,
	at: () => { throw new RangeError('no files are listed'); },
	uriAt: () => { throw new RangeError('no files are listed'); },
	search: () => 0,
	find: () => undefined,
};

/**
 * What a path cannot hold to be named through `file:///{+path}`: `?` and `#`, and `%` with two
 * hex digits, which RFC 6570's `+` expansion passes on as an escape (`a%20b` would name `a b`)
 * while the SDK's expander escapes the `%`: no one value reads the same for both.
 */
const UNTEMPLATABLE = /[?#]|%[0-9A-Fa-f]{2}/;

/**
 * The workspace's files as resources. Lists from an in-memory index built in the background
 * and kept current from watcher events; reads go to disk (or the editor's unsaved text).
 */
export class FilesProvider extends Disposable implements ResourceProvider, ServedRule, PathRecheck {
	readonly id = 'files';
	readonly summary = 'files (file:// URIs, template file:///{+path}; the unsaved editor text when a file is open and dirty)';
	private readonly changeEmitter = this._register(new Emitter<ResourceChange>());
	/** Other spellings clients subscribed to files by (`~` unescaped, `%c3%a9`), by each file's own URI, while subscribed. */
	private readonly spellings = new UrisByFile();
	readonly onDidChange = this.changeEmitter.event;
	private readonly rulesEmitter = this._register(new Emitter<void>());
	/** A new index (new settings, folders or `.gitignore` files) decides from now on. */
	readonly onDidChangeRules = this.rulesEmitter.event;

	private index: FileIndex | undefined;
	private building: Promise<void> | undefined;
	private rebuildRequested = false;
	/** Watcher events are applied one batch at a time, in order. */
	private applying: Promise<void> = Promise.resolve();
	private readonly served: ServedPaths;
	private markBuilt: () => void = () => undefined;
	private readonly built = new Promise<void>(resolve => { this.markBuilt = resolve; });
	private markBuilding: () => void = () => undefined;
	private readonly buildingBegun = new Promise<void>(resolve => { this.markBuilding = resolve; });

	constructor(private readonly ports: FilesProviderPorts) {
		super();
		this.served = new ServedPaths(ports.reader, () => this.index, () => this.ready());
		this._register(ports.folders.onDidChange(() => this.rebuild('workspace folders changed')));
		this._register(ports.settings.onDidChange(() => this.rebuild('settings changed')));
		this._register(ports.watcher.onDidChange(events => this.onFileEvents(events)));
		this._register(ports.documents.onDidChange(absPath => this.onDocumentChanged(absPath)));
		this._register(ports.watcher);
		// A walk still running (in a worker thread, say) stops with the provider.
		this._register({ dispose: () => this.buildingIndex?.cancel() });
	}

	/** Starts indexing in the background; `ready()` resolves when the first index is built. */
	start(): void {
		if (!this.building) {
			this.rebuild('start');
		}
	}

	async ready(): Promise<void> {
		this.start();
		// A build may be cancelled and replaced by a queued one; wait until an index exists.
		while (!this.index && !this.isDisposed) {
			const current = this.building;
			await current;
			if (current === this.building) {
				return; // the last build failed; reads and lists see an empty workspace
			}
		}
	}

	/**
	 * Resolves once the first index is built, without starting a build (`ready` starts one): for
	 * work that follows the index in the background (the search index) and must not start it.
	 */
	whenBuilt(): Promise<void> {
		return this.built;
	}

	/** Resolves once the first index begins to be built, without starting a build. */
	whenBuilding(): Promise<void> {
		return this.buildingBegun;
	}

	get indexedCount(): number {
		return this.index?.size ?? 0;
	}

	list(): SortedEntries {
		return this.index?.sorted() ?? [];
	}

	/** The listed files with their paths and no entries built (the search index's feed). */
	listedFiles(): StoredFiles {
		return this.index?.files() ?? NO_FILES;
	}

	handles(uri: string): boolean {
		return /^file:/i.test(uri);
	}

	templates(): readonly TemplateEntry[] {
		return [{
			uriTemplate: FILE_TEMPLATE,
			name: 'file',
			title: 'Workspace file',
			description: 'Any file in the workspace by absolute path; completion suggests paths.',
		}];
	}

	async read(uri: string): Promise<ResourceContent[]> {
		const located = await this.served.locate(uri);
		const { reader, documents, settings } = this.ports;
		return fileContents(uri, located, { reader, documents, settings: settings.get(), served: this.served });
	}

	isServedNow(absPath: string, isDirectory = false): boolean {
		return this.served.isServedNow(absPath, isDirectory);
	}

	isServed(absPath: string, isDirectory = false): Promise<boolean> {
		return this.served.isServed(absPath, isDirectory);
	}

	async subscribe(uri: string): Promise<IDisposable> {
		// Changes are found by the file's own URI (a link's target's, for a path through a
		// linked directory, which is never listed): the client's URI is told with them.
		const own = fileUri(await this.served.subscribedFile(uri, await this.served.locate(uri)));
		return own === uri ? nothingToDispose : this.spellings.hold(own, uri);
	}

	/** Other spellings of files held for subscriptions now (tests and diagnostics). */
	get heldSpellings(): number {
		return this.spellings.size;
	}

	async complete(uriTemplate: string, argument: string, value: string): Promise<Completion | undefined> {
		if (uriTemplate !== FILE_TEMPLATE || argument !== 'path') {
			return undefined;
		}
		await this.ready();
		const index = this.index;
		if (!index) {
			return { values: [], total: 0, hasMore: false };
		}
		const query = value.replace(/^\/+/, '');
		// Paths starting with the query are one run of the URI-sorted index (percent-encoding
		// keeps prefixes), found by binary search; then names containing it. Only what is
		// returned gets a URI and a path. This runs per keystroke in a client's template UI,
		// over the whole workspace.
		let prefixUri = fileUri(`/${query}`);
		if (query.endsWith('/') && !prefixUri.endsWith('/')) {
			prefixUri += '/';
		}
		const { slots, total } = await index.complete(prefixUri, query.toLowerCase(), MAX_COMPLETIONS);
		const paths = slots.map(slot => fileUriToPath(index.uriOf(slot)).slice(1));
		// A template keeps `?` and `#` raw (RFC 6570), so a path holding one expands to a URI
		// with a query or a fragment, which names another resource or none: not a suggestion;
		// nor is one holding what reads as an escape (UNTEMPLATABLE).
		const values = paths.filter(p => !UNTEMPLATABLE.test(p));
		return { values, total: total - (paths.length - values.length), hasMore: total > MAX_COMPLETIONS };
	}

	private rebuild(reason: string): void {
		if (this.building && !this.settled) {
			// One rebuild at a time; the latest request runs when the current one ends.
			this.rebuildRequested = true;
			this.buildingIndex?.cancel();
			return;
		}
		this.settled = false;
		this.building = this.runBuild(reason).finally(() => {
			this.settled = true;
			if (this.rebuildRequested && !this.isDisposed) {
				this.rebuildRequested = false;
				this.rebuild('queued');
			}
		});
	}
	private settled = true;
	private buildingIndex: FileIndex | undefined;

	private async runBuild(reason: string): Promise<void> {
		const started = performance.now();
		this.markBuilding();
		const { reader, settings, folders, watcher, log } = this.ports;
		try {
			const roots = await WorkspaceRoots.resolve(folders.folders(), reader);
			const filter = new FileFilter(reader, settings.get(), message => log.warn(message));
			// Watched before anything is read, so a file made in a folder the walk already read is
			// reported, never missed: a watcher that watches folder by folder is told each one right
			// before the walk in this thread reads it; any other watcher starts now, for the whole
			// tree (VS Code's, or one that reads the tree itself while a worker walks). Events that
			// come during the walk wait for it (`onFileEvents`) and are applied to the new index.
			const perDirectory = !this.ports.walker && watcher.watchDirectory ? (dir: string) => watcher.watchDirectory!(dir) : undefined;
			const next = new FileIndex(reader, roots, filter, this.ports.walker, perDirectory);
			const ignored = (absPath: string, isDirectory: boolean | undefined) => this.watchIgnored(next, absPath, isDirectory);
			watcher.watch(roots.folders, ignored, perDirectory ? [] : undefined);
			this.buildingIndex = next;
			await next.build();
			if (this.isDisposed || next.isCancelled) {
				return;
			}
			const previous = this.index;
			this.index = next;
			this.markBuilt();
			if (previous) {
				// Before the first index nothing was judged (callers wait for `ready`).
				this.rulesEmitter.fire();
			}
			watcher.watch(roots.folders, ignored, next.directories());
			log.info(`indexed ${next.size} files in ${Math.round(performance.now() - started)} ms (${reason})`);
			if (previous) {
				await this.emitDifference(previous, next);
			}
		} catch (err) {
			log.error('indexing failed', err);
		}
	}

	private async emitDifference(previous: FileIndex, next: FileIndex): Promise<void> {
		const updated = await next.difference(previous);
		if (updated.length > 0) {
			this.fireChange(updated, true);
		}
	}

	/** Whether the watcher may skip a path, judged by the index being built (whose `.gitignore` files load as it walks). */
	private watchIgnored(index: FileIndex, absPath: string, isDirectory: boolean | undefined): boolean {
		const located = index.roots.locate(absPath);
		if (!located) {
			return false; // a folder root itself
		}
		return index.filter.isIgnored(located.folder, located.rel, isDirectory ?? false);
	}

	/**
	 * Rechecks the paths each HEAD move of these repositories changed (see HeadMoveRecheck). Git
	 * is asked for its repositories once the first index exists, off the activation path.
	 */
	followHeadMoves(source: GitSource): void {
		this._register(new HeadMoveRecheck(source, this, this.ports.log));
		void this.ready().then(() => this.isDisposed ? undefined : source.ready());
	}

	/**
	 * Checks on disk again, as the watcher's events are, the paths a HEAD move changed that the
	 * index does not show as the disk has them (`eventsForHeadMove`): a watcher may drop a few
	 * events of a branch switch.
	 */
	recheck(paths: readonly MovedPath[]): void {
		// After the watcher's batches already queued, so that what they applied counts.
		this.applying = this.applying.then(async () => {
			await this.building;
			const index = this.index;
			if (!index || this.isDisposed) {
				return;
			}
			const events = await eventsForHeadMove(index, paths);
			if (events.length > 0) {
				this.onFileEvents(events);
			}
		});
	}

	private onFileEvents(events: readonly FileChangeEvent[]): void {
		if (events.some(e => path.basename(e.path) === '.gitignore')) {
			this.rebuild('.gitignore changed');
		}
		this.applying = this.applying.then(async () => {
			await this.building;
			const index = this.index;
			if (!index || this.isDisposed) {
				return;
			}
			const delta: IndexDelta = { updated: [], listChanged: false };
			try {
				await index.applyBatch(events, delta);
			} catch (err) {
				this.ports.log.warn(`could not apply file changes: ${String(err)}`);
			}
			if (delta.updated.length > 0 && index === this.index) {
				this.fireChange(delta.updated, delta.listChanged);
			}
		});
	}

	private onDocumentChanged(absPath: string): void {
		const index = this.index;
		const located = index?.roots.locate(absPath);
		if (index && located && !index.filter.isIgnored(located.folder, located.rel, false)) {
			this.fireChange([fileUri(absPath)], false);
		}
	}

	/** Announces changes to files by their own URIs and by the other spellings subscribed to them. */
	private fireChange(updated: readonly string[], listChanged: boolean): void {
		this.changeEmitter.fire({ updated: this.spellings.withHeld(updated), listChanged });
	}
}
