import * as vscode from 'vscode';
import { bearerAuthorization } from '../mcp/http/authorization';
import { ServerRunner, ServerState } from '../mcp/serverRunner';
import { OutputLogger } from './outputLogger';
import { ServerController } from './serverController';

export const COMMANDS = {
	restartServer: 'mcpResources.restartServer',
	rotateToken: 'mcpResources.rotateToken',
	copyConnectionInfo: 'mcpResources.copyConnectionInfo',
	showLog: 'mcpResources.showLog',
	showActions: 'mcpResources.showActions',
} as const;

/** The palette commands and the status bar's action menu. */
export function registerCommands(runner: ServerRunner, controller: ServerController, log: OutputLogger): vscode.Disposable {
	/** Resolves with the message it showed (tests read it). */
	const restart = async (rotate = false): Promise<string | undefined> => {
		const before = runner.connectionInfo;
		await (rotate ? controller.rotateToken() : controller.restart());
		const state = runner.state;
		if (state.kind === 'running') {
			const moved = before && before.port !== state.info.port;
			const message = rotate
				? 'MCP Resources server restarted with a new token. Clients configured with the old one must be given the new one (Copy Connection Info); the bridge and VS Code follow by themselves.'
				: moved
					? `MCP Resources server restarted on port ${state.info.port} (port ${before.port} was taken). Clients configured with the URL need the new one.`
					: `MCP Resources server restarted on port ${state.info.port}, same token: connected clients reconnect by themselves.`;
			void vscode.window.showInformationMessage(message);
			return message;
		}
		return showNotRunning(state);
	};

	/** Says why the server is not running and what to do about it; resolves with the message. */
	const showNotRunning = (state: ServerState, what = ''): string | undefined => {
		if (state.kind === 'stopped' && state.reason === 'restricted') {
			const message = `${what}MCP Resources serves nothing in Restricted Mode. Trust this workspace to start the server.`;
			void vscode.window.showWarningMessage(message);
			return message;
		}
		if (state.kind === 'stopped' && state.reason === 'disabled') {
			const message = `${what}The MCP Resources server is turned off (setting mcpResources.enabled is false in your user, workspace or folder settings), so it was not started.`;
			void vscode.window.showWarningMessage(message, 'Open Settings')
				.then(choice => choice && vscode.commands.executeCommand('workbench.action.openSettings', 'mcpResources.enabled'));
			return message;
		}
		if (state.kind === 'error') {
			const message = `${what}MCP Resources: ${state.message}. See the log for details.`;
			void vscode.window.showErrorMessage(message, 'Show Log')
				.then(choice => choice && log.channel.show());
			return message;
		}
		if (state.kind !== 'running') {
			const message = `${what}The MCP Resources server is ${state.kind === 'starting' ? 'still starting: try again in a moment' : 'stopped: restart it from the status bar'}.`;
			void vscode.window.showWarningMessage(message);
			return message;
		}
		return undefined;
	};

	/** Resolves with the warning it showed when there was nothing to copy (tests read it). */
	const copyConnectionInfo = async (): Promise<string | undefined> => {
		const info = runner.connectionInfo;
		if (!info) {
			return showNotRunning(runner.state, 'Nothing to copy: ');
		}
		// The shape of an HTTP server entry in VS Code's mcp.json, Cursor and Claude Code.
		const config = { type: 'http', url: info.url, headers: bearerAuthorization(info.token) };
		await vscode.env.clipboard.writeText(JSON.stringify(config, null, 2));
		void vscode.window.showInformationMessage('MCP connection info copied: the URL and the bearer token. Keep the token private.');
		return undefined;
	};

	const showLog = () => log.channel.show();

	const showActions = async () => {
		const items: (vscode.QuickPickItem & { run: () => unknown })[] = [
			{ label: '$(debug-restart) Restart Server', description: 'same address and token', run: () => restart() },
			{ label: '$(key) Rotate Token', description: 'restart with a new token', run: () => restart(true) },
			{ label: '$(copy) Copy Connection Info', description: 'URL and bearer token as JSON', run: copyConnectionInfo },
			{ label: '$(plug) Connect a Client...', description: 'Claude Desktop, Claude Code, Cursor, mcp.json', run: () => vscode.commands.executeCommand('mcpResources.connectClient') },
			{ label: '$(output) Show Log', run: showLog },
			{ label: '$(gear) Open Settings', run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'mcpResources') },
		];
		const picked = await vscode.window.showQuickPick(items, { title: 'MCP Resources', placeHolder: 'Choose an action' });
		await picked?.run();
	};

	const disposables = [
		vscode.commands.registerCommand(COMMANDS.restartServer, () => restart()),
		vscode.commands.registerCommand(COMMANDS.rotateToken, () => restart(true)),
		vscode.commands.registerCommand(COMMANDS.copyConnectionInfo, copyConnectionInfo),
		vscode.commands.registerCommand(COMMANDS.showLog, showLog),
		vscode.commands.registerCommand(COMMANDS.showActions, showActions),
	];
	return { dispose: () => disposables.forEach(d => d.dispose()) };
}
