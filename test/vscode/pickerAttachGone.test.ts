// Attaching a selection whose file was deleted after it was selected: every target says so,
// and chat is not handed a file that no longer exists as if it were there.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import type { AttachResult } from '../../src/vscode/picker/attach';
import { absPath, closeAllEditors, EXTENSION_ID, ensureServer, resourceUri, waitFor } from './helpers';

const GONE = 'notes/gone-after-selecting.txt';

describe('picker: a selected file deleted before it is attached', () => {
	afterEach(async () => {
		vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.exports.picker.service.selection.clear();
		fs.rmSync(absPath(GONE), { force: true });
		await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', undefined, vscode.ConfigurationTarget.Global);
		await closeAllEditors();
		await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
	});

	async function selectThenDelete(): Promise<void> {
		await ensureServer();
		const { service } = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.exports.picker;
		const server = await waitFor(() => service.server('workspace'), 'the "This workspace" server');
		fs.writeFileSync(absPath(GONE), 'selected, then deleted\n');
		const node = await waitFor(async () => {
			await server.resources.load();
			return server.resources.resource(resourceUri(GONE));
		}, 'the new file in the picker', 20_000);
		service.selection.update([
			{ serverId: 'workspace', resource: node.resource },
			{ serverId: 'workspace', resource: server.resources.resource(resourceUri('README.md'))!.resource },
		]);
		fs.rmSync(absPath(GONE));
	}

	for (const target of ['chat', 'clipboard', 'editor'] as const) {
		it(`Attach Selected to ${target} names what could not be read`, async () => {
			// Chat needs AI features on; the other targets do not care.
			await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
			await selectThenDelete();
			const result = await vscode.commands.executeCommand<AttachResult | undefined>('mcpResources.attachSelected', { target });
			assert.equal(result?.target, target, JSON.stringify(result));
			assert.equal(result.resourceCount, 2);
			assert.deepEqual(result.unreadable, [resourceUri(GONE)], JSON.stringify(result));
		});
	}
});
