import * as vscode from 'vscode';
import { describeServer, FolderServer, printable } from '../../picker/folderServers';
import { SafeIcon } from '../../picker/icons';
import { escapeMarkdownRendered, markdownCodeSpan } from '../../picker/markdownText';
import { PickerService, ServerEntry } from '../../picker/pickerService';
import { estimateTokensFromSize } from '../../picker/tokenCount';
import { formatSize, formatTokens } from '../../picker/tokenEstimate';
import { GROUP_LABELS, GroupKind, GroupNode, MoreNode, PickerNode, ResourceNode, ServerNode, StatusNode } from '../../picker/treeModel';
import { REVIEW_FOLDER_SERVERS_COMMAND } from './folderServerGate';
import { RESOURCE_SCHEME, toDocumentUri } from './resourceUris';

export const VIEW_ID = 'mcpResources.picker';
/**
 * Matches shown per server before a "More matches…" row. A sidebar shows about 40 rows, and
 * every row the workbench takes costs: a refresh of 200 matches kept the tree busy 250-500 ms
 * on a 2-core machine, and the next keystroke's refresh waited behind it.
 */
const FILTER_PAGE = 50;
/**
 * The extension host passes tree changes to the workbench through a 200 ms debounce that fires
 * on the leading edge: a change after a quiet 200 ms shows at once, one inside the window waits
 * for its end. Our refreshes are spaced just over it so each one is a leading edge (and so the
 * tree change must go before the view message, which counts as a change too).
 */
const WORKBENCH_COALESCE_MS = 210;

/** A server from folder settings the user has not allowed: a row that only offers a review. */
export interface HeldServerNode {
	readonly kind: 'held';
	readonly serverId: string;
	readonly key: string;
	readonly held: FolderServer;
}

/** "Suggested": what the server says matters now, at the top of a server. */
export interface SuggestedGroupNode {
	readonly kind: 'suggested';
	readonly serverId: string;
	readonly key: string;
}

/** Every row of the view: the picker's nodes, the held folder servers and the Suggested groups. */
export type ViewNode = PickerNode | HeldServerNode | SuggestedGroupNode;

const GROUP_ICONS: Record<GroupKind, string> = {
	files: 'files', problems: 'warning', git: 'source-control', editor: 'window', other: 'symbol-misc', templates: 'symbol-parameter',
};

/**
 * The "Resources" tree: servers, then groups by kind, then the files folder tree; checkboxes
 * select, the badge counts the selection, drag gives `text/uri-list`. Everything it shows comes
 * from the PickerService; this class only translates to TreeItems.
 */
export class PickerView implements vscode.TreeDataProvider<ViewNode>, vscode.TreeDragAndDropController<ViewNode>, vscode.Disposable {
	private readonly changeEmitter = new vscode.EventEmitter<ViewNode | undefined>();
	readonly onDidChangeTreeData = this.changeEmitter.event;
	readonly dragMimeTypes = ['text/uri-list', 'text/plain'];
	readonly dropMimeTypes: string[] = [];
	readonly view: vscode.TreeView<ViewNode>;
	private readonly serverNodes = new Map<string, ServerNode>();
	private readonly groupNodes = new Map<string, GroupNode>();
	private readonly disposables: vscode.Disposable[] = [];
	private refreshTimer: NodeJS.Timeout | undefined;
	private lastRefresh = 0;
	private refreshDue = 0;
	/** Resources of all servers at the last refresh: the first page is drawn without waiting. */
	private shownAtLastRefresh = 0;
	private filterQuery: string | undefined;
	/**
	 * Each server's matches for the filter, searched when the query changes rather than when
	 * the tree asks: the search (tens of ms at 100k) then runs while the refresh waits its turn,
	 * not after the workbench's round trip. Cleared whenever a server's resources change.
	 */
	private readonly filterMatches = new Map<string, { matches: ResourceNode[]; total: number }>();
	/** Matches shown per server for this query ("More matches…" raises it). */
	private readonly filterLimits = new Map<string, number>();
	/** Hidden servers (this window's server in Restricted Mode or disabled). */
	private hidden = new Set<string>();
	private readonly renderedEmitter = new vscode.EventEmitter<void>();
	/** Fires after the tree was asked for a refresh (tests wait on it). */
	readonly onDidRequestRender = this.renderedEmitter.event;

	constructor(private readonly service: PickerService) {
		this.view = vscode.window.createTreeView(VIEW_ID, {
			treeDataProvider: this,
			dragAndDropController: this,
			canSelectMany: true,
			showCollapseAll: true,
			manageCheckboxStateManually: true,
		});
		this.disposables.push(
			this.view,
			this.changeEmitter,
			this.renderedEmitter,
			this.view.onDidChangeCheckboxState(e => this.onCheckboxes(e)),
			{ dispose: service.onDidChange(() => {
				this.filterMatches.clear();
				this.scheduleRefresh();
			}).dispose },
		);
		this.updateBadge();
	}

	get filter(): string | undefined {
		return this.filterQuery;
	}

	setFilter(query: string | undefined): void {
		const q = query?.trim() || undefined;
		if (q === this.filterQuery) {
			return;
		}
		this.filterQuery = q;
		this.filterMatches.clear();
		this.filterLimits.clear();
		void vscode.commands.executeCommand('setContext', 'mcpResources.picker.filtering', q !== undefined);
		if (q) {
			void this.service.loadAll();
		}
		this.refreshWithin(WORKBENCH_COALESCE_MS);
		if (q) {
			for (const server of this.service.servers()) {
				if (!this.hidden.has(server.id)) {
					this.filterMatchesOf(server);
				}
			}
		}
	}

	setHidden(serverIds: readonly string[]): void {
		this.hidden = new Set(serverIds);
		this.scheduleRefresh();
	}

	refreshNow(): void {
		if (this.refreshTimer) {
			clearTimeout(this.refreshTimer);
			this.refreshTimer = undefined;
		}
		this.lastRefresh = Date.now();
		this.shownAtLastRefresh = this.service.servers().reduce((n, s) => n + s.resources.size, 0);
		// The tree change goes first: see WORKBENCH_COALESCE_MS for why the order matters.
		this.changeEmitter.fire(undefined);
		this.updateBadge();
		this.renderedEmitter.fire();
	}

	private scheduleRefresh(): void {
		// A refresh redraws every expanded node, one round trip to the workbench per level. While
		// pages stream in, the extension host is busy serving and merging them; refreshing every
		// 100 ms then restarted the workbench's refresh before it finished, and nothing showed
		// until the last page (3 s at 100k files). So: the first page draws at once, later changes
		// at most once a second while loading, and otherwise as soon as the workbench takes them.
		const servers = this.service.servers();
		const loading = servers.some(s => s.resources.state.kind === 'loading');
		const shown = servers.reduce((n, s) => n + s.resources.size, 0);
		const firstPage = shown > 0 && this.shownAtLastRefresh === 0;
		this.refreshWithin(firstPage ? 0 : loading ? 1000 : WORKBENCH_COALESCE_MS);
	}

	/** Refreshes once `gap` ms have passed since the last refresh (at once if they have). */
	private refreshWithin(gap: number): void {
		const due = Math.max(Date.now(), this.lastRefresh + gap);
		if (this.refreshTimer && this.refreshDue <= due) {
			return;
		}
		clearTimeout(this.refreshTimer);
		this.refreshDue = due;
		this.refreshTimer = setTimeout(() => this.refreshNow(), due - Date.now());
	}

	private updateBadge(): void {
		const count = this.service.selection.size;
		const tokens = this.service.selection.estimatedTokens;
		const counted = this.service.selection.tokensCounted;
		this.view.badge = count > 0 ? { value: count, tooltip: `${count} selected, ${counted ? '' : '~'}${tokens.toLocaleString('en-US')} tokens` } : undefined;
		this.view.description = count > 0 ? `${count} selected · ${formatTokens(tokens, counted)}` : undefined;
		const message = this.filterQuery ? `Filter: "${this.filterQuery}"` : undefined;
		// Setting the message counts as a tree change for the workbench's coalescing: only on change.
		if (this.view.message !== message) {
			this.view.message = message;
		}
		void vscode.commands.executeCommand('setContext', 'mcpResources.picker.hasSelection', count > 0);
	}

	getChildren(node?: ViewNode): ViewNode[] {
		if (!node) {
			const servers = this.service.servers().filter(s => !this.hidden.has(s.id));
			// Listing starts when the view first shows, not when a server is expanded: by the time
			// the user expands one, its first page is usually in.
			servers.forEach(s => void s.resources.load().catch(() => undefined));
			const held = this.service.heldServers().map((h): HeldServerNode => ({ kind: 'held', serverId: `held:${h.config.name}`, key: `held|${h.key}`, held: h }));
			return [...servers.map(s => this.serverNode(s.id)), ...held];
		}
		if (node.kind === 'held') {
			return [];
		}
		const server = this.service.server(node.serverId);
		if (!server) {
			return [];
		}
		switch (node.kind) {
			case 'server':
				return this.serverChildren(server);
			case 'suggested':
				return server.suggestions.items().map(s => s.node);
			case 'group':
			case 'folder':
				return server.resources.children(node);
			default:
				return [];
		}
	}

	private serverChildren(server: ServerEntry): ViewNode[] {
		const { connection, resources } = server;
		void resources.load().catch(() => undefined);
		const state = connection.state;
		const status = (kind: StatusNode['status'], message: string): StatusNode =>
			({ kind: 'status', serverId: server.id, key: `${server.id}|status`, status: kind, message });
		if (resources.size === 0) {
			if (state.kind === 'error') {
				return [status('error', `${state.message} — click to retry`)];
			}
			if (state.kind === 'unavailable') {
				return [status('info', state.message)];
			}
			if (resources.state.kind === 'error') {
				return [status('error', `${resources.state.message} — click to retry`)];
			}
			if (resources.state.kind !== 'complete') {
				return [status('loading', state.kind === 'connected' ? 'Loading…' : 'Connecting…')];
			}
		}
		if (this.filterQuery) {
			const { matches, total } = this.filterMatchesOf(server);
			const out: PickerNode[] = [...matches];
			if (total === 0) {
				out.push(status('empty', resources.state.kind === 'loading' ? 'No matches yet (still loading)…' : 'No matches'));
			} else if (total > matches.length) {
				out.push({ kind: 'more', serverId: server.id, key: `${server.id}|filter|more`, parentKey: filterMoreKey(server.id), remaining: total - matches.length });
			}
			return [...out, ...noticeRow(server)];
		}
		const groups: PickerNode[] = resources.groups().map(g => this.groupNode(server.id, g));
		const suggested: SuggestedGroupNode[] = server.suggestions.items().length > 0 ? [{ kind: 'suggested', serverId: server.id, key: `${server.id}|suggested` }] : [];
		return [...suggested, ...groups, ...noticeRow(server)];
	}

	/** "Load more…" under a folder or group, or "More matches…" under a filtered server. */
	showMore(node: MoreNode): void {
		if (node.parentKey !== filterMoreKey(node.serverId)) {
			this.service.server(node.serverId)?.resources.showMore(node.parentKey);
			return;
		}
		this.filterLimits.set(node.serverId, (this.filterLimits.get(node.serverId) ?? FILTER_PAGE) + FILTER_PAGE);
		this.filterMatches.delete(node.serverId);
		this.refreshWithin(0);
	}

	private filterMatchesOf(server: ServerEntry): { matches: ResourceNode[]; total: number } {
		let result = this.filterMatches.get(server.id);
		if (!result) {
			result = server.resources.search(this.filterQuery ?? '', this.filterLimits.get(server.id) ?? FILTER_PAGE);
			this.filterMatches.set(server.id, result);
		}
		return result;
	}

	getTreeItem(node: ViewNode): vscode.TreeItem {
		const server = this.service.server(node.serverId);
		switch (node.kind) {
			case 'held':
				return heldItem(node);
			case 'suggested': {
				const count = server?.suggestions.items().length ?? 0;
				const item = new vscode.TreeItem('Suggested', vscode.TreeItemCollapsibleState.Expanded);
				item.id = node.key;
				item.description = `${count} · what matters now`;
				item.tooltip = 'Files this server ranks as relevant right now (active and recent editors, edits, problems, git changes). Attach All Suggested adds them to the selection and attaches it.';
				item.iconPath = new vscode.ThemeIcon('sparkle');
				item.contextValue = 'suggested';
				return item;
			}
			case 'server': {
				const item = new vscode.TreeItem(server?.label ?? node.serverId, vscode.TreeItemCollapsibleState.Collapsed);
				item.id = node.key;
				const state = server?.connection.state;
				const load = server?.resources.state;
				// "-configured": servers of mcpResources.servers, which Remove Server offers to remove.
				item.contextValue = `${state?.kind === 'error' ? 'server-error' : 'server'}${server?.config ? '-configured' : ''}`;
				if (state?.kind === 'error') {
					item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
					item.description = 'error';
					item.tooltip = `${state.message}\nRetrying automatically; use Retry to try now.`;
				} else if (state?.kind === 'connecting' || load?.kind === 'loading') {
					item.iconPath = new vscode.ThemeIcon('loading~spin');
					item.description = load?.kind === 'loading' && load.loaded > 0 ? `loading ${load.loaded.toLocaleString('en-US')}…` : 'connecting…';
				} else if (state?.kind === 'unavailable') {
					item.iconPath = new vscode.ThemeIcon('circle-slash');
					item.description = state.message;
				} else {
					const icon = server?.connection.serverIcon;
					item.iconPath = icon ? iconUris(icon) : new vscode.ThemeIcon(node.serverId === 'workspace' ? 'root-folder' : 'server');
					const count = server?.resources.size ?? 0;
					const capped = load?.kind === 'complete' && load.notice ? ' (incomplete)' : '';
					item.description = load?.kind === 'complete' ? `${count.toLocaleString('en-US')} resource${count === 1 ? '' : 's'}${capped}` : state?.kind === 'connected' ? 'connected' : '';
				}
				if (server?.config) {
					item.tooltip = server.config.kind === 'http' ? `${server.label}: ${server.config.url}` : `${server.label}: ${server.config.command} ${server.config.args.join(' ')}`;
				}
				return item;
			}
			case 'group': {
				const count = server?.resources.groupCount(node.group) ?? 0;
				const item = new vscode.TreeItem(GROUP_LABELS[node.group], node.group === 'files' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
				item.id = node.key;
				item.description = count.toLocaleString('en-US');
				item.iconPath = new vscode.ThemeIcon(GROUP_ICONS[node.group]);
				item.contextValue = `group-${node.group}`;
				return item;
			}
			case 'folder': {
				const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Collapsed);
				item.id = node.key;
				item.description = `${node.count.toLocaleString('en-US')}`;
				item.tooltip = `${node.path}/ — ${node.count.toLocaleString('en-US')} resources`;
				item.iconPath = vscode.ThemeIcon.Folder;
				item.resourceUri = vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: `/${node.path}` });
				item.contextValue = 'folder';
				return item;
			}
			case 'resource':
				return this.resourceItem(node, server);
			case 'template': {
				const item = new vscode.TreeItem(node.template.title ?? node.template.name, vscode.TreeItemCollapsibleState.None);
				item.id = node.key;
				item.description = node.template.uriTemplate;
				const t = node.template;
				const md = untrustedMarkdown();
				md.appendMarkdown(`**${escapeMarkdownRendered(t.name)}**\n\n${markdownCodeSpan(t.uriTemplate)}\n\n`);
				if (t.description) {
					md.appendMarkdown(`${escapeMarkdownRendered(t.description)}\n\n`);
				}
				md.appendMarkdown('Click to fill in the variables.');
				item.tooltip = md;
				item.iconPath = t.icon ? iconUris(t.icon) : new vscode.ThemeIcon('symbol-parameter');
				item.contextValue = 'template';
				item.command = { command: 'mcpResources.fillTemplate', title: 'Fill Template...', arguments: [node] };
				return item;
			}
			case 'more': {
				const what = node.parentKey === filterMoreKey(node.serverId) ? 'More matches…' : 'Load more…';
				const item = new vscode.TreeItem(`${what} (${node.remaining.toLocaleString('en-US')} more)`, vscode.TreeItemCollapsibleState.None);
				item.id = node.key;
				item.iconPath = new vscode.ThemeIcon('ellipsis');
				item.command = { command: 'mcpResources.showMore', title: 'Load more', arguments: [node] };
				item.contextValue = 'more';
				return item;
			}
			case 'status': {
				const item = new vscode.TreeItem(node.message, vscode.TreeItemCollapsibleState.None);
				item.id = node.key;
				item.iconPath = new vscode.ThemeIcon(node.status === 'loading' ? 'loading~spin' : node.status === 'error' ? 'error' : node.status === 'notice' ? 'warning' : 'info');
				if (node.status === 'notice') {
					item.tooltip = `${node.message} Refresh lists the server again.`;
				}
				if (node.status === 'error') {
					item.command = { command: 'mcpResources.retryServer', title: 'Retry', arguments: [node] };
				}
				item.contextValue = `status-${node.status}`;
				return item;
			}
		}
	}

	private resourceItem(node: ResourceNode, server: ServerEntry | undefined): vscode.TreeItem {
		const r = node.resource;
		const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
		item.id = node.key;
		const selected = this.service.selection.get(node.serverId, r.uri);
		const parts: string[] = [];
		// First, so a narrow sidebar cuts the size rather than the mark.
		if (selected?.changedAt !== undefined) {
			parts.push('● changed');
		}
		if (this.filterQuery && node.path !== node.label) {
			parts.push(node.path.slice(0, node.path.length - node.label.length).replace(/\/$/, ''));
		}
		const reason = server?.suggestions.reasonFor(node.key);
		if (reason) {
			parts.push(reason);
		} else if (r.size !== undefined) {
			parts.push(`${formatSize(r.size)} · ${rowTokens(selected?.tokens, r.size)}`);
		}
		item.description = parts.join('  ');
		item.checkboxState = selected ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked;
		item.iconPath = r.icon ? iconUris(r.icon) : iconFor(node);
		// The icon theme picks an icon by the resourceUri's file name, file decorations (git,
		// problems) follow it, and VS Code puts it in the drag data that editors and chat read,
		// so it must be what opening the item shows: the file itself, or its read-only document.
		item.resourceUri = node.group === 'files' ? vscode.Uri.parse(this.dragUri(node)) : undefined;
		item.contextValue = 'resource';
		item.command = { command: 'mcpResources.openResource', title: 'Open Resource', arguments: [node] };
		item.accessibilityInformation = { label: `${node.label}${selected ? ', selected' : ''}${server ? `, ${server.label}` : ''}` };
		return item;
	}

	/**
	 * Tooltips are built on hover only: a refresh (every filter keystroke) then sends just
	 * labels and descriptions to the workbench, not a Markdown document per row.
	 */
	resolveTreeItem(item: vscode.TreeItem, node: ViewNode): vscode.TreeItem {
		if (node.kind === 'resource') {
			item.tooltip = this.resourceTooltip(node);
		}
		return item;
	}

	/** Every string in it comes from the server: escaped, in a Markdown string that runs no command and no HTML. */
	private resourceTooltip(node: ResourceNode): vscode.MarkdownString {
		const r = node.resource;
		const selected = this.service.selection.get(node.serverId, r.uri);
		const md = untrustedMarkdown();
		md.appendMarkdown(`**${escapeMarkdownRendered(r.title ?? node.label)}**\n\n`);
		if (r.description) {
			md.appendMarkdown(`${escapeMarkdownRendered(r.description)}\n\n`);
		}
		md.appendMarkdown(`- URI: ${markdownCodeSpan(r.uri)}\n`);
		md.appendMarkdown(`- MIME type: ${r.mimeType ? escapeMarkdownRendered(r.mimeType, 200) : 'unknown'}\n`);
		if (r.size !== undefined) {
			md.appendMarkdown(`- Size: ${formatSize(r.size)} (${rowTokens(selected?.tokens, r.size)})\n`);
		}
		const modified = r.annotations?.lastModified ? new Date(r.annotations.lastModified) : undefined;
		if (modified && !Number.isNaN(modified.getTime())) {
			md.appendMarkdown(`- Last modified: ${modified.toLocaleString()}\n`);
		}
		if (selected?.changedAt !== undefined) {
			md.appendMarkdown(`- Changed since you selected it (${new Date(selected.changedAt).toLocaleTimeString()})\n`);
		}
		return md;
	}

	private onCheckboxes(e: vscode.TreeCheckboxChangeEvent<ViewNode>): void {
		const add: { serverId: string; resource: ResourceNode['resource'] }[] = [];
		const remove: { serverId: string; uri: string }[] = [];
		for (const [node, state] of e.items) {
			if (node.kind !== 'resource') {
				continue;
			}
			if (state === vscode.TreeItemCheckboxState.Checked) {
				add.push({ serverId: node.serverId, resource: node.resource });
			} else {
				remove.push({ serverId: node.serverId, uri: node.resource.uri });
			}
		}
		this.service.selection.update(add, remove);
	}

	handleDrag(source: readonly ViewNode[], dataTransfer: vscode.DataTransfer): void {
		const uris = source.filter((n): n is ResourceNode => n.kind === 'resource').map(n => this.dragUri(n));
		if (uris.length > 0) {
			dataTransfer.set('text/uri-list', new vscode.DataTransferItem(uris.join('\r\n')));
			dataTransfer.set('text/plain', new vscode.DataTransferItem(source.filter((n): n is ResourceNode => n.kind === 'resource').map(n => n.resource.uri).join('\n')));
		}
	}

	/** Workspace files drag as themselves (editors and chat open them); anything else as its read-only document. */
	private dragUri(node: ResourceNode): string {
		const server = this.service.server(node.serverId);
		if (node.serverId === 'workspace' && node.resource.uri.startsWith('file:')) {
			return vscode.Uri.parse(node.resource.uri).toString();
		}
		return toDocumentUri(node.serverId, server?.label ?? node.serverId, node.resource.uri, node.path).toString();
	}

	private serverNode(id: string): ServerNode {
		let node = this.serverNodes.get(id);
		if (!node) {
			node = { kind: 'server', serverId: id, key: `${id}|server` };
			this.serverNodes.set(id, node);
		}
		return node;
	}

	private groupNode(serverId: string, group: GroupKind): GroupNode {
		const key = `${serverId}|g|${group}`;
		let node = this.groupNodes.get(key);
		if (!node) {
			node = { kind: 'group', serverId, group, key };
			this.groupNodes.set(key, node);
		}
		return node;
	}

	dispose(): void {
		if (this.refreshTimer) {
			clearTimeout(this.refreshTimer);
		}
		this.disposables.forEach(d => d.dispose());
	}
}

/**
 * Not an error: the folder's entry waits for the user. Clicking asks (Allow / Don't Allow);
 * nothing is started or contacted before that.
 */
function heldItem(node: HeldServerNode): vscode.TreeItem {
	const { config, consent, folderLabel } = node.held;
	const name = printable(config.name);
	const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
	item.id = node.key;
	const state = consent === 'declined' ? 'off: you chose Don\'t Allow' : 'not started: from this folder\'s settings';
	item.description = `${state} — click to review`;
	item.iconPath = new vscode.ThemeIcon(consent === 'declined' ? 'circle-slash' : 'shield');
	item.tooltip = `${name}, from the settings of ${folderLabel}\n${describeServer(config)}\n\nClick to allow it or keep it off.`;
	item.contextValue = 'held-server';
	item.accessibilityInformation = { label: `${name}, ${item.description}` };
	item.command = { command: REVIEW_FOLDER_SERVERS_COMMAND, title: 'Review', arguments: [node] };
	return item;
}

function iconFor(node: ResourceNode): vscode.ThemeIcon {
	switch (node.group) {
		case 'files': return vscode.ThemeIcon.File;
		case 'problems': return new vscode.ThemeIcon('warning');
		case 'git': return new vscode.ThemeIcon(node.resource.uri.includes('/diff') ? 'diff' : node.resource.uri.includes('/log') ? 'history' : 'git-commit');
		case 'editor': return new vscode.ThemeIcon(node.resource.uri.includes('selection') ? 'selection' : 'window');
		default: return new vscode.ThemeIcon(node.resource.mimeType?.startsWith('image/') ? 'file-media' : 'symbol-file');
	}
}

/** A Markdown string for text that includes a server's strings: no command links, no HTML, no theme icons. */
function untrustedMarkdown(): vscode.MarkdownString {
	const md = new vscode.MarkdownString('', false);
	md.isTrusted = false;
	md.supportHtml = false;
	return md;
}

/**
 * A validated icon (only `data:` URIs of checked PNG, JPEG, WebP or GIF bytes reach here, see
 * picker/icons.ts), so showing it fetches nothing.
 */
function iconUris(icon: SafeIcon): vscode.Uri | { light: vscode.Uri; dark: vscode.Uri } {
	return icon.light === icon.dark ? vscode.Uri.parse(icon.light) : { light: vscode.Uri.parse(icon.light), dark: vscode.Uri.parse(icon.dark) };
}

/** The row saying why a server's list stopped early, when it did. */
function noticeRow(server: ServerEntry): StatusNode[] {
	const load = server.resources.state;
	return load.kind === 'complete' && load.notice
		? [{ kind: 'status', serverId: server.id, key: `${server.id}|notice`, status: 'notice', message: load.notice }]
		: [];
}

/** The `parentKey` of the "More matches…" row under a server while the tree is filtered. */
function filterMoreKey(serverId: string): string {
	return `${serverId}|filter`;
}

/** The counted tokens of a selected, read resource; otherwise the estimate from its size. */
function rowTokens(counted: number | undefined, size: number): string {
	return counted !== undefined ? formatTokens(counted, true) : formatTokens(estimateTokensFromSize(size));
}
