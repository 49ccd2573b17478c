import * as path from 'node:path';
import * as vscode from 'vscode';
import { buildClientConfig, CLIENT_KINDS, ClientKind } from './clientConfigs';
import { ServerRunner } from '../mcp/serverRunner';

export const CONNECT_CLIENT_COMMAND = 'mcpResources.connectClient';

/**
 * "Connect a Client...": pick a client, see its configuration in an untitled document, and find
 * it on the clipboard. The configurations themselves are built in clientConfigs.ts.
 * `kind` lets tests (and keybindings) skip the QuickPick.
 */
export function registerConnectClient(runner: ServerRunner, extensionPath: string): vscode.Disposable {
	return vscode.commands.registerCommand(CONNECT_CLIENT_COMMAND, async (kind?: ClientKind) => {
		const folder = vscode.workspace.workspaceFolders?.[0];
		if (!folder || folder.uri.scheme !== 'file') {
			void vscode.window.showWarningMessage('Open a folder first: clients connect to the window that has their folder open.');
			return undefined;
		}
		const info = runner.connectionInfo;
		const ctx = {
			url: info?.url,
			token: info?.token,
			cliPath: path.join(extensionPath, 'dist', 'cli.js'),
			workspaceFolder: folder.uri.fsPath,
			remoteName: vscode.env.remoteName,
		};
		if (!kind || !CLIENT_KINDS.includes(kind)) {
			const items = CLIENT_KINDS.map(k => {
				const config = buildClientConfig(k, ctx);
				return { label: config.label, detail: config.detail, client: k };
			});
			const picked = await vscode.window.showQuickPick(items, {
				title: 'Connect a Client to MCP Workspace Resources',
				placeHolder: 'Which client? Its configuration opens in an editor and is copied.',
				matchOnDetail: true,
			});
			if (!picked) {
				return undefined;
			}
			kind = picked.client;
		}
		const config = buildClientConfig(kind, ctx);
		const document = await vscode.workspace.openTextDocument({ language: config.language, content: config.document });
		await vscode.window.showTextDocument(document, { preview: false });
		await vscode.env.clipboard.writeText(config.copy);
		const warning = info ? '' : ' The server is not running, so only the bridge configuration is shown.';
		void vscode.window.showInformationMessage(`${config.label} configuration copied to the clipboard.${warning}`);
		return config;
	});
}
