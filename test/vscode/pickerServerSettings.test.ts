// Add Server... and Remove Server... inside a real VS Code: they edit the setting
// mcpResources.servers, scope by scope, with folder settings present.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { EXTENSION_ID, ensureServer, waitFor } from './helpers';

const section = () => vscode.workspace.getConfiguration('mcpResources');
/** Nothing listens there: the picker never reaches these entries, and need not. */
const MINE = { name: 'Mine', url: 'http://127.0.0.1:9/mcp' };
const FOLDERS = { name: 'From the folder', command: 'node', args: ['-e', 'process.exit(1)'] };

describe('picker: Add Server and Remove Server', () => {
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

	it('Remove Server finds an entry whose name has spaces around it', async () => {
		await section().update('servers', [{ ...MINE, name: ' Mine ' }], vscode.ConfigurationTarget.Global);
		const picker = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.exports.picker;
		const row = await waitFor(() => picker.view.getChildren().find(n => n.serverId === 'config:Mine'), 'the row of "Mine"');
		await vscode.commands.executeCommand('mcpResources.removeServer', row);
		assert.equal(section().inspect('servers')?.globalValue, undefined, 'the user setting no longer lists it');
	});
});
