import * as vscode from 'vscode';
import { PickerNode } from '../../picker/pickerNodes';
import { PickerService } from '../../picker/pickerService';
import { parseServerConfigs, parseServerEntry, readsAsWorkspaceServer, WORKSPACE_SERVER_LABEL } from '../../picker/serverConfig';
import { PICKER_COMMANDS } from './pickerCommandIds';

/** Two rows named alike in the picker could not be told apart, and one is the window's own. */
const WORKSPACE_NAME_TAKEN = `"${WORKSPACE_SERVER_LABEL}" is this window's own server in the picker; choose another name`;

/** Add Server and Remove Server: they edit the setting mcpResources.servers, which the picker follows. */
export function registerServerSettingsCommands(service: PickerService): vscode.Disposable {
	/** `given` (an entry as the setting holds it) lets tests skip the questions. */
	const addServer = async (given?: Record<string, unknown>) => {
		const config = vscode.workspace.getConfiguration('mcpResources');
		// The user's own list: `get()` returns a folder's list in its place, and writing that
		// back would drop the user's entries and make the folder's run without being allowed.
		const user = config.inspect<unknown>('servers')?.globalValue;
		const mine = Array.isArray(user) ? user : [];
		const taken = new Set(parseServerConfigs(mine).servers.map(s => s.name));
		const entry = given ?? await askForEntry(taken);
		if (!entry) {
			return undefined;
		}
		// Checked as the picker will read it: an entry it would skip is not added.
		const parsed = parseServerEntry(entry, 'the new entry');
		if (typeof parsed === 'string' || taken.has(parsed.name) || readsAsWorkspaceServer(parsed.name)) {
			const problem = typeof parsed === 'string' ? parsed : taken.has(parsed.name) ? `the name "${parsed.name}" is already in mcpResources.servers; names must be unique` : WORKSPACE_NAME_TAKEN;
			void vscode.window.showErrorMessage(`The MCP server was not added: ${problem}`);
			return undefined;
		}
		await config.update('servers', [...mine, entry], vscode.ConfigurationTarget.Global);
		void vscode.window.showInformationMessage(`Added the MCP server "${parsed.name}" to the setting mcpResources.servers.`);
		return parsed.name;
	};

	const askForEntry = async (taken: ReadonlySet<string>): Promise<Record<string, unknown> | undefined> => {
		const kind = await vscode.window.showQuickPick([
			{ label: '$(globe) HTTP', description: 'a Streamable HTTP URL, optionally with headers', transport: 'http' as const },
			{ label: '$(terminal) Command (stdio)', description: 'a program that speaks MCP on stdin/stdout', transport: 'stdio' as const },
		], { title: 'Add MCP Server (1/3)', placeHolder: 'How is the server reached?' });
		if (!kind) {
			return undefined;
		}
		const name = await vscode.window.showInputBox({
			title: 'Add MCP Server (2/3)', prompt: 'A name for the server',
			validateInput: v => v.trim() === '' ? 'Give the server a name'
				: taken.has(v.trim()) ? `mcpResources.servers already has a server named "${v.trim()}"`
					: readsAsWorkspaceServer(v) ? WORKSPACE_NAME_TAKEN : undefined,
		});
		if (!name) {
			return undefined;
		}
		let entry: Record<string, unknown>;
		if (kind.transport === 'http') {
			const url = await vscode.window.showInputBox({
				title: 'Add MCP Server (3/3)', prompt: 'The server URL', placeHolder: 'http://127.0.0.1:3000/mcp',
				validateInput: v => { try { const u = new URL(v); return /^https?:$/.test(u.protocol) ? undefined : 'Use http:// or https://'; } catch { return 'Not a valid URL'; } },
			});
			if (!url) {
				return undefined;
			}
			const auth = await vscode.window.showInputBox({ title: 'Authorization header (optional)', prompt: 'e.g. "Bearer abc..."; leave empty for none', password: true });
			entry = { name: name.trim(), url, ...(auth ? { headers: { Authorization: auth } } : {}) };
		} else {
			const line = await vscode.window.showInputBox({
				title: 'Add MCP Server (3/3)', prompt: 'The command and its arguments', placeHolder: 'npx -y @modelcontextprotocol/server-everything',
				validateInput: v => v.trim() === '' ? 'Give a command' : undefined,
			});
			if (!line) {
				return undefined;
			}
			const [command, ...args] = splitCommandLine(line);
			entry = { name: name.trim(), command, args };
		}
		return entry;
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
			// Names are trimmed when read (" Docs " is listed as "Docs"): compare them the same way.
			const kept = value.filter(entry => !(entry && typeof entry === 'object' && String((entry as { name?: unknown }).name).trim() === name));
			if (kept.length !== value.length) {
				await config.update('servers', kept.length > 0 ? kept : undefined, target);
				removed = true;
			}
		}
		if (removed) {
			void vscode.window.showInformationMessage(`Removed the MCP server "${name}" from the setting mcpResources.servers.`);
		} else {
			void vscode.window.showWarningMessage(`The MCP server "${name}" is not in the user or workspace settings of mcpResources.servers, so nothing was removed. Remove it where it is written.`, 'Open Settings')
				.then(choice => choice && vscode.commands.executeCommand('workbench.action.openSettings', 'mcpResources.servers'));
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
