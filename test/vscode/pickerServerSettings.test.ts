// The servers of mcpResources.servers inside a real VS Code: Add Server... and Remove Server...
// edit the setting scope by scope, with folder settings present; a failing server's row.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { EXTENSION_ID, ensureServer, freePort, waitFor } from './helpers';

const section = () => vscode.workspace.getConfiguration('mcpResources');
/** Nothing listens there: the picker never reaches these entries, and need not. */
const MINE = { name: 'Mine', url: 'http://127.0.0.1:9/mcp' };
const FOLDERS = { name: 'From the folder', command: 'node', args: ['-e', 'process.exit(1)'] };

describe('picker: the servers of mcpResources.servers', () => {
	before(async () => {
		await ensureServer();
		// Another view in the sidebar: the picker asks about folder entries (a modal) only
		// while it is visible, and nobody answers a modal here.
		const picker = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.exports.picker;
		await vscode.commands.executeCommand('workbench.view.explorer');
		await waitFor(() => !picker.view.view.visible, 'the picker view hidden');
	});

	afterEach(async () => {
		await section().update('servers', undefined, vscode.ConfigurationTarget.Workspace);
		await section().update('servers', undefined, vscode.ConfigurationTarget.Global);
	});

	it('Add Server adds to the user\'s own entries: the folder\'s entries are not copied into them, and yours stay', async () => {
		await section().update('servers', [MINE], vscode.ConfigurationTarget.Global);
		await section().update('servers', [FOLDERS], vscode.ConfigurationTarget.Workspace);
		const added = { name: 'Added', url: 'http://127.0.0.1:10/mcp' };
		await vscode.commands.executeCommand('mcpResources.addServer', added);
		// A folder entry in the user's settings would run without asking, in every window.
		assert.deepEqual(section().inspect('servers')?.globalValue, [MINE, added]);
		assert.deepEqual(section().inspect('servers')?.workspaceValue, [FOLDERS], 'the folder\'s own setting is left as it was');
	});

	it('Add Server refuses a name the user\'s entries already use (the new entry would be skipped)', async () => {
		await section().update('servers', [MINE], vscode.ConfigurationTarget.Global);
		const added = await vscode.commands.executeCommand('mcpResources.addServer', { name: ' Mine ', command: 'node' });
		assert.equal(added, undefined, 'nothing added');
		assert.deepEqual(section().inspect('servers')?.globalValue, [MINE]);
	});

	it('a server named "This workspace" cannot pass for this window\'s own: Add Server refuses the name, a written one is marked', async () => {
		const refused = await vscode.commands.executeCommand('mcpResources.addServer', { name: ' this  WORKSPACE ', url: 'http://127.0.0.1:11/mcp' });
		assert.equal(refused, undefined, 'nothing added');
		assert.equal(section().inspect('servers')?.globalValue, undefined);
		// Written by hand (or by a folder): kept, and its row says where it comes from.
		await section().update('servers', [{ ...MINE, name: 'This workspace' }], vscode.ConfigurationTarget.Global);
		const { view } = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.exports.picker;
		const label = (n: ReturnType<typeof view.getChildren>[number]) => {
			const l = view.getTreeItem(n).label;
			return typeof l === 'string' ? l : l?.label;
		};
		const labels = await waitFor(() => {
			const rows = view.getChildren().filter(n => n.kind === 'server');
			return rows.some(n => n.serverId === 'config:This workspace') && rows.some(n => n.serverId === 'workspace') ? rows.map(label) : undefined;
		}, 'both rows listed');
		assert.ok(labels.includes('This workspace'), labels.join(' | '));
		assert.equal(new Set(labels).size, labels.length, `every row's label differs: ${labels.join(' | ')}`);
		assert.ok(labels.includes('This workspace (mcpResources.servers)'), labels.join(' | '));
	});

	it('a configured server that fails shows why in its row\'s tooltip, beside where it is', async () => {
		const port = await freePort();
		await section().update('servers', [{ name: 'Down', url: `http://127.0.0.1:${port}/mcp` }], vscode.ConfigurationTarget.Global);
		const { service, view } = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.exports.picker;
		const down = await waitFor(() => service.server('config:Down'), 'the configured server');
		void down.resources.load().catch(() => undefined);
		await waitFor(() => down.connection.state.kind === 'error', 'the connection failed', 20_000);
		const row = view.getChildren().find(n => n.kind === 'server' && n.serverId === 'config:Down')!;
		const tooltip = String(view.getTreeItem(row).tooltip);
		assert.match(tooltip, /connection refused/, tooltip);
		assert.match(tooltip, new RegExp(`127\\.0\\.0\\.1:${port}`), tooltip);
	});

	it('with the server turned off and a server of the user\'s listed, the view says why "This workspace" is missing', async () => {
		const { view } = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.exports.picker;
		await section().update('servers', [MINE], vscode.ConfigurationTarget.Global);
		await section().update('enabled', false, vscode.ConfigurationTarget.Global);
		try {
			// The welcome view explains only an empty tree: here the user's server is listed.
			await waitFor(() => view.getChildren().some(n => n.serverId === 'config:Mine') && !view.getChildren().some(n => n.serverId === 'workspace'), 'only the user\'s server listed');
			await waitFor(() => /This workspace.*mcpResources\.enabled/.test(String(view.view.message ?? '')), `a note on the view (message: ${String(view.view.message)})`);
		} finally {
			await section().update('enabled', undefined, vscode.ConfigurationTarget.Global);
		}
		await ensureServer();
		await waitFor(() => view.view.message === undefined, 'the note gone once the server runs');
	});

	it('Remove Server finds an entry whose name has spaces around it', async () => {
		await section().update('servers', [{ ...MINE, name: ' Mine ' }], vscode.ConfigurationTarget.Global);
		const picker = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.exports.picker;
		const row = await waitFor(() => picker.view.getChildren().find(n => n.serverId === 'config:Mine'), 'the row of "Mine"');
		await vscode.commands.executeCommand('mcpResources.removeServer', row);
		assert.equal(section().inspect('servers')?.globalValue, undefined, 'the user setting no longer lists it');
	});
});

