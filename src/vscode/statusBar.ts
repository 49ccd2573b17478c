import * as vscode from 'vscode';
import { Event } from '../common/event';
import { IndexProgress } from '../core/search/ports';
import { ServerRunner, ServerState } from '../mcp/serverRunner';
import { COMMANDS } from './commands';

/**
 * One status bar item: server state, port and client count, and how far the search index is
 * while it reads the workspace; a click offers the actions.
 */
export class ServerStatusBar implements vscode.Disposable {
	private readonly item = vscode.window.createStatusBarItem('mcpResources.status', vscode.StatusBarAlignment.Right, 100);
	private readonly subscriptions: { dispose(): void }[] = [];
	private state: ServerState;
	private indexing: IndexProgress | undefined;

	constructor(runner: ServerRunner, searchIndexProgress: Event<IndexProgress | undefined>) {
		this.item.name = 'MCP Resources';
		this.item.command = COMMANDS.showActions;
		this.state = runner.state;
		this.render();
		this.subscriptions.push(runner.onDidChangeState(state => {
			this.state = state;
			this.render();
		}));
		this.subscriptions.push(searchIndexProgress(progress => {
			this.indexing = progress;
			this.render();
		}));
		this.item.show();
	}

	private render(): void {
		const state = this.state;
		this.item.backgroundColor = undefined;
		switch (state.kind) {
			case 'running': {
				const clients = state.sessions === 1 ? '1 client' : `${state.sessions} clients`;
				const indexing = this.indexing && indexingText(this.indexing);
				this.item.text = `$(radio-tower) MCP :${state.info.port}${state.sessions > 0 ? ` · ${state.sessions}` : ''}${indexing ? ` · $(sync~spin) ${indexing.short}` : ''}`;
				this.item.tooltip = new vscode.MarkdownString(
					`**MCP Workspace Resources** is serving this workspace\n\n` +
					`- URL: \`${state.info.url}\`\n- ${clients} connected\n` +
					(indexing ? `- ${indexing.long}\n` : '') +
					(state.lockFile ? `- Lock file: \`${state.lockFile}\`\n` : '') +
					`\nClick for actions.`);
				this.item.accessibilityInformation = { label: `MCP Resources server on port ${state.info.port}, ${clients}${indexing ? `, ${indexing.long}` : ''}` };
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
		this.subscriptions.forEach(s => s.dispose());
		this.item.dispose();
	}
}

/** The index's progress, short for the item and in words for its tooltip and screen readers. */
export function indexingText(progress: IndexProgress): { short: string; long: string } {
	const percent = progress.total > 0 ? Math.floor(progress.indexed / progress.total * 100) : 0;
	return {
		short: `${percent}%`,
		long: `Search index: ${progress.indexed.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')} files read; searches answer meanwhile`,
	};
}
