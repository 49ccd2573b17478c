import { Emitter } from '../common/event';
import { Disposable, IDisposable, toDisposable } from '../common/lifecycle';
import { ListingGuard, ListingLimits, RESOURCE_LIMITS } from './listingGuard';
import { FolderNode, GROUP_ORDER, GroupKind, GroupNode, PickerNode, ResourceNode, TemplateNode } from './pickerNodes';
import { ResourceTree } from './resourceTree';
import { ListedTemplate, ServerConnection } from './serverConnection';

export type LoadState =
	| { readonly kind: 'idle' }
	| { readonly kind: 'loading'; readonly loaded: number }
	/** `notice`: why the listing stopped before the server's last page (a cap, or paging that would never end). */
	| { readonly kind: 'complete'; readonly loaded: number; readonly notice?: string }
	| { readonly kind: 'error'; readonly message: string; readonly loaded: number };

/**
 * A reload for list_changed starts no sooner than this many times the last reload's length after
 * it ended. While a branch switch or a build keeps changing the list, a large workspace's picker
 * then lists at most a third of the time instead of back to back: the listing runs in the
 * extension host, beside the server that is applying the very changes being listed.
 */
export const LIST_CHANGED_GAP_FACTOR = 2;

export interface ResourceListingOptions {
	/** Caps on what is kept of the server's list (tests lower them). */
	readonly limits?: ListingLimits;
	/** The clock and timer that pace reloads for list_changed (tests drive them by hand). */
	readonly now?: () => number;
	readonly defer?: (fn: () => void, ms: number) => IDisposable;
}

const deferByTimer = (fn: () => void, ms: number): IDisposable => {
	const timer = setTimeout(fn, ms);
	return toDisposable(() => clearTimeout(timer));
};

/**
 * One server's `resources/list` and `resources/templates/list`, as the picker keeps them. Pages
 * are fetched one at a time (never the whole list in one request) and merged into a
 * ResourceTree as they arrive; a reload builds a new tree off to the side and swaps it in.
 */
export class ResourceListing extends Disposable {
	private readonly changeEmitter = this._register(new Emitter<void>());
	/** Fires after each page and after every reload. */
	readonly onDidChange = this.changeEmitter.event;

	private tree: ResourceTree;
	private templateNodes: TemplateNode[] = [];
	private templateNotice: string | undefined;
	private current: LoadState = { kind: 'idle' };
	private loading: Promise<void> | undefined;
	private reloadWanted = false;
	private readonly limits: ListingLimits;
	private readonly now: () => number;
	private readonly defer: (fn: () => void, ms: number) => IDisposable;
	/** A list_changed came that no reload started since has seen. */
	private listStale = false;
	private pacedReload: IDisposable | undefined;
	private lastReload = { endedAt: -Infinity, ms: 0 };
	/** Nothing shows this listing now: list_changed only marks it stale (see setDeferred). */
	private deferred = false;

	constructor(readonly connection: ServerConnection, options: ResourceListingOptions = {}) {
		super();
		this.limits = options.limits ?? RESOURCE_LIMITS;
		this.now = options.now ?? (() => performance.now());
		this.defer = options.defer ?? deferByTimer;
		this.tree = new ResourceTree(this.serverId);
		this._register(connection.onDidChangeList(() => {
			this.listStale = true;
			this.reloadWhenPaced();
		}));
		this._register(toDisposable(() => this.pacedReload?.dispose()));
		let sessions = 0;
		this._register(connection.onDidConnect(() => {
			// A new session after the first (e.g. the server restarted): what was listed may be stale.
			if (sessions++ > 0 && this.current.kind !== 'idle') {
				void this.requestReload();
			}
		}));
	}

	get serverId(): string {
		return this.connection.id;
	}

	get state(): LoadState {
		return this.current;
	}

	get size(): number {
		return this.tree.size;
	}

	get templates(): readonly ListedTemplate[] {
		return this.templateNodes.map(n => n.template);
	}

	/** Why the template list is incomplete, when it is. */
	get templatesNotice(): string | undefined {
		return this.templateNotice;
	}

	get filesRoot(): FolderNode {
		return this.tree.root;
	}

	resource(uri: string): ResourceNode | undefined {
		return this.tree.resource(uri);
	}

	/** All resources loaded so far (in listing order). */
	all(): IterableIterator<ResourceNode> {
		return this.tree.all();
	}

	folder(key: string): FolderNode | undefined {
		return this.tree.folder(key);
	}

	groupCount(group: GroupKind): number {
		return group === 'templates' ? this.templateNodes.length : this.tree.groupCount(group);
	}

	/** Groups that have something to show (Files always, once loading started). */
	groups(): GroupKind[] {
		return GROUP_ORDER.filter(g => g === 'files' || this.groupCount(g) > 0);
	}

	/** Every child of a group or folder, in the order shown (the view model pages them). */
	children(node: GroupNode | FolderNode): PickerNode[] {
		if (node.kind === 'folder') {
			return this.tree.folderChildren(node);
		}
		switch (node.group) {
			case 'templates': return [...this.templateNodes];
			case 'files': return this.tree.folderChildren(this.tree.root);
			default: return [...this.tree.groupResources(node.group)];
		}
	}

	search(query: string, limit: number): { matches: ResourceNode[]; total: number } {
		return this.tree.search(query, limit);
	}

	/**
	 * Starts loading (first call) and resolves when every page is in. While reloads are deferred,
	 * a listing the server said changed is listed again first: whoever asks gets the current list.
	 */
	load(): Promise<void> {
		if (this.current.kind === 'idle' || (this.current.kind === 'error' && !this.loading)) {
			this.loading = this.run(false);
		} else if (this.deferred && this.listStale && !this.loading) {
			return this.requestReload();
		}
		return this.loading ?? Promise.resolve();
	}

	/**
	 * Defers reloads for list_changed while nothing shows this listing (the view hidden, no
	 * QuickPick open): a branch switch or a build then costs a hidden picker no listing at all,
	 * beside the server in the extension host. When they resume, one (paced) reload catches up
	 * if the list changed meanwhile; `load()` catches up at once for whoever asks before that.
	 */
	setDeferred(deferred: boolean): void {
		this.deferred = deferred;
		this.reloadWhenPaced();
	}

	/**
	 * Lists again at once (reconnect, Refresh, and list_changed once paced); the current tree stays
	 * until the new one is complete.
	 */
	requestReload(): Promise<void> {
		if (this.loading) {
			this.reloadWanted = true;
			return this.loading;
		}
		this.loading = this.run(this.current.kind !== 'idle');
		return this.loading;
	}

	/** Reloads for list_changed now, or once LIST_CHANGED_GAP_FACTOR times the last reload's length has passed since it ended. */
	private reloadWhenPaced(): void {
		if (!this.listStale || this.loading || this.pacedReload || this.isDisposed || this.deferred) {
			return; // a load under way calls this again when it ends; setDeferred(false) when deferred
		}
		const wait = this.lastReload.endedAt + LIST_CHANGED_GAP_FACTOR * this.lastReload.ms - this.now();
		if (wait <= 0) {
			void this.requestReload();
			return;
		}
		this.pacedReload = this.defer(() => {
			this.pacedReload = undefined;
			this.reloadWhenPaced();
		}, wait);
	}

	private async run(reload: boolean): Promise<void> {
		const startedAt = this.now();
		this.listStale = false;
		this.current = { kind: 'loading', loaded: reload ? this.tree.size : 0 };
		this.changeEmitter.fire();
		// A reload builds off to the side and swaps at the end, so the tree never shows a half list.
		const tree = reload ? new ResourceTree(this.serverId) : this.tree;
		let count = 0;
		try {
			const templates = this.connection.listTemplates().catch(() => ({ templates: [] as ListedTemplate[], notice: undefined }));
			const guard = new ListingGuard(this.limits, 'resources');
			let cursor: string | undefined;
			let pages = 0;
			for (;;) {
				const page = await this.connection.listPage(cursor);
				if (this.isDisposed) {
					return;
				}
				const added = tree.add(guard.admit(page.resources));
				count += added;
				pages++;
				if (!reload) {
					this.current = { kind: 'loading', loaded: count };
					this.changeEmitter.fire();
				}
				if (pages === 1) {
					this.setTemplates(await templates);
				}
				if (!guard.next(page.nextCursor, page.resources.length, added)) {
					break;
				}
				cursor = page.nextCursor;
			}
			if (reload) {
				this.tree = tree;
				this.setTemplates(await templates);
			}
			this.current = { kind: 'complete', loaded: this.tree.size, ...(guard.notice ? { notice: guard.notice } : {}) };
		} catch (err) {
			this.current = { kind: 'error', message: (err as Error).message, loaded: this.tree.size };
		} finally {
			this.loading = undefined;
			const endedAt = this.now();
			this.lastReload = { endedAt, ms: endedAt - startedAt };
			if (!this.isDisposed) {
				this.changeEmitter.fire();
			}
		}
		if (this.reloadWanted && !this.isDisposed) {
			this.reloadWanted = false;
			await this.requestReload();
			return;
		}
		this.reloadWhenPaced();
	}

	/** Template nodes are made once per list, so a row keeps its node across refreshes. */
	private setTemplates(list: { templates: ListedTemplate[]; notice?: string }): void {
		this.templateNodes = list.templates.map(template => ({
			kind: 'template', serverId: this.serverId, key: `${this.serverId}|t|${template.uriTemplate}`, template,
		}));
		this.templateNotice = list.notice;
	}
}
