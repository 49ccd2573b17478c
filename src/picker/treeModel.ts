import { Emitter } from '../common/event';
import { Disposable } from '../common/lifecycle';
import { FilterIndex } from './filter';
import { ListingGuard, ListingLimits, RESOURCE_LIMITS } from './listingGuard';
import { ListedResource, ListedTemplate, ServerConnection } from './serverConnection';

export type GroupKind = 'files' | 'problems' | 'git' | 'editor' | 'other' | 'templates';

export const GROUP_ORDER: readonly GroupKind[] = ['files', 'problems', 'git', 'editor', 'other', 'templates'];
export const GROUP_LABELS: Readonly<Record<GroupKind, string>> = {
	files: 'Files', problems: 'Problems', git: 'Git', editor: 'Editor', other: 'Other', templates: 'Templates',
};

/** The group a resource belongs to, by URI scheme. */
export function groupOf(uri: string): Exclude<GroupKind, 'templates'> {
	const scheme = uri.slice(0, uri.indexOf(':')).toLowerCase();
	switch (scheme) {
		case 'file': return 'files';
		case 'diagnostics': return 'problems';
		case 'git': return 'git';
		case 'editor': return 'editor';
		default: return 'other';
	}
}

export interface ServerNode {
	readonly kind: 'server';
	readonly serverId: string;
	readonly key: string;
}
export interface GroupNode {
	readonly kind: 'group';
	readonly serverId: string;
	readonly group: GroupKind;
	readonly key: string;
}
export interface FolderNode {
	readonly kind: 'folder';
	readonly serverId: string;
	readonly key: string;
	readonly name: string;
	/** Folder path inside the files tree ('' for the root). */
	readonly path: string;
	readonly folders: Map<string, FolderNode>;
	readonly files: ResourceNode[];
	/** Resources anywhere below. */
	count: number;
	sorted: boolean;
}
export interface ResourceNode {
	readonly kind: 'resource';
	readonly serverId: string;
	readonly key: string;
	readonly resource: ListedResource;
	readonly group: Exclude<GroupKind, 'templates'>;
	/** Label: the file name for files, the name (or title) otherwise. */
	readonly label: string;
	/** Path shown and filtered on: the workspace-relative path for files. */
	readonly path: string;
}
export interface TemplateNode {
	readonly kind: 'template';
	readonly serverId: string;
	readonly key: string;
	readonly template: ListedTemplate;
}
/** "Load more…" under a folder or group capped at its current limit. */
export interface MoreNode {
	readonly kind: 'more';
	readonly serverId: string;
	readonly key: string;
	readonly parentKey: string;
	readonly remaining: number;
}
/** A line of state: loading, an error, an empty group. */
export interface StatusNode {
	readonly kind: 'status';
	readonly serverId: string;
	readonly key: string;
	/** `notice`: the list is incomplete on purpose (a cap was reached, or the server's paging was broken). */
	readonly status: 'loading' | 'error' | 'empty' | 'info' | 'notice';
	readonly message: string;
}

export type PickerNode = ServerNode | GroupNode | FolderNode | ResourceNode | TemplateNode | MoreNode | StatusNode;

export type LoadState =
	| { readonly kind: 'idle' }
	| { readonly kind: 'loading'; readonly loaded: number }
	/** `notice`: why the listing stopped before the server's last page (a cap, or paging that would never end). */
	| { readonly kind: 'complete'; readonly loaded: number; readonly notice?: string }
	| { readonly kind: 'error'; readonly message: string; readonly loaded: number };

export interface ServerResourcesOptions {
	/** Children shown per folder or group before a "Load more…" node. */
	readonly childLimit?: number;
	/** Caps on what is kept of the server's list (tests lower them). */
	readonly limits?: ListingLimits;
}

export const DEFAULT_CHILD_LIMIT = 500;

/** The path a files-group resource is shown under: its name when that is a relative path, else the URI path. */
export function filePathOf(resource: ListedResource): string {
	const name = resource.name;
	if (name && !name.startsWith('/') && !/^[a-z]+:/i.test(name) && !name.includes('\\')) {
		return name;
	}
	try {
		return decodeURIComponent(new URL(resource.uri).pathname).replace(/^\/+/, '');
	} catch {
		return name || resource.uri;
	}
}

function compareNames(a: string, b: string): number {
	const la = a.toLowerCase();
	const lb = b.toLowerCase();
	return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/**
 * One server's resources as the picker shows them. Pages are fetched one at a time (never the
 * whole list in one request) and merged as they arrive: files into a folder tree built from
 * their names, everything else into flat groups by URI scheme. Children are sorted when first
 * asked for and capped per folder, so a 5,000-file folder renders 500 rows and a "Load more…".
 */
export class ServerResources extends Disposable {
	private readonly changeEmitter = this._register(new Emitter<void>());
	/** Fires after each page and after every reload. */
	readonly onDidChange = this.changeEmitter.event;

	private byUri = new Map<string, ResourceNode>();
	private root: FolderNode;
	private flat = new Map<GroupKind, ResourceNode[]>();
	private index = new FilterIndex<ResourceNode>();
	private templateList: ListedTemplate[] = [];
	private templateNotice: string | undefined;
	private current: LoadState = { kind: 'idle' };
	private loading: Promise<void> | undefined;
	private reloadWanted = false;
	private readonly shownLimits = new Map<string, number>();
	private readonly folderIndex = new Map<string, FolderNode>();
	private readonly childLimit: number;
	private readonly limits: ListingLimits;

	constructor(readonly connection: ServerConnection, options: ServerResourcesOptions = {}) {
		super();
		this.childLimit = options.childLimit ?? DEFAULT_CHILD_LIMIT;
		this.limits = options.limits ?? RESOURCE_LIMITS;
		this.root = this.newFolder('', '');
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
		return this.byUri.size;
	}

	get templates(): readonly ListedTemplate[] {
		return this.templateList;
	}

	/** Why the template list is incomplete, when it is. */
	get templatesNotice(): string | undefined {
		return this.templateNotice;
	}

	get filesRoot(): FolderNode {
		return this.root;
	}

	resource(uri: string): ResourceNode | undefined {
		return this.byUri.get(uri);
	}

	/** All resources loaded so far (in listing order). */
	all(): IterableIterator<ResourceNode> {
		return this.byUri.values();
	}

	groupCount(group: GroupKind): number {
		if (group === 'files') {
			return this.root.count;
		}
		if (group === 'templates') {
			return this.templateList.length;
		}
		return this.flat.get(group)?.length ?? 0;
	}

	/** Groups that have something to show (Files always, once loading started). */
	groups(): GroupKind[] {
		return GROUP_ORDER.filter(g => g === 'files' || this.groupCount(g) > 0);
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

	search(query: string, limit: number): { matches: ResourceNode[]; total: number } {
		const result = this.index.search(query, limit);
		return { matches: result.matches.map(m => m.item), total: result.total };
	}

	/** Raises the number of children shown under `parentKey` by one page. */
	showMore(parentKey: string): void {
		this.shownLimits.set(parentKey, (this.shownLimits.get(parentKey) ?? this.childLimit) + this.childLimit);
		this.changeEmitter.fire();
	}

	folder(key: string): FolderNode | undefined {
		return this.folderIndex.get(key);
	}

	/** The children of a group or folder, capped, with a "Load more…" node when capped. */
	children(node: GroupNode | FolderNode): PickerNode[] {
		if (node.kind === 'group' && node.group === 'templates') {
			const templates: PickerNode[] = this.templateList.map(template => ({
				kind: 'template', serverId: this.serverId, key: `${this.serverId}|t|${template.uriTemplate}`, template,
			}));
			if (this.templateNotice) {
				templates.push({ kind: 'status', serverId: this.serverId, key: `${node.key}|notice`, status: 'notice', message: this.templateNotice });
			}
			return templates;
		}
		const folder = node.kind === 'folder' ? node : node.group === 'files' ? this.root : undefined;
		let all: PickerNode[];
		if (folder) {
			if (!folder.sorted) {
				folder.files.sort((a, b) => compareNames(a.label, b.label));
				folder.sorted = true;
			}
			const folders = [...folder.folders.values()].sort((a, b) => compareNames(a.name, b.name));
			all = (folders as PickerNode[]).concat(folder.files);
		} else {
			all = this.flat.get((node as GroupNode).group) ?? [];
		}
		const limit = this.shownLimits.get(node.key) ?? this.childLimit;
		const shown = all.length > limit ? all.slice(0, limit) : all;
		const out = shown === all ? [...all] : shown;
		if (all.length > limit) {
			out.push({ kind: 'more', serverId: this.serverId, key: `${node.key}|more`, parentKey: node.key, remaining: all.length - limit });
		}
		if (this.current.kind === 'loading' && (folder === this.root || node.kind === 'group')) {
			out.push({ kind: 'status', serverId: this.serverId, key: `${node.key}|loading`, status: 'loading', message: `Loading… ${this.current.loaded.toLocaleString('en-US')} so far` });
		}
		return out;
	}

	private async run(reload: boolean): Promise<void> {
		const loadedBefore = this.byUri.size;
		this.current = { kind: 'loading', loaded: reload ? loadedBefore : 0 };
		this.changeEmitter.fire();
		// A reload builds off to the side and swaps at the end, so the tree never shows a half list.
		const target = reload ? this.fresh() : undefined;
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
				const added = this.addPage(guard.admit(page.resources), target);
				count += added;
				pages++;
				if (!target) {
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
			if (target) {
				this.byUri = target.byUri;
				this.root = target.root;
				this.flat = target.flat;
				this.index = target.index;
				this.folderIndex.clear();
				for (const [k, v] of target.folders) {
					this.folderIndex.set(k, v);
				}
				this.setTemplates(await templates);
			}
			this.current = { kind: 'complete', loaded: this.byUri.size, ...(guard.notice ? { notice: guard.notice } : {}) };
		} catch (err) {
			this.current = { kind: 'error', message: (err as Error).message, loaded: this.byUri.size };
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

	private setTemplates(list: { templates: ListedTemplate[]; notice?: string }): void {
		this.templateList = list.templates;
		this.templateNotice = list.notice;
	}

	private fresh(): Built {
		const folders = new Map<string, FolderNode>();
		const root = this.newFolder('', '', folders);
		return { byUri: new Map(), root, flat: new Map(), index: new FilterIndex(), folders };
	}

	/** Merges a page into the tree (or the one being built); returns how many resources were new. */
	private addPage(resources: readonly ListedResource[], target?: Built): number {
		const byUri = target?.byUri ?? this.byUri;
		const root = target?.root ?? this.root;
		const flat = target?.flat ?? this.flat;
		const index = target?.index ?? this.index;
		const folders = target?.folders ?? this.folderIndex;
		const before = byUri.size;
		for (const resource of resources) {
			if (byUri.has(resource.uri)) {
				continue; // a server paging while its list changes may repeat an item
			}
			const group = groupOf(resource.uri);
			const path = group === 'files' ? filePathOf(resource) : resource.name || resource.uri;
			const slash = path.lastIndexOf('/');
			const label = group === 'files' ? path.slice(slash + 1) : resource.title || resource.name || resource.uri;
			const node: ResourceNode = { kind: 'resource', serverId: this.serverId, key: `${this.serverId}|r|${resource.uri}`, resource, group, label, path };
			byUri.set(resource.uri, node);
			index.add(node, path, resource.uri);
			if (group !== 'files') {
				let list = flat.get(group);
				if (!list) {
					list = [];
					flat.set(group, list);
				}
				list.push(node);
				continue;
			}
			let folder = root;
			folder.count++;
			let start = 0;
			while (start <= slash) {
				const end = path.indexOf('/', start);
				const segment = path.slice(start, end);
				let child = folder.folders.get(segment);
				if (!child) {
					child = this.newFolder(segment, folder.path ? `${folder.path}/${segment}` : segment, folders);
					folder.folders.set(segment, child);
				}
				folder = child;
				folder.count++;
				start = end + 1;
			}
			folder.files.push(node);
			folder.sorted = false;
		}
		return byUri.size - before;
	}

	private newFolder(name: string, path: string, folders: Map<string, FolderNode> = this.folderIndex): FolderNode {
		const key = `${this.serverId}|d|${path}`;
		const folder: FolderNode = { kind: 'folder', serverId: this.serverId, key, name, path, folders: new Map(), files: [], count: 0, sorted: true };
		folders.set(key, folder);
		return folder;
	}
}

interface Built {
	byUri: Map<string, ResourceNode>;
	root: FolderNode;
	flat: Map<GroupKind, ResourceNode[]>;
	index: FilterIndex<ResourceNode>;
	folders: Map<string, FolderNode>;
}
