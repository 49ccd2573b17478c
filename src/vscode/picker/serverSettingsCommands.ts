import * as vscode from 'vscode';
import { PickerNode } from '../../picker/pickerNodes';
import { PickerService } from '../../picker/pickerService';
import { PICKER_COMMANDS } from './pickerCommandIds';

/** Add Server and Remove Server: they edit the setting mcpResources.servers, which the picker follows. */
export function registerServerSettingsCommands(service: PickerService): vscode.Disposable {
	const addServer = async () => {
		const kind = await vscode.window.showQuickPick([
			{ label: '$(globe) HTTP', description: 'a Streamable HTTP URL, optionally with headers', transport: 'http' as const },
			{ label: '$(terminal) Command (stdio)', description: 'a program that speaks MCP on stdin/stdout', transport: 'stdio' as const },
		], { title: 'Add MCP Server (1/3)', placeHolder: 'How is the server reached?' });
		if (!kind) {
			return;
		}
		const name = await vscode.window.showInputBox({
			title: 'Add MCP Server (2/3)', prompt: 'A name for the server',
			validateInput: v => v.trim() === '' ? 'Give the server a name' : undefined,
		});
		if (!name) {
			return;
		}
		let entry: Record<string, unknown>;
		if (kind.transport === 'http') {
			const url = await vscode.window.showInputBox({
				title: 'Add MCP Server (3/3)', prompt: 'The server URL', placeHolder: 'http://127.0.0.1:3000/mcp',
				validateInput: v => { try { const u = new URL(v); return /^https?:$/.test(u.protocol) ? undefined : 'Use http:// or https://'; } catch { return 'Not a valid URL'; } },
			});
			if (!url) {
				return;
			}
			const auth = await vscode.window.showInputBox({ title: 'Authorization header (optional)', prompt: 'e.g. "Bearer abc..."; leave empty for none', password: true });
			entry = { name: name.trim(), url, ...(auth ? { headers: { Authorization: auth } } : {}) };
		} else {
			const line = await vscode.window.showInputBox({
				title: 'Add MCP Server (3/3)', prompt: 'The command and its arguments', placeHolder: 'npx -y @modelcontextprotocol/server-everything',
				validateInput: v => v.trim() === '' ? 'Give a command' : undefined,
			});
			if (!line) {
				return;
			}
			const [command, ...args] = splitCommandLine(line);
			entry = { name: name.trim(), command, args };
		}
		const config = vscode.workspace.getConfiguration('mcpResources');
		const existing = config.get<unknown[]>('servers', []);
		await config.update('servers', [...existing, entry], vscode.ConfigurationTarget.Global);
		void vscode.window.showInformationMessage(`Added the MCP server "${name.trim()}" to the setting mcpResources.servers.`);
	};

	const removeServer = async (node?: PickerNode) => {
		let name = node ? service.server(node.serverId)?.config?.name : undefined;
		if (!name) {
			const configured = service.servers().flatMap(s => s.config ? [{ label: s.config.name, description: s.config.kind === 'http' ? s.config.url : s.config.command }] : []);
			if (configured.length === 0) {
				void vscode.window.showInformationMessage('No server is configured in mcpResources.servers. "This workspace" is this window\'s own server (setting mcpResources.enabled).');
				return;
			}
			name = (await vscode.window.showQuickPick(configured, { title: 'Remove MCP Server', placeHolder: 'Which server to remove from mcpResources.servers' }))?.label;
		}
		if (!name) {
			return;
		}
		// The entry may live in user, workspace or folder settings: remove it wherever it is.
		const config = vscode.workspace.getConfiguration('mcpResources');
		const inspected = config.inspect<unknown[]>('servers');
		const targets: [unknown[] | undefined, vscode.ConfigurationTarget][] = [
			[inspected?.globalValue, vscode.ConfigurationTarget.Global],
			[inspected?.workspaceValue, vscode.ConfigurationTarget.Workspace],
			[inspected?.workspaceFolderValue, vscode.ConfigurationTarget.WorkspaceFolder],
		];
		let removed = false;
		for (const [value, target] of targets) {
			if (!Array.isArray(value)) {
				continue;
			}
			const kept = value.filter(entry => !(entry && typeof entry === 'object' && (entry as { name?: unknown }).name === name));
			if (kept.length !== value.length) {
				await config.update('servers', kept.length > 0 ? kept : undefined, target);
				removed = true;
			}
		}
		if (removed) {
			void vscode.window.showInformationMessage(`Removed the MCP server "${name}" from the setting mcpResources.servers.`);
		}
	};
	const disposables = [
		vscode.commands.registerCommand(PICKER_COMMANDS.addServer, addServer),
		vscode.commands.registerCommand(PICKER_COMMANDS.removeServer, removeServer),
	];
	return { dispose: () => disposables.forEach(d => d.dispose()) };
}

/** Splits a command line on spaces, keeping "quoted parts" together. */
export function splitCommandLine(line: string): string[] {
	return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(m => m[1] ?? m[2] ?? m[3]);
}
