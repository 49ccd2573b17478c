import { Emitter } from '../common/event';
import { Disposable, DisposableStore, IDisposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { MAX_MESSAGE_BYTES } from '../client/cappedFetch';
import { BundleEntry, ReadContent } from './contextBundle';
import { FolderServer } from './folderServers';
import { Selection, selectionKey } from './selection';
import { configuredServerLabel, ServerConfig, WORKSPACE_SERVER_LABEL } from './serverConfig';
import { ConnectionSource, ConnectionTarget, ServerConnection } from './serverConnection';
import { Suggestions } from './suggestions';
import { countTokens } from './tokenCount';
import { ResourceNode } from './pickerNodes';
import { ResourceListing } from './resourceListing';

export const WORKSPACE_SERVER_ID = 'workspace';

export interface ServerEntry {
	readonly id: string;
	readonly label: string;
	readonly connection: ServerConnection;
	readonly resources: ResourceListing;
	/** What the server suggests now (its `context://relevant`), for the "Suggested" group. */
	readonly suggestions: Suggestions;
	/** The user's setting entry; undefined for "This workspace". */
	readonly config?: ServerConfig;
}

export interface PickerServiceOptions {
	readonly log: Logger;
	/** This window's own server; omitted when the picker runs without one (tests, other hosts). */
	readonly workspace?: ConnectionSource;
	readonly backoffMs?: readonly number[];
	/** Working directory for stdio servers. */
	readonly cwd?: string;
}

export interface SearchHit {
	readonly server: ServerEntry;
	readonly node: ResourceNode;
}

/**
 * The picker without the editor: its servers (this window's and the configured ones), their
 * loaded resources, the selection, and what keeps the selection current (a subscription per
 * selected resource; updates mark it changed).
 */
export class PickerService extends Disposable {
	private readonly entries = new Map<string, ServerEntry & { store: DisposableStore; configJson?: string }>();
	private held: readonly FolderServer[] = [];
	readonly selection = this._register(new Selection());
	private readonly selectionSubscriptions = new Map<string, IDisposable>();
	/** Counts run one after another, so selecting many resources reads them one at a time. */
	private counting: Promise<void> = Promise.resolve();
	private readonly countsWaiting = new Set<string>();
	private readonly changeEmitter = this._register(new Emitter<void>());
	/** Anything shown changed: servers, states, resources, selection. */
	readonly onDidChange = this.changeEmitter.event;
	/** Whether the view is on screen (until told, as if it were: hosts without a view). */
	private viewShown = true;
	/** QuickPicks and other consumers open now that show listings (see `showing`). */
	private openConsumers = 0;
	private readonly updatedEmitter = this._register(new Emitter<{ serverId: string; uri: string }>());
	/** A subscribed resource changed on its server. */
	readonly onDidUpdateResource = this.updatedEmitter.event;

	constructor(private readonly options: PickerServiceOptions) {
		super();
		if (options.workspace) {
			this.addEntry(WORKSPACE_SERVER_ID, WORKSPACE_SERVER_LABEL, options.workspace);
		}
		this._register(this.selection.onDidAdd(item => {
			const server = this.entries.get(item.serverId);
			if (server) {
				this.selectionSubscriptions.set(selectionKey(item.serverId, item.resource.uri), server.connection.subscribe(item.resource.uri));
				this.countLater(item.serverId, item.resource.uri);
			}
		}));
		this._register(this.selection.onDidRemove(item => {
			const key = selectionKey(item.serverId, item.resource.uri);
			this.selectionSubscriptions.get(key)?.dispose();
			this.selectionSubscriptions.delete(key);
		}));
		this._register(this.selection.onDidChange(() => this.changeEmitter.fire()));
		this._register({ dispose: () => {
			for (const entry of this.entries.values()) {
				entry.store.dispose();
			}
			this.entries.clear();
		} });
	}

	/** Where the picker's parts log (the text matches log a server's failed search). */
	get log(): Logger {
		return this.options.log;
	}

	servers(): ServerEntry[] {
		return [...this.entries.values()];
	}

	server(id: string): ServerEntry | undefined {
		return this.entries.get(id);
	}

	/**
	 * Entries of folder settings the user has not allowed. They are only shown: no connection
	 * exists for them, so nothing is spawned or contacted.
	 */
	heldServers(): readonly FolderServer[] {
		return this.held;
	}

	/**
	 * Applies `mcpResources.servers`: keeps unchanged entries (and their connections), replaces
	 * the rest. `held` are the folder entries waiting for the user's permission.
	 */
	setConfiguredServers(configs: readonly ServerConfig[], held: readonly FolderServer[] = []): void {
		const wanted = new Map(configs.map(c => [`config:${c.name}`, c]));
		let changed = held.map(h => `${h.key}:${h.consent}`).join() !== this.held.map(h => `${h.key}:${h.consent}`).join();
		this.held = held;
		for (const [id, entry] of this.entries) {
			if (id === WORKSPACE_SERVER_ID) {
				continue;
			}
			const config = wanted.get(id);
			if (!config || JSON.stringify(config) !== entry.configJson) {
				this.removeEntry(id);
				changed = true;
			}
		}
		for (const [id, config] of wanted) {
			if (!this.entries.has(id)) {
				const target: ConnectionTarget = config.kind === 'http'
					? { kind: 'http', url: config.url, headers: config.headers, maxMessageBytes: MAX_MESSAGE_BYTES }
					: { kind: 'stdio', command: config.command, args: config.args, env: config.env, cwd: this.options.cwd };
				this.addEntry(id, configuredServerLabel(config.name), { resolve: async () => target }, config);
				changed = true;
			}
		}
		if (changed) {
			this.changeEmitter.fire();
		}
	}

	/** The view came on screen or left it: while nothing shows listings, their reloads wait. */
	setViewShown(shown: boolean): void {
		this.viewShown = shown;
		this.applyDeferral();
	}

	/** Something that shows listings opened (a QuickPick): their reloads follow list_changed until it is disposed. */
	showing(): IDisposable {
		this.openConsumers++;
		this.applyDeferral();
		let open = true;
		return {
			dispose: () => {
				if (open) {
					open = false;
					this.openConsumers--;
					this.applyDeferral();
				}
			},
		};
	}

	/** Whether the listings' reloads for list_changed wait now (nothing shows them). */
	get deferReloads(): boolean {
		return !this.viewShown && this.openConsumers === 0;
	}

	private applyDeferral(): void {
		for (const entry of this.entries.values()) {
			entry.resources.setDeferred(this.deferReloads);
		}
	}

	/** Starts loading every server (the filter and the QuickPick search all of them). */
	loadAll(): Promise<void> {
		return Promise.all(this.servers().map(s => s.resources.load().catch(() => undefined))).then(() => undefined);
	}

	/** The best matches across servers for `query`, best first, and the number of matches in all. */
	search(query: string, limitPerServer = 200): { hits: SearchHit[]; total: number } {
		const hits: SearchHit[] = [];
		let total = 0;
		for (const server of this.servers()) {
			const result = server.resources.search(query, limitPerServer);
			total += result.total;
			for (const node of result.matches) {
				hits.push({ server, node });
			}
		}
		return { hits, total };
	}

	/** Reads resources through their servers' clients, a few at a time, for a context bundle. */
	async readForBundle(items: readonly { serverId: string; uri: string }[], concurrency = 4): Promise<BundleEntry[]> {
		const out: BundleEntry[] = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				const { serverId, uri } = items[i];
				const server = this.entries.get(serverId);
				if (!server) {
					out[i] = { uri, error: 'its server is no longer configured' };
					continue;
				}
				try {
					out[i] = { uri, server: server.label, contents: await server.connection.read(uri) };
				} catch (err) {
					out[i] = { uri, server: server.label, error: (err as Error).message };
				}
			}
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
		return out;
	}

	/** Resolves once every count asked for so far has finished (tests, attach). */
	whenCounted(): Promise<void> {
		return this.counting;
	}

	/**
	 * Reads a selected resource and counts its text with the Claude tokenizer, after the counts
	 * already queued; a resource that is no longer selected, or already waiting, is skipped.
	 */
	private countLater(serverId: string, uri: string): void {
		const key = selectionKey(serverId, uri);
		if (this.countsWaiting.has(key)) {
			return;
		}
		this.countsWaiting.add(key);
		this.counting = this.counting.then(async () => {
			this.countsWaiting.delete(key);
			const server = this.entries.get(serverId);
			if (!server || !this.selection.has(serverId, uri)) {
				return;
			}
			try {
				this.selection.setTokens(serverId, uri, countContents(await server.connection.read(uri)));
			} catch (err) {
				// The size estimate stays; the read error shows when the selection is attached.
				this.options.log.debug(`picker: counting tokens of ${uri} failed: ${(err as Error).message}`);
			}
		});
	}

	private addEntry(id: string, label: string, source: ConnectionSource, config?: ServerConfig): void {
		const store = new DisposableStore();
		const connection = store.add(new ServerConnection(id, label, source, { log: this.options.log, backoffMs: this.options.backoffMs }));
		const resources = store.add(new ResourceListing(connection));
		resources.setDeferred(this.deferReloads);
		const suggestions = store.add(new Suggestions(connection, resources));
		store.add(suggestions.onDidChange(() => this.changeEmitter.fire()));
		store.add(connection.onDidChangeState(() => this.changeEmitter.fire()));
		let loadKind = resources.state.kind;
		store.add(resources.onDidChange(() => {
			const load = resources.state;
			if (load.kind !== loadKind && load.kind === 'error') {
				this.options.log.warn(`picker: listing ${label} failed: ${load.message}`);
			} else if (load.kind !== loadKind && load.kind === 'complete') {
				this.options.log.debug(`picker: ${label}: ${load.loaded} resources listed`);
			}
			loadKind = load.kind;
			this.changeEmitter.fire();
		}));
		store.add(connection.onDidUpdateResource(uri => {
			if (this.selection.markChanged(id, uri)) {
				this.countLater(id, uri);
			}
			this.updatedEmitter.fire({ serverId: id, uri });
		}));
		this.entries.set(id, { id, label, connection, resources, suggestions, config, store, configJson: config && JSON.stringify(config) });
	}

	private removeEntry(id: string): void {
		const entry = this.entries.get(id);
		if (!entry) {
			return;
		}
		this.selection.update([], this.selection.list().filter(i => i.serverId === id).map(i => ({ serverId: id, uri: i.resource.uri })));
		this.entries.delete(id);
		entry.store.dispose();
	}
}

/** Tokens of a resource's text parts; binary parts count nothing (a bundle notes them in a line). */
export function countContents(contents: readonly ReadContent[]): number {
	let total = 0;
	for (const content of contents) {
		if (typeof content.text === 'string') {
			total += countTokens(content.text);
		}
	}
	return total;
}
