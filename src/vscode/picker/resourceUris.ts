import * as vscode from 'vscode';

// Not `mcp-resource:`: VS Code's own MCP client registers a file system for that scheme (1.10x+).
export const RESOURCE_SCHEME = 'mcp-workspace-resource';

/**
 * The editor URI of an MCP resource: `mcp-workspace-resource:/<server>/<path>?server=..&uri=..`. The
 * path is for the tab title and the language (by extension); the query says what to read.
 */
export function toDocumentUri(serverId: string, serverLabel: string, uri: string, path: string): vscode.Uri {
	const cleanPath = path.replace(/^\/+/, '').replace(/[?#]/g, '_') || 'resource';
	const label = serverLabel.replace(/[/?#]/g, '_');
	return vscode.Uri.from({
		scheme: RESOURCE_SCHEME,
		path: `/${label}/${cleanPath}`,
		query: new URLSearchParams({ server: serverId, uri }).toString(),
	});
}

export function fromDocumentUri(uri: vscode.Uri): { serverId: string; uri: string } | undefined {
	if (uri.scheme !== RESOURCE_SCHEME) {
		return undefined;
	}
	const params = new URLSearchParams(uri.query);
	const serverId = params.get('server');
	const resource = params.get('uri');
	return serverId && resource ? { serverId, uri: resource } : undefined;
}
