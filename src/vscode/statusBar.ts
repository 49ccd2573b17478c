import * as vscode from 'vscode';
import { ServerRunner, ServerState } from '../mcp/serverRunner';
import { COMMANDS } from './commands';

/** One status bar item: server state, port and client count; a click offers the actions. */
export class ServerStatusBar implements vscode.Disposable {
	private readonly item = vscode.window.createStatusBarItem('mcpResources.status', vscode.StatusBarAlignment.Right, 100);
	private readonly subscription: vscode.Disposable;

	constructor(runner: ServerRunner) {
		this.item.name = 'MCP Resources';
		this.item.command = COMMANDS.showActions;
		this.render(runner.state);
		this.subscription = { dispose: runner.onDidChangeState(state => this.render(state)).dispose };
		this.item.show();
	}

	private render(state: ServerState): void {
		this.item.backgroundColor = undefined;
		switch (state.kind) {
			case 'running': {
				const clients = state.sessions === 1 ? '1 client' : `${state.sessions} clients`;
				this.item.text = `$(radio-tower) MCP :${state.info.port}${state.sessions > 0 ? ` · ${state.sessions}` : ''}`;
				this.item.tooltip = new vscode.MarkdownString(
					`**MCP Workspace Resources** is serving this workspace\n\n` +
					`- URL: \`${state.info.url}\`\n- ${clients} connected\n` +
					(state.lockFile ? `- Lock file: \`${state.lockFile}\`\n` : '') +
					`\nClick for actions.`);
				this.item.accessibilityInformation = { label: `MCP Resources server on port ${state.info.port}, ${clients}` };
				break;
			}
			case 'starting':
				this.item.text = '$(sync~spin) MCP';
				this.item.tooltip = 'MCP Workspace Resources: starting…';
				this.item.accessibilityInformation = { label: 'MCP Resources server starting' };
				break;
			case 'error':
				this.item.text = '$(error) MCP';
				this.item.tooltip = `MCP Workspace Resources: ${state.message}. Click to restart or see the log.`;
				this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
				this.item.accessibilityInformation = { label: `MCP Resources server error: ${state.message}` };
				break;
			case 'stopped': {
				const why = state.reason === 'restricted'
					? 'Restricted Mode: nothing is served until you trust this workspace.'
					: state.reason === 'disabled' ? 'Disabled by the setting mcpResources.enabled.' : 'Stopped.';
				this.item.text = state.reason === 'restricted' ? '$(shield) MCP' : '$(circle-slash) MCP';
				this.item.tooltip = `MCP Workspace Resources: ${why}`;
				this.item.accessibilityInformation = { label: `MCP Resources server stopped. ${why}` };
				break;
			}
		}
	}

	dispose(): void {
		this.subscription.dispose();
		this.item.dispose();
	}
}
