import * as vscode from 'vscode';
import { ResourceNode, ViewNode } from '../../picker/pickerNodes';
import { PickerService, WORKSPACE_SERVER_ID } from '../../picker/pickerService';
import { toDocumentUri } from './resourceUris';

export const DRAG_MIME_TYPES = ['text/uri-list', 'text/plain'];

/** Workspace files drag as themselves (editors and chat open them); anything else as its read-only document. */
export function dragUri(service: PickerService, node: ResourceNode): vscode.Uri {
	if (node.serverId === WORKSPACE_SERVER_ID && node.resource.uri.startsWith('file:')) {
		return vscode.Uri.parse(node.resource.uri);
	}
	const server = service.server(node.serverId);
	return toDocumentUri(node.serverId, server?.label ?? node.serverId, node.resource.uri, node.path);
}

/** What a drag of `source` carries: `text/uri-list` for editors and chat, the MCP URIs as `text/plain`. */
export function fillDragData(service: PickerService, source: readonly ViewNode[], dataTransfer: vscode.DataTransfer): void {
	const resources = source.filter((n): n is ResourceNode => n.kind === 'resource');
	if (resources.length > 0) {
		dataTransfer.set('text/uri-list', new vscode.DataTransferItem(resources.map(n => dragUri(service, n).toString()).join('\r\n')));
		dataTransfer.set('text/plain', new vscode.DataTransferItem(resources.map(n => n.resource.uri).join('\n')));
	}
}
