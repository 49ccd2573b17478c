import { Emitter } from '../common/event';
import { Disposable } from '../common/lifecycle';
import { FolderNode, GroupKind, GroupNode, HeldServerNode, MoreNode, PickerNode, ResourceNode, ServerNode, SuggestedGroupNode, TextLineNode, TextMatchesGroupNode, ViewNode } from './pickerNodes';
import { PickerService, ServerEntry } from './pickerService';
import { RowPages } from './rowPages';
import { listNoticeRows, loadingRows, noMatchesRow, serverStateRow, templatesNoticeRows, textStateRows } from './statusRows';
import { TextMatch, TextMatches, textMatchesMessage } from './textMatches';

/**
 * Children shown per folder or group before a "Load more…" row: a 5,000-file folder renders 500
 * rows and the row.
 */
export const CHILD_PAGE = 500;
/**
 * Matches shown per server before a "More matches…" row: a little more than a sidebar shows.
 * Every row the workbench takes costs: a refresh of a few hundred matches kept the tree busy
 * so long that the next keystroke's refresh waited behind it.
 */
export const FILTER_PAGE = 50;

/**
 * Why the rows changed, for the view to time its redraw: `filter` (a keystroke: soon, but in
 * step with the workbench), `paging` (a click on "More…": at once), `data` (servers, pages,
 * selection: paced while pages stream in).
 */
export type RowsChange = 'data' | 'filter' | 'paging';

export interface PickerViewModelOptions {
	/** Rows per page of a folder's or group's children (tests lower it). */
	readonly childPage?: number;
	/** Quiet time before the filter searches file contents (tests shorten it). */
	readonly textDebounceMs?: number;
}

/**
 * The picker's tree without the editor: which rows each node has (servers, Suggested, groups,
 * the files folder tree, filter matches, status rows, "More…" rows), the filter, the hidden
 * servers, and when listing starts. A node stays the same object across refreshes while what
 * it stands for does. The VS Code view only turns rows into TreeItems and times redraws.
 */
export class PickerViewModel extends Disposable {
	private readonly changeEmitter = this._register(new Emitter<RowsChange>());
	/** The rows changed; the view redraws. */
	readonly onDidChange = this.changeEmitter.event;
	private query: string | undefined;
	private hidden = new Set<string>();
	private visible = false;
	private readonly pages: RowPages;
	/**
	 * Each server's matches for the filter, searched when the query changes rather than when
	 * the tree asks: the search (slow in a big workspace) then runs while the redraw waits its turn,
	 * not after the workbench's round trip. Cleared whenever the service changes.
	 */
	private readonly filterMatches = new Map<string, { matches: ResourceNode[]; total: number }>();
	/** The nodes this model makes (servers, groups, Suggested, held, text matches), by key. */
	private readonly nodes = new Map<string, ViewNode>();
	/** The filter's text matches: the lines of files holding the query, from servers offering search://text. */
	private readonly text: TextMatches;
	/** A line's node while its answer is shown (weak: the nodes of earlier answers go with them). */
	private readonly lineNodes = new WeakMap<TextMatch, TextLineNode>();
	private settingFilter = false;

	constructor(private readonly service: PickerService, options: PickerViewModelOptions = {}) {
		super();
		this.pages = new RowPages({ children: options.childPage ?? CHILD_PAGE, matches: FILTER_PAGE });
		// As many lines per server as a page of name matches: each row costs a redraw.
		this.text = this._register(new TextMatches(service, { log: service.log, max: FILTER_PAGE, debounceMs: options.textDebounceMs }));
		this._register(this.text.onDidChange(() => {
			if (!this.settingFilter) {
				this.changeEmitter.fire('filter');
			}
		}));
		this._register(service.onDidChange(() => {
			this.filterMatches.clear();
			this.changeEmitter.fire('data');
		}));
	}

	/** The filter query, trimmed; undefined when the tree is not filtered. */
	get filter(): string | undefined {
		return this.query;
	}

	/** "Searching…" or "N matches in M files" for the filter's text matches; undefined when there are none to search. */
	get textMessage(): string | undefined {
		return this.query ? textMatchesMessage(this.text.state) : undefined;
	}

	/** Filters every server's rows to the resources matching `query` (empty: no filter). */
	setFilter(query: string | undefined): void {
		const q = query?.trim() || undefined;
		if (q === this.query) {
			return;
		}
		this.query = q;
		// One change per keystroke: the filter's own, which redraws the text matches too.
		this.settingFilter = true;
		try {
			this.text.setQuery(q);
		} finally {
			this.settingFilter = false;
		}
		this.filterMatches.clear();
		this.pages.reset('matches');
		if (q) {
			// Matches come from what is listed: list every server, shown or not yet expanded.
			void this.service.loadAll();
		}
		this.changeEmitter.fire('filter');
		if (q) {
			for (const server of this.shownServers()) {
				this.filterMatchesOf(server);
			}
		}
	}

	/** Servers not shown (this window's server in Restricted Mode or disabled). */
	setHidden(serverIds: readonly string[]): void {
		this.hidden = new Set(serverIds);
		this.changeEmitter.fire('data');
	}

	/**
	 * The view is on screen or not. Listing starts when it first shows, not when a server is
	 * expanded: by the time the user expands one, its first page is usually in.
	 */
	setVisible(visible: boolean): void {
		this.visible = visible;
		this.service.setViewShown(visible);
		this.loadShownServers();
	}

	/**
	 * The view redraws every row. While it is on screen, a server added since is listed, and a
	 * listing that failed is tried again, at the pace the view redraws.
	 */
	redrawing(): void {
		this.loadShownServers();
	}

	/** Whether some server is still listing (the view paces redraws while pages stream in). */
	get loading(): boolean {
		return this.service.servers().some(s => s.resources.state.kind === 'loading');
	}

	/** Resources listed across servers. */
	get listedCount(): number {
		return this.service.servers().reduce((n, s) => n + s.resources.size, 0);
	}

	/** The rows under `node`, or the top rows (servers, then held folder servers). */
	children(node?: ViewNode): ViewNode[] {
		if (!node) {
			const held = this.service.heldServers().map(h => this.node(`held|${h.key}`, (n: HeldServerNode) => n.held === h, (key): HeldServerNode => ({ kind: 'held', serverId: `held:${h.config.name}`, key, held: h })));
			return [...this.shownServers().map(s => this.serverNode(s.id)), ...held];
		}
		const server = node.kind === 'held' ? undefined : this.service.server(node.serverId);
		if (!server) {
			return [];
		}
		switch (node.kind) {
			case 'server':
				return this.serverRows(server);
			case 'suggested':
				return server.suggestions.items().map(s => s.node);
			case 'textMatches':
				return this.textRows(server);
			case 'group':
			case 'folder':
				return this.listRows(server, node);
			default:
				return [];
		}
	}

	/** Shows one page more of the list under `more`. */
	showMore(more: MoreNode): void {
		this.pages.showMore(more);
		if (more.list === 'matches') {
			this.filterMatches.delete(more.serverId);
		}
		this.changeEmitter.fire('paging');
	}

	private serverRows(server: ServerEntry): ViewNode[] {
		const state = serverStateRow(server);
		if (state) {
			return [state];
		}
		if (this.query) {
			const { matches, total } = this.filterMatchesOf(server);
			const more = this.pages.moreRow(server.id, filterListKey(server.id), 'matches', total, matches.length);
			const text = this.textGroupRows(server);
			const last = total === 0 ? [noMatchesRow(server, text.length > 0)] : more ? [more] : [];
			return [...matches, ...last, ...listNoticeRows(server), ...text];
		}
		const suggested = server.suggestions.items().length > 0
			? [this.node(`${server.id}|suggested`, () => true, (key): SuggestedGroupNode => ({ kind: 'suggested', serverId: server.id, key }))]
			: [];
		const groups = server.resources.groups().map(g => this.groupNode(server.id, g));
		return [...suggested, ...groups, ...listNoticeRows(server)];
	}

	/** A group's or folder's children, one page at a time, with a loading row while pages come in. */
	private listRows(server: ServerEntry, node: GroupNode | FolderNode): PickerNode[] {
		const all = server.resources.children(node);
		if (node.kind === 'group' && node.group === 'templates') {
			return [...all, ...templatesNoticeRows(server, node)];
		}
		const limit = this.pages.limit(node.key, 'children');
		const rows = all.length > limit ? all.slice(0, limit) : all;
		const more = this.pages.moreRow(server.id, node.key, 'children', all.length, rows.length);
		return [...rows, ...(more ? [more] : []), ...loadingRows(server, node)];
	}

	/** The "Text matches" group of a filtered server, when the server offers the search and the query is long enough. */
	private textGroupRows(server: ServerEntry): TextMatchesGroupNode[] {
		if (this.text.state.query === undefined || !TextMatches.offersTextSearch(server)) {
			return [];
		}
		return [this.node(`${server.id}|textMatches`, () => true, (key): TextMatchesGroupNode => ({ kind: 'textMatches', serverId: server.id, key }))];
	}

	/** The server's matched lines, or a row saying it is searching or found none. */
	private textRows(server: ServerEntry): ViewNode[] {
		const state = this.text.state;
		const lines = state.matches.filter(m => m.serverId === server.id).map(m => this.lineNode(m));
		return lines.length > 0 ? lines : textStateRows(server, state.searching);
	}

	/** The matched lines of a server now (for the group's count). */
	textMatchesOf(serverId: string): readonly TextMatch[] {
		return this.text.state.matches.filter(m => m.serverId === serverId);
	}

	private lineNode(match: TextMatch): TextLineNode {
		let node = this.lineNodes.get(match);
		if (!node) {
			node = { kind: 'line', serverId: match.serverId, key: match.key, match };
			this.lineNodes.set(match, node);
		}
		return node;
	}

	private filterMatchesOf(server: ServerEntry): { matches: ResourceNode[]; total: number } {
		let result = this.filterMatches.get(server.id);
		if (!result) {
			result = server.resources.search(this.query ?? '', this.pages.limit(filterListKey(server.id), 'matches'));
			this.filterMatches.set(server.id, result);
		}
		return result;
	}

	private shownServers(): ServerEntry[] {
		return this.service.servers().filter(s => !this.hidden.has(s.id));
	}

	private loadShownServers(): void {
		if (this.visible) {
			// A failed listing is shown as a row to retry; its error is not the view's to report.
			this.shownServers().forEach(s => void s.resources.load().catch(() => undefined));
		}
	}

	private serverNode(serverId: string): ServerNode {
		return this.node(`${serverId}|server`, () => true, (key): ServerNode => ({ kind: 'server', serverId, key }));
	}

	private groupNode(serverId: string, group: GroupKind): GroupNode {
		return this.node(`${serverId}|g|${group}`, () => true, (key): GroupNode => ({ kind: 'group', serverId, group, key }));
	}

	/** The node kept under `key` while `current` says it still stands for the same thing; else a new one. */
	private node<T extends ViewNode>(key: string, current: (node: T) => boolean, make: (key: string) => T): T {
		const kept = this.nodes.get(key) as T | undefined;
		if (kept && current(kept)) {
			return kept;
		}
		const made = make(key);
		this.nodes.set(key, made);
		return made;
	}
}

/** The key of a server's filter matches as a list ("More matches…" pages it). */
function filterListKey(serverId: string): string {
	return `${serverId}|filter`;
}
