import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, EXTENSION_ID, waitFor } from './helpers';

interface Contributes {
	viewsWelcome: { contents: string }[];
	walkthroughs: { id: string; steps: { description: string }[] }[];
}

/** The command ids of a text's `command:` links. */
function linkedCommands(text: string): string[] {
	return [...text.matchAll(/\]\(command:([\w.-]+)/g)].map(m => m[1]);
}

// The first run: the walkthrough VS Code opens after an install, and the picker's welcome views.
// package.json's links are checked in plain Node (test/unit/manifest.test.ts); here, against the
// commands a real VS Code has, its own included.
describe('walkthrough and welcome views', () => {
	const contributes = (): Contributes => (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: Contributes }).contributes;

	it('link only to commands this VS Code has registered', async () => {
		await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
		const registered = new Set(await vscode.commands.getCommands(true));
		const texts = [...contributes().walkthroughs.flatMap(w => w.steps.map(s => s.description)), ...contributes().viewsWelcome.map(w => w.contents)];
		const linked = [...new Set(texts.flatMap(linkedCommands))];
		assert.ok(linked.length >= 5, linked.join(', '));
		assert.deepEqual(linked.filter(id => !registered.has(id)), []);
	});

	it('the walkthrough opens in an editor of its own', async () => {
		await closeAllEditors();
		const id = `${EXTENSION_ID}#${contributes().walkthroughs[0].id}`;
		await vscode.commands.executeCommand('workbench.action.openWalkthrough', id, false);
		// VS Code's walkthroughs open in its Welcome editor.
		const tab = await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab, 'an active tab');
		assert.equal(tab.label, 'Welcome');
		await closeAllEditors();
	});
});
