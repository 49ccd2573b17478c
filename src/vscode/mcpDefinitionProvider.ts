import * as vscode from 'vscode';
import { Logger } from '../common/logger';
import { bearerAuthorization } from '../mcp/http/authorization';
import { ConnectionInfo } from '../mcp/http/httpHost';
import { ServerRunner } from '../mcp/serverRunner';
import { VERSION } from '../version';

/** Must match `contributes.mcpServerDefinitionProviders[].id` in package.json. */
export const MCP_PROVIDER_ID = 'mcpResources.workspaceServer';
export const MCP_SERVER_LABEL = 'MCP Workspace Resources';

/**
 * Tells VS Code's MCP registry (Copilot Chat, "MCP: Browse Resources") about this window's
 * server: its URL and bearer token, and a change whenever the server restarts, moves port or
 * stops. Translation only: the runner decides when the server runs.
 */
export class WorkspaceServerDefinitionProvider implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
	private readonly changed = new vscode.EventEmitter<void>();
	readonly onDidChangeMcpServerDefinitions = this.changed.event;
	private readonly owned: { dispose(): void }[] = [];
	private published: string | undefined;
	private isRegistered = false;

	constructor(private readonly runner: ServerRunner, private readonly log: Logger, private readonly extensionId: string) {
		this.published = key(runner.connectionInfo);
		this.owned.push(this.changed, runner.onDidChangeState(state => {
			if (state.kind === 'starting') {
				return; // a restart comes back at the same address: only its outcome is news
			}
			const next = key(runner.connectionInfo);
			if (next !== this.published) {
				this.published = next;
				this.changed.fire();
			}
		}));
	}

	/** Whether VS Code accepted the registration (false on editors without the MCP API). */
	get registered(): boolean {
		return this.isRegistered;
	}

	/** Ties the registration's lifetime to this provider's. */
	own(registration: vscode.Disposable): void {
		this.isRegistered = true;
		this.owned.push(registration);
	}

	/**
	 * Makes VS Code's client open a new session with the restarted server, through the
	 * workbench's own MCP commands. The id is how VS Code names a provided server definition:
	 * the extension id in lower case, a slash, and the label.
	 */
	async reconnectEditorClient(): Promise<void> {
		const id = `${this.extensionId.toLowerCase()}/${MCP_SERVER_LABEL}`;
		try {
			await vscode.commands.executeCommand('workbench.mcp.stopServer', id);
			await vscode.commands.executeCommand('workbench.mcp.startServer', id);
		} catch (err) {
			this.log.warn(`could not reconnect VS Code's MCP client after the restart: ${String(err)}`);
		}
	}

	provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
		const info = this.runner.connectionInfo;
		return info ? [definition(info)] : [];
	}

	/** Called when VS Code starts the server: hand it the current URL and token (they may be newer than the listing). */
	async resolveMcpServerDefinition(server: vscode.McpHttpServerDefinition, token: vscode.CancellationToken): Promise<vscode.McpHttpServerDefinition | undefined> {
		let info = this.runner.connectionInfo;
		if (!info && this.runner.state.kind === 'starting') {
			info = await Promise.race([
				this.runner.whenRunning(),
				new Promise<undefined>(resolve => {
					const timer = setTimeout(() => resolve(undefined), 15_000);
					token.onCancellationRequested(() => {
						clearTimeout(timer);
						resolve(undefined);
					});
				}),
			]);
		}
		if (!info) {
			return undefined; // stopped (disabled, Restricted Mode, failed): nothing to start
		}
		server.uri = vscode.Uri.parse(info.url);
		server.headers = bearerAuthorization(info.token);
		return server;
	}

	dispose(): void {
		this.owned.splice(0).reverse().forEach(d => d.dispose());
	}
}

function definition(info: ConnectionInfo): vscode.McpHttpServerDefinition {
	return new vscode.McpHttpServerDefinition(MCP_SERVER_LABEL, vscode.Uri.parse(info.url), bearerAuthorization(info.token), VERSION);
}

function key(info: ConnectionInfo | undefined): string | undefined {
	return info ? `${info.url} ${info.token}` : undefined;
}

/** Registers the provider with VS Code's MCP registry; a no-op (logged) where the API is missing. */
export function registerMcpDefinitionProvider(runner: ServerRunner, log: Logger, extensionId: string): WorkspaceServerDefinitionProvider {
	const provider = new WorkspaceServerDefinitionProvider(runner, log, extensionId);
	if (typeof vscode.lm?.registerMcpServerDefinitionProvider !== 'function') {
		log.info('this editor has no MCP server registry (lm.registerMcpServerDefinitionProvider); connect clients with "Connect a Client..."');
		return provider;
	}
	try {
		provider.own(vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider));
	} catch (err) {
		log.error('could not register with the MCP server registry', err);
	}
	return provider;
}
