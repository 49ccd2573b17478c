import * as vscode from 'vscode';
import { FilesProvider } from '../core/files/filesProvider';
import { ServerRunner } from '../mcp/serverRunner';

/**
 * Decides when the server runs: only in a trusted workspace with `mcpResources.enabled`;
 * restarts on a port change, rewrites the lock file when folders change.
 */
export class ServerController implements vscode.Disposable {
	private readonly subscriptions: vscode.Disposable[] = [];

	constructor(private readonly runner: ServerRunner, private readonly files: FilesProvider) {
		this.subscriptions.push(
			vscode.workspace.onDidGrantWorkspaceTrust(() => void this.apply()),
			vscode.workspace.onDidChangeConfiguration(e => {
				if (e.affectsConfiguration('mcpResources.enabled')) {
					void this.apply();
				} else if (e.affectsConfiguration('mcpResources.port') && this.runner.state.kind === 'running') {
					void this.runner.restart();
				}
			}),
			vscode.workspace.onDidChangeWorkspaceFolders(() => void this.runner.refreshLockFile()),
		);
	}

	get blockedReason(): 'restricted' | 'disabled' | undefined {
		if (!vscode.workspace.isTrusted) {
			return 'restricted';
		}
		if (!vscode.workspace.getConfiguration('mcpResources').get<boolean>('enabled', true)) {
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
		await this.runner.restart();
	}

	async rotateToken(): Promise<void> {
		if (this.blockedReason) {
			await this.apply();
			return;
		}
		await this.runner.rotateToken();
	}

	dispose(): void {
		this.subscriptions.forEach(s => s.dispose());
	}
}
