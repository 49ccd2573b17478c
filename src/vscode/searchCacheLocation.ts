import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';

/**
 * Where this window keeps its search index between sessions: in the workspace's own storage
 * folder, else (a window with folders but no workspace storage) in the extension's global storage
 * under a hash of the folders. Undefined in Restricted Mode, where nothing is served, so nothing
 * is read or written either.
 */
export function searchCacheLocation(context: vscode.ExtensionContext): () => string | undefined {
	return () => {
		if (!vscode.workspace.isTrusted) {
			return undefined;
		}
		if (context.storageUri?.scheme === 'file') {
			return path.join(context.storageUri.fsPath, 'search');
		}
		const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath).sort();
		if (folders.length === 0 || context.globalStorageUri.scheme !== 'file') {
			return undefined;
		}
		const hash = createHash('sha256').update(folders.join('\0')).digest('hex').slice(0, 16);
		return path.join(context.globalStorageUri.fsPath, 'search', hash);
	};
}
