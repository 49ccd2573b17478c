import * as vscode from 'vscode';
import { FilesProvider } from '../core/files/filesProvider';
import { ServerRunner } from '../mcp/serverRunner';
import { WorkspaceServerDefinitionProvider } from './mcpDefinitionProvider';
import { switchedOn, userValue } from './vsCodeSettings';

/**
 * Decides when the server runs: only in a trusted workspace with `mcpResources.enabled`;
 * restarts on a port change, rewrites the lock file when folders change.
 */
export class ServerController implements vscode.Disposable {
	private readonly subscriptions: vscode.Disposable[] = [];
	/** The port setting as the server uses it (the user's): a folder's value changes nothing. */
	private port = userValue('mcpResources', 'port', 0);

	constructor(
		private readonly runner: ServerRunner,
		private readonly files: FilesProvider,
		private readonly definitions: WorkspaceServerDefinitionProvider,
	) {
		this.subscriptions.push(
			vscode.workspace.onDidGrantWorkspaceTrust(() => void this.apply()),
			vscode.workspace.onDidChangeConfiguration(e => {
				if (e.affectsConfiguration('mcpResources.enabled')) {
					void this.apply();
				} else if (e.affectsConfiguration('mcpResources.port')) {
					const port = userValue('mcpResources', 'port', 0);
					if (port !== this.port) {
						this.port = port;
						if (this.runner.state.kind === 'running') {
							void this.restartKeepingEditorClient(() => this.runner.restart());
						}
					}
				}
			}),
			vscode.workspace.onDidChangeWorkspaceFolders(() => void this.runner.refreshLockFile()),
		);
	}

	get blockedReason(): 'restricted' | 'disabled' | undefined {
		if (!vscode.workspace.isTrusted) {
			return 'restricted';
		}
		// A folder's settings may turn the server off, never on against the user.
		if (!switchedOn('mcpResources', 'enabled')) {
			return 'disabled';
		}
		return undefined;
	}

	/** Starts or stops the server to match trust and settings. */
	async apply(): Promise<void> {
		const blocked = this.blockedReason;
		if (blocked) {
			await this.runner.stop(blocked);
			return;
		}
		// Indexing starts here, after activation returned, never on the activation path.
		this.files.start();
		await this.runner.start();
	}

	async restart(): Promise<void> {
		if (this.blockedReason) {
			await this.apply();
			return;
		}
		await this.restartKeepingEditorClient(() => this.runner.restart());
	}

	async rotateToken(): Promise<void> {
		if (this.blockedReason) {
			await this.apply();
			return;
		}
		await this.restartKeepingEditorClient(() => this.runner.rotateToken());
	}

	/**
	 * A restart ends every session. Other clients are told so (404) and start a new one; VS
	 * Code's own client instead stays "Running" without a session until something asks it for
	 * more, and an open resource stops hearing about changes. So when it was connected, it is
	 * restarted here through VS Code's MCP commands, and its watches subscribe again.
	 */
	private async restartKeepingEditorClient(restart: () => Promise<void>): Promise<void> {
		const editorClientConnected = this.runner.clientNames().includes(vscode.env.appName);
		await restart();
		if (editorClientConnected && this.runner.state.kind === 'running') {
			await this.definitions.reconnectEditorClient();
		}
	}

	dispose(): void {
		this.subscriptions.forEach(s => s.dispose());
	}
}
