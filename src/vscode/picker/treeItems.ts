import * as vscode from 'vscode';
import { describeServer, printable } from '../../picker/folderServers';
import { escapeMarkdownRendered, markdownCodeSpan } from '../../picker/markdownText';
import { FolderNode, GROUP_LABELS, GroupKind, GroupNode, HeldServerNode, MoreNode, ServerNode, StatusNode, TemplateNode, TextLineNode, TextMatchesGroupNode, ViewNode } from '../../picker/pickerNodes';
import { PickerService, ServerEntry, WORKSPACE_SERVER_ID } from '../../picker/pickerService';
import { selectedLine } from '../../picker/textMatches';
import { REVIEW_FOLDER_SERVERS_COMMAND } from './folderServerGate';
import { iconUris, untrustedMarkdown } from './serverContentParts';
import { PICKER_COMMANDS } from './pickerCommandIds';
import { resourceItem } from './resourceItem';
import { RESOURCE_SCHEME } from './resourceUris';

const GROUP_ICONS: Record<GroupKind, string> = {
	files: 'files', problems: 'warning', git: 'source-control', editor: 'window', other: 'symbol-misc', templates: 'symbol-parameter',
};

/**
 * The TreeItem of a row; `filtering`: the tree shows filter matches (their folder joins the
 * description); `lines`: the matched lines of a server, for its Text matches group's count.
 */
export function treeItem(service: PickerService, node: ViewNode, filtering: boolean, lines = 0): vscode.TreeItem {
	const server = service.server(node.serverId);
	switch (node.kind) {
		case 'held': return heldItem(node);
		case 'suggested': return suggestedItem(node, server);
		case 'server': return serverItem(node, server);
		case 'group': return groupItem(node, server);
		case 'folder': return folderItem(node);
		case 'resource': return resourceItem(service, node, filtering);
		case 'template': return templateItem(node);
		case 'more': return moreItem(node);
		case 'status': return statusItem(node);
		case 'textMatches': return textMatchesItem(node, lines);
		case 'line': return lineItem(service, node);
	}
}

function textMatchesItem(node: TextMatchesGroupNode, lines: number): vscode.TreeItem {
	const item = new vscode.TreeItem('Text matches', vscode.TreeItemCollapsibleState.Expanded);
	item.id = node.key;
	item.description = lines > 0 ? `${lines.toLocaleString('en-US')} line${lines === 1 ? '' : 's'}` : '';
	item.tooltip = 'Lines of the files that hold the filter\'s text (the server\'s search://text). Check a line to select just that line.';
	item.iconPath = new vscode.ThemeIcon('search');
	item.contextValue = 'text-matches';
	// Else the tooltip would be the row's accessible name.
	item.accessibilityInformation = { label: `Text matches${item.description ? `, ${item.description}` : ''}` };
	return item;
}

/**
 * A matched line: `path:line` and the line's text, plain (TextMatches made them one line with
 * `$(…)` escaped; tree labels render no Markdown). Its checkbox selects the line's own URI;
 * a click opens a workspace file at the line, anything else as its read-only document.
 */
function lineItem(service: PickerService, node: TextLineNode): vscode.TreeItem {
	const { match } = node;
	const item = new vscode.TreeItem(match.label, vscode.TreeItemCollapsibleState.None);
	item.id = node.key;
	item.description = match.detail;
	item.tooltip = `${match.label}\n${match.detail}`;
	item.iconPath = new vscode.ThemeIcon('search');
	item.contextValue = 'text-line';
	const selected = service.selection.has(node.serverId, match.uri);
	item.checkboxState = selected ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked;
	item.accessibilityInformation = { label: `${match.label}, ${match.detail}${selected ? ', selected' : ''}` };
	if (node.serverId === WORKSPACE_SERVER_ID && match.fileUri.startsWith('file:')) {
		const line = new vscode.Range(match.line - 1, 0, match.line - 1, 0);
		item.command = { command: 'vscode.open', title: 'Open', arguments: [vscode.Uri.parse(match.fileUri), { selection: line, preview: true }] };
	} else {
		item.command = { command: PICKER_COMMANDS.openResource, title: 'Open Resource', arguments: [{ serverId: node.serverId, uri: selectedLine(match).resource.uri }] };
	}
	return item;
}

function suggestedItem(node: ViewNode, server: ServerEntry | undefined): vscode.TreeItem {
	const count = server?.suggestions.items().length ?? 0;
	const item = new vscode.TreeItem('Suggested', vscode.TreeItemCollapsibleState.Expanded);
	item.id = node.key;
	item.description = `${count} · what matters now`;
	item.tooltip = 'Files this server ranks as relevant right now (active and recent editors, edits, problems, git changes). Attach All Suggested adds them to the selection and attaches it.';
	item.iconPath = new vscode.ThemeIcon('sparkle');
	item.contextValue = 'suggested';
	return item;
}

function serverItem(node: ServerNode, server: ServerEntry | undefined): vscode.TreeItem {
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
		item.iconPath = icon ? iconUris(icon) : new vscode.ThemeIcon(node.serverId === WORKSPACE_SERVER_ID ? 'root-folder' : 'server');
		const count = server?.resources.size ?? 0;
		const capped = load?.kind === 'complete' && load.notice ? ' (incomplete)' : '';
		item.description = load?.kind === 'complete' ? `${count.toLocaleString('en-US')} resource${count === 1 ? '' : 's'}${capped}` : state?.kind === 'connected' ? 'connected' : '';
	}
	if (server?.config) {
		const where = server.config.kind === 'http' ? `${server.label}: ${server.config.url}` : `${server.label}: ${server.config.command} ${server.config.args.join(' ')}`;
		// Where it is, and (after an error) why it failed: the error may show nowhere else once resources were listed.
		item.tooltip = typeof item.tooltip === 'string' ? `${where}\n${item.tooltip}` : where;
	}
	return item;
}

function groupItem(node: GroupNode, server: ServerEntry | undefined): vscode.TreeItem {
	const count = server?.resources.groupCount(node.group) ?? 0;
	const item = new vscode.TreeItem(GROUP_LABELS[node.group], node.group === 'files' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
	item.id = node.key;
	item.description = count.toLocaleString('en-US');
	item.iconPath = new vscode.ThemeIcon(GROUP_ICONS[node.group]);
	item.contextValue = `group-${node.group}`;
	return item;
}

function folderItem(node: FolderNode): vscode.TreeItem {
	const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Collapsed);
	item.id = node.key;
	item.description = `${node.count.toLocaleString('en-US')}`;
	item.tooltip = `${node.path}/ — ${node.count.toLocaleString('en-US')} resource${node.count === 1 ? '' : 's'}`;
	item.iconPath = vscode.ThemeIcon.Folder;
	item.resourceUri = vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: `/${node.path}` });
	item.contextValue = 'folder';
	return item;
}

function templateItem(node: TemplateNode): vscode.TreeItem {
	const t = node.template;
	const item = new vscode.TreeItem(t.title ?? t.name, vscode.TreeItemCollapsibleState.None);
	item.id = node.key;
	item.description = t.uriTemplate;
	const md = untrustedMarkdown();
	md.appendMarkdown(`**${escapeMarkdownRendered(t.name)}**\n\n${markdownCodeSpan(t.uriTemplate)}\n\n`);
	if (t.description) {
		md.appendMarkdown(`${escapeMarkdownRendered(t.description)}\n\n`);
	}
	md.appendMarkdown('Click to fill in the variables.');
	item.tooltip = md;
	item.iconPath = t.icon ? iconUris(t.icon) : new vscode.ThemeIcon('symbol-parameter');
	item.contextValue = 'template';
	item.command = { command: PICKER_COMMANDS.fillTemplate, title: 'Fill Template...', arguments: [node] };
	return item;
}

function moreItem(node: MoreNode): vscode.TreeItem {
	const what = node.list === 'matches' ? 'More matches…' : 'Load more…';
	const item = new vscode.TreeItem(`${what} (${node.remaining.toLocaleString('en-US')} more)`, vscode.TreeItemCollapsibleState.None);
	item.id = node.key;
	item.iconPath = new vscode.ThemeIcon('ellipsis');
	item.command = { command: PICKER_COMMANDS.showMore, title: 'Load more', arguments: [node] };
	item.contextValue = 'more';
	return item;
}

function statusItem(node: StatusNode): vscode.TreeItem {
	const item = new vscode.TreeItem(node.message, vscode.TreeItemCollapsibleState.None);
	item.id = node.key;
	item.iconPath = new vscode.ThemeIcon(node.status === 'loading' ? 'loading~spin' : node.status === 'error' ? 'error' : node.status === 'notice' ? 'warning' : 'info');
	if (node.status === 'notice') {
		item.tooltip = `${node.message} Refresh lists the server again.`;
	}
	if (node.status === 'error') {
		item.command = { command: PICKER_COMMANDS.retryServer, title: 'Retry', arguments: [node] };
	}
	item.contextValue = `status-${node.status}`;
	return item;
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
