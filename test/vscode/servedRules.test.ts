import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { absPath, assertMcpError, closeAllEditors, RESOURCE_NOT_FOUND, resourceUri, TestClient, vscodeUri, waitFor } from './helpers';

const section = () => vscode.workspace.getConfiguration('mcpResources');
const SECRET = '.env';
const USER_SECRET = 'notes/vault.token';
const IGNORED = 'ignored.log'; // named by the fixture's .gitignore
const IGNORED_TS = 'build/broken.ts'; // build/ is ignored too
const IGNORED_MD = 'build/private-notes.md';

function write(rel: string, content: string): void {
	fs.mkdirSync(path.dirname(absPath(rel)), { recursive: true });
	fs.writeFileSync(absPath(rel), content);
}

describe('served-or-not rules in a real VS Code', () => {
	let client: TestClient;
	before(async () => {
		write(SECRET, 'API_KEY=from-the-folder\n');
		write(USER_SECRET, 'vault token\n');
		write(IGNORED, 'IGNORED LOG LINE\n');
		client = await TestClient.connect();
	});
	after(async () => {
		await closeAllEditors();
		for (const key of ['secrets', 'exclude', 'respectGitignore']) {
			await section().update(key, undefined, vscode.ConfigurationTarget.Workspace);
			await section().update(key, undefined, vscode.ConfigurationTarget.Global);
		}
		for (const rel of [SECRET, USER_SECRET, IGNORED, IGNORED_TS, IGNORED_MD]) {
			fs.rmSync(absPath(rel), { force: true });
		}
		fs.rmSync(absPath('build'), { recursive: true, force: true });
		await client?.close();
	});

	it('folder settings add patterns but cannot un-hide a secret, drop the user\'s patterns or turn .gitignore off', async () => {
		await section().update('secrets', ['*.token'], vscode.ConfigurationTarget.Global);
		await section().update('secrets', ['!.env', '!*.token'], vscode.ConfigurationTarget.Workspace);
		await section().update('respectGitignore', false, vscode.ConfigurationTarget.Workspace);
		// An exclusion from the same folder settings: once it applies, the rest has applied too.
		await section().update('exclude', ['notes/todo.txt'], vscode.ConfigurationTarget.Workspace);
		await waitFor(async () => !(await client.listedUris()).has(resourceUri('notes/todo.txt')), 'the folder\'s exclusion applies');

		const listed = await client.listedUris();
		for (const rel of [SECRET, USER_SECRET, IGNORED]) {
			assert.ok(!listed.has(resourceUri(rel)), `${rel} listed`);
			await assertMcpError(client.client.readResource({ uri: resourceUri(rel) }), RESOURCE_NOT_FOUND, `read of ${rel}`);
		}
		assert.ok(listed.has(resourceUri('notes/private.txt')), 'files the rules serve are still listed');
	});

	it('a diff tab with a secret on one side: the tab is listed, the secret is not named', async () => {
		await closeAllEditors();
		await vscode.commands.executeCommand('vscode.diff', vscodeUri(SECRET), vscodeUri('notes/private.txt'));
		const label = await waitFor(() => {
			const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
			return tab?.input instanceof vscode.TabInputTextDiff ? tab.label : undefined;
		}, 'the diff tab is open');
		assert.ok(label.includes(SECRET), `VS Code's own label names both files: ${label}`);
		const text = await client.readText('editor://tabs');
		assert.ok(!text.includes(SECRET), text);
		const tabs = (JSON.parse(text) as { tabs: { kind: string; file: string | null }[] }).tabs;
		assert.ok(tabs.some(t => t.kind === 'diff' && t.file === 'notes/private.txt'), text);
		await closeAllEditors();
	});

	it('tabs whose labels show what no rule judged: an untitled buffer (its first line), a preview (its file)', async () => {
		await closeAllEditors();
		write(IGNORED_MD, '# notes nobody should see\n');
		await vscode.commands.executeCommand('markdown.showPreview', vscodeUri(IGNORED_MD));
		const untitled = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'API_KEY=pasted-into-a-new-buffer\n' }), { preview: false });
		const labels = await waitFor(() => {
			const tabs = vscode.window.tabGroups.all.flatMap(g => g.tabs);
			const buffer = tabs.find(t => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'untitled');
			const preview = tabs.find(t => t.input instanceof vscode.TabInputWebview);
			return buffer && preview ? { buffer: buffer.label, preview: preview.label } : undefined;
		}, 'the untitled buffer and the preview are open');
		assert.ok(labels.buffer.includes('API_KEY'), `VS Code names an untitled buffer by its first line: ${labels.buffer}`);
		assert.ok(labels.preview.includes('private-notes.md'), `VS Code names a preview by its file: ${labels.preview}`);
		const text = await client.readText('editor://tabs');
		assert.ok(!text.includes('API_KEY') && !text.includes('private-notes'), text);
		const tabs = (JSON.parse(text) as { tabs: { kind: string }[] }).tabs;
		assert.deepEqual(tabs.map(t => t.kind).sort(), ['text', 'webview'], 'both tabs are listed, unnamed');
		// Reverted first (closeAllEditors reverts the active editor), so closing asks nothing.
		await vscode.window.showTextDocument(untitled.document);
		await closeAllEditors();
	});

	it('an open ignored file: neither its text nor its name nor its problems are served', async function () {
		this.timeout(240_000);
		await section().update('respectGitignore', undefined, vscode.ConfigurationTarget.Workspace);
		write(IGNORED_TS, 'export const n: number = "not a number";\n');
		await client.subscribe('diagnostics://workspace');

		const log = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscodeUri(IGNORED)));
		log.selection = new vscode.Selection(0, 0, 0, 7);
		const ts = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscodeUri(IGNORED_TS)), { preview: false });
		// VS Code itself reports the type error of the ignored file.
		await waitFor(() => vscode.languages.getDiagnostics(ts.document.uri).length > 0, 'VS Code reports the ignored file\'s problem', 120_000);
		await vscode.window.showTextDocument(log.document, { preview: false });
		await waitFor(() => vscode.window.activeTextEditor?.document.uri.fsPath === absPath(IGNORED), 'the ignored log is active');

		for (const uri of ['editor://active', 'editor://selection', 'editor://tabs']) {
			const text = await client.readText(uri);
			assert.ok(!text.includes('IGNORED LOG') && !text.includes('ignored.log') && !text.includes('broken.ts'), `${uri}: ${text}`);
		}
		assert.equal(JSON.parse(await client.readText('editor://active')).file, null);

		const workspace = await client.readText('diagnostics://workspace');
		assert.ok(!workspace.includes('broken.ts') && !workspace.includes('not a number'), workspace);
		assert.ok(![...await client.listedUris()].some(u => u.includes('broken.ts')), 'its problems are not listed');
		await assertMcpError(client.client.readResource({ uri: 'diagnostics://file/build/broken.ts' }), RESOURCE_NOT_FOUND, 'read of the ignored file\'s problems');
		await assertMcpError(client.client.subscribeResource({ uri: 'diagnostics://file/build/broken.ts' }), RESOURCE_NOT_FOUND, 'subscribe to the ignored file\'s problems');

		// Open, with problems, active: everything that ranks open files, and outlines, pass it over.
		await assertMcpError(client.client.readResource({ uri: 'outline://file/build/broken.ts' }), RESOURCE_NOT_FOUND, 'read of the ignored file\'s outline');
		const completed = await client.client.complete({ ref: { type: 'ref/resource', uri: 'outline://file/{+path}' }, argument: { name: 'path', value: '' } });
		assert.ok(!completed.completion.values.some(v => v.startsWith('build/') || v === IGNORED), completed.completion.values.join(', '));
		const relevant = await client.readText('context://relevant');
		assert.ok(!relevant.includes(IGNORED_TS) && !relevant.includes(IGNORED) && !relevant.includes('not a number'), relevant);
	});
});
