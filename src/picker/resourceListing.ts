import { Emitter } from '../common/event';
import { Disposable } from '../common/lifecycle';
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

export interface ResourceListingOptions {
	/** Caps on what is kept of the server's list (tests lower them). */
	readonly limits?: ListingLimits;
}

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

	constructor(readonly connection: ServerConnection, options: ResourceListingOptions = {}) {
		super();
		this.limits = options.limits ?? RESOURCE_LIMITS;
		this.tree = new ResourceTree(this.serverId);
		this._register(connection.onDidChangeList(() => void this.requestReload()));
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

	/** Starts loading (first call) and resolves when every page is in. */
	load(): Promise<void> {
		if (this.current.kind === 'idle' || (this.current.kind === 'error' && !this.loading)) {
			this.loading = this.run(false);
		}
		return this.loading ?? Promise.resolve();
	}

	/** Lists again (list_changed, reconnect, Refresh); the current tree stays until the new one is complete. */
	requestReload(): Promise<void> {
		if (this.loading) {
			this.reloadWanted = true;
			return this.loading;
		}
		this.loading = this.run(this.current.kind !== 'idle');
		return this.loading;
	}

	private async run(reload: boolean): Promise<void> {
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
			if (!this.isDisposed) {
				this.changeEmitter.fire();
			}
		}
		if (this.reloadWanted && !this.isDisposed) {
			this.reloadWanted = false;
			await this.requestReload();
		}
	}

	/** Template nodes are made once per list, so a row keeps its node across refreshes. */
	private setTemplates(list: { templates: ListedTemplate[]; notice?: string }): void {
		this.templateNodes = list.templates.map(template => ({
			kind: 'template', serverId: this.serverId, key: `${this.serverId}|t|${template.uriTemplate}`, template,
		}));
		this.templateNotice = list.notice;
	}
}
