import * as vscode from 'vscode';
import { escapeMarkdownRendered, markdownCodeSpan } from '../../picker/markdownText';
import { ResourceNode } from '../../picker/pickerNodes';
import { PickerService } from '../../picker/pickerService';
import { estimateTokensFromSize } from '../../picker/tokenCount';
import { formatSize, formatTokens } from '../../picker/tokenEstimate';
import { iconUris, untrustedMarkdown } from './serverContentParts';
import { PICKER_COMMANDS } from './pickerCommandIds';
import { dragUri } from './resourceDrag';

/** A resource row: checkbox for the selection, size and tokens (or why it is suggested), click opens it. */
export function resourceItem(service: PickerService, node: ResourceNode, filtering: boolean): vscode.TreeItem {
	const server = service.server(node.serverId);
	const r = node.resource;
	const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
	item.id = node.key;
	const selected = service.selection.get(node.serverId, r.uri);
	const parts: string[] = [];
	// First, so a narrow sidebar cuts the size rather than the mark.
	if (selected?.changedAt !== undefined) {
		parts.push('● changed');
	}
	if (filtering && node.path !== node.label) {
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
	item.resourceUri = node.group === 'files' ? dragUri(service, node) : undefined;
	item.contextValue = 'resource';
	item.command = { command: PICKER_COMMANDS.openResource, title: 'Open Resource', arguments: [node] };
	item.accessibilityInformation = { label: `${node.label}${selected ? ', selected' : ''}${server ? `, ${server.label}` : ''}` };
	return item;
}

/** Every string in it comes from the server: escaped, in a Markdown string that runs no command and no HTML. */
export function resourceTooltip(service: PickerService, node: ResourceNode): vscode.MarkdownString {
	const r = node.resource;
	const selected = service.selection.get(node.serverId, r.uri);
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

function iconFor(node: ResourceNode): vscode.ThemeIcon {
	switch (node.group) {
		case 'files': return vscode.ThemeIcon.File;
		case 'problems': return new vscode.ThemeIcon('warning');
		case 'git': return new vscode.ThemeIcon(node.resource.uri.includes('/diff') ? 'diff' : node.resource.uri.includes('/log') ? 'history' : 'git-commit');
		case 'editor': return new vscode.ThemeIcon(node.resource.uri.includes('selection') ? 'selection' : 'window');
		default: return new vscode.ThemeIcon(node.resource.mimeType?.startsWith('image/') ? 'file-media' : 'symbol-file');
	}
}

/** The counted tokens of a selected, read resource; otherwise the estimate from its size. */
function rowTokens(counted: number | undefined, size: number): string {
	return counted !== undefined ? formatTokens(counted, true) : formatTokens(estimateTokensFromSize(size));
}
