// The picker inside a real VS Code: its commands against this window's real server, read
// through the picker's own MCP client.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import type { PickerService, ServerEntry } from '../../src/picker/pickerService';
import type { PickerApi } from '../../src/vscode/picker/registerPicker';
import { unpatchedFetch } from '../../src/vscode/unpatchedFetch';
import { absPath, closeAllEditors, EXTENSION_ID, ensureServer, resourceUri, restoreFile, vscodeUri, waitFor } from './helpers';

const WORKSPACE = 'workspace';

async function pickerApi(): Promise<PickerApi> {
	await ensureServer();
	const api = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.exports;
	assert.ok(api.picker, 'the extension API exposes the picker');
	return api.picker;
}

async function picker(): Promise<PickerService> {
	return (await pickerApi()).service;
}

async function loadedWorkspace(service: PickerService) {
	const server = await waitFor(() => service.server(WORKSPACE), 'the "This workspace" server');
	await waitFor(async () => {
		await server.resources.load();
		return server.resources.resource(resourceUri('README.md'));
	}, 'README.md in the picker', 30_000);
	return server;
}

async function clipboardAfter(sentinel: string, action: () => Thenable<unknown>): Promise<string> {
	await vscode.env.clipboard.writeText(sentinel);
	await action();
	return waitFor(async () => {
		const text = await vscode.env.clipboard.readText();
		return text !== sentinel ? text : undefined;
	}, 'the clipboard to change');
}

/** Runs `body` with AI features turned off or on (user setting), restoring the setting after. */
async function withAiFeatures(enabled: boolean, body: () => Promise<void>): Promise<void> {
	const chat = vscode.workspace.getConfiguration('chat');
	const before = chat.inspect<boolean>('disableAIFeatures')?.globalValue;
	await chat.update('disableAIFeatures', !enabled, vscode.ConfigurationTarget.Global);
	try {
		await body();
	} finally {
		await chat.update('disableAIFeatures', before, vscode.ConfigurationTarget.Global);
	}
}

function gitStatus(server: ServerEntry) {
	return waitFor(() => [...server.resources.all()].find(n => n.resource.uri.startsWith('git:') && n.resource.uri.endsWith('/status')), 'the git status resource');
}

describe('picker', () => {
	afterEach(async () => {
		const service = await picker();
		service.selection.clear();
		await closeAllEditors();
	});

	it('contributes its view and commands', async () => {
		await picker();
		const all = await vscode.commands.getCommands(true);
		for (const id of ['pickResources', 'attachSelected', 'clearSelection', 'copyUri', 'refresh', 'addServer', 'removeServer', 'fillTemplate', 'openResource', 'retryServer', 'reviewFolderServers']) {
			assert.ok(all.includes(`mcpResources.${id}`), `mcpResources.${id} is registered`);
		}
		const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { views: Record<string, { id: string }[]> } };
		assert.deepEqual(pkg.contributes.views.mcpResources.map(v => v.id), ['mcpResources.picker']);
		await vscode.commands.executeCommand('mcpResources.picker.focus');
	});

	it('has Node\'s own fetch for its own server: the extension host keeps it beside the proxy-patched global one', () => {
		const original = unpatchedFetch();
		assert.ok(original, 'globalThis.__vscodeOriginalFetch is there');
		assert.notEqual(original, globalThis.fetch);
	});

	it('lists this workspace through MCP as a folder tree, page by page', async () => {
		const service = await picker();
		const server = await loadedWorkspace(service);
		await waitFor(() => server.resources.state.kind === 'complete', 'every page loaded', 30_000);
		const many = server.resources.folder(`${WORKSPACE}|d|many`);
		assert.ok(many, 'the generated many/ folder');
		assert.equal(many.count, 300);
		assert.ok(!server.resources.resource(resourceUri('.env')), 'secrets stay out of the picker too');
		const top = server.resources.children(server.resources.filesRoot).map(n => n.kind === 'folder' ? `${n.name}/` : n.kind === 'resource' ? n.label : n.kind);
		assert.ok(top.includes('src/') && top.includes('README.md'), top.join(', '));
		// A folder row's tooltip is also what a screen reader reads for it.
		const { view } = await pickerApi();
		const docs = server.resources.folder(`${WORKSPACE}|d|docs`)!;
		assert.equal(view.getTreeItem(docs).tooltip, 'docs/ — 1 resource');
		assert.equal(view.getTreeItem(many).tooltip, 'many/ — 300 resources');
	});

	it('filters the tree by name, 50 matches at a time with a "More matches…" row', async () => {
		const { service, view } = await pickerApi();
		const server = await loadedWorkspace(service);
		await waitFor(() => server.resources.state.kind === 'complete', 'every page loaded', 30_000);
		const serverNode = view.getChildren().find(n => n.serverId === WORKSPACE)!;
		const shown = () => view.getChildren(serverNode);
		const labels = () => shown().flatMap(n => n.kind === 'resource' ? [n.label] : []);
		try {
			// many/ holds file-000.txt … file-299.txt.
			view.setFilter('file-');
			assert.equal(labels().length, 50);
			assert.ok(labels().every(l => /^file-\d{3}\.txt$/.test(l)), labels().join(', '));
			const more = shown().find(n => n.kind === 'more');
			assert.ok(more?.kind === 'more', 'a "More matches…" row');
			assert.equal(view.getTreeItem(more).label, 'More matches… (250 more)');
			await vscode.commands.executeCommand('mcpResources.showMore', more);
			assert.equal(labels().length, 100);
			assert.equal(view.getTreeItem(shown().find(n => n.kind === 'more')!).label, 'More matches… (200 more)');

			view.setFilter('greet');
			assert.deepEqual(labels(), ['greet.ts']);
			assert.ok(!shown().some(n => n.kind === 'more'));
			view.setFilter('no-such-name-anywhere');
			assert.deepEqual(shown().map(n => n.kind === 'status' ? n.message : n.kind), ['No name matches', 'textMatches']);
		} finally {
			view.setFilter(undefined);
		}
		// Suggested (what matters now) heads the groups when the server ranks something.
		assert.ok(shown().some(n => n.kind === 'group'), 'the groups are back once the filter is cleared');
		assert.ok(shown().every(n => n.kind === 'group' || n.kind === 'suggested'), 'the groups again once the filter is cleared');
	});

	it('the filter searches file contents too: matched lines under "Text matches", counted in the view\'s message', async () => {
		const { service, view } = await pickerApi();
		await loadedWorkspace(service);
		const serverNode = view.getChildren().find(n => n.serverId === WORKSPACE)!;
		const group = () => view.getChildren(serverNode).find(n => n.kind === 'textMatches');
		try {
			// In docs/guide/intro.md's third line, and in no file's name.
			view.setFilter('Nested');
			await waitFor(() => /^Filter: "Nested" · Text matches: 1 match in 1 file$/.test(String(view.view.message)), `the count in the view's message (${String(view.view.message)})`, 15_000);
			const [line] = view.getChildren(group());
			assert.ok(line?.kind === 'line', 'a matched line under Text matches');
			const item = view.getTreeItem(line);
			assert.equal(item.label, 'docs/guide/intro.md:3');
			assert.equal(item.description, 'Nested two folders deep.');
			assert.equal(item.checkboxState, vscode.TreeItemCheckboxState.Unchecked);
			// A click opens the workspace file at the line.
			assert.equal(item.command?.command, 'vscode.open');
			assert.equal(String(item.command?.arguments?.[0]), vscodeUri('docs/guide/intro.md').toString());
			assert.equal((item.command?.arguments?.[1] as { selection: vscode.Range }).selection.start.line, 2);
			assert.equal(view.getTreeItem(group()!).label, 'Text matches');
		} finally {
			view.setFilter(undefined);
		}
		assert.equal(group(), undefined, 'no Text matches once the filter is cleared');
	});

	it('Attach Selected to the clipboard reads each resource through the client into a bundle', async () => {
		const service = await picker();
		const server = await loadedWorkspace(service);
		const readme = server.resources.resource(resourceUri('README.md'))!;
		const greet = await waitFor(() => server.resources.resource(resourceUri('src/greet.ts')), 'src/greet.ts');
		service.selection.update([{ serverId: WORKSPACE, resource: readme.resource }, { serverId: WORKSPACE, resource: greet.resource }]);
		const text = await clipboardAfter('before attach', () => vscode.commands.executeCommand('mcpResources.attachSelected', { target: 'clipboard' }));
		const expected = fs.readFileSync(absPath('src/greet.ts'), 'utf8');
		assert.ok(text.includes(`## ${resourceUri('README.md')}\n\n\`\`\`markdown\n`), text.slice(0, 300));
		assert.ok(text.includes(`## ${resourceUri('src/greet.ts')}\n\n\`\`\`typescript\n${expected}`), text.slice(0, 600));
	});

	it('Attach Selected to an editor opens the bundle as Markdown', async () => {
		const service = await picker();
		const server = await loadedWorkspace(service);
		service.selection.update([{ serverId: WORKSPACE, resource: server.resources.resource(resourceUri('README.md'))!.resource }]);
		await vscode.commands.executeCommand('mcpResources.attachSelected', { target: 'editor' });
		const editor = await waitFor(() => vscode.window.visibleTextEditors.find(e => e.document.isUntitled && e.document.languageId === 'markdown'), 'a Markdown editor');
		assert.ok(editor.document.getText().startsWith(`## ${resourceUri('README.md')}`), editor.document.getText().slice(0, 200));
	});

	it('Attach Selected to chat falls back to the clipboard, saying why, while AI features are off', async () => {
		const service = await picker();
		const server = await loadedWorkspace(service);
		await withAiFeatures(false, async () => {
			service.selection.update([{ serverId: WORKSPACE, resource: server.resources.resource(resourceUri('README.md'))!.resource }]);
			let result: { target: string; fellBackFrom?: string; fallbackReason?: string } | undefined;
			const text = await clipboardAfter('before chat', async () => {
				result = await vscode.commands.executeCommand('mcpResources.attachSelected', { target: 'chat' });
			});
			assert.equal(result?.target, 'clipboard');
			assert.equal(result?.fellBackFrom, 'chat');
			assert.match(result?.fallbackReason ?? '', /chat\.disableAIFeatures/);
			assert.ok(text.startsWith(`## ${resourceUri('README.md')}`), text.slice(0, 200));
		});
	});

	it('Attach Selected to chat hands the chat a workspace file as itself and other resources as a Markdown file', async () => {
		const service = await picker();
		const server = await loadedWorkspace(service);
		await withAiFeatures(true, async () => {
			const status = await gitStatus(server);
			service.selection.update([
				{ serverId: WORKSPACE, resource: server.resources.resource(resourceUri('README.md'))!.resource },
				{ serverId: WORKSPACE, resource: status.resource },
			]);
			const result = await vscode.commands.executeCommand<{ target: string; fellBackFrom?: string; resourceCount: number }>('mcpResources.attachSelected', { target: 'chat' });
			// The browser check (test/e2e) sees the two attachments in the chat input.
			assert.equal(result?.target, 'chat', JSON.stringify(result));
			assert.equal(result.fellBackFrom, undefined);
			assert.equal(result.resourceCount, 2);
		});
		await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
	});

	it('attaches to chat, the default, when mcpResources.attachTarget is none of chat, editor or clipboard', async () => {
		const service = await picker();
		const server = await loadedWorkspace(service);
		const settings = vscode.workspace.getConfiguration('mcpResources');
		await settings.update('attachTarget', 'clipbaord', vscode.ConfigurationTarget.Global);
		try {
			await withAiFeatures(true, async () => {
				service.selection.update([{ serverId: WORKSPACE, resource: server.resources.resource(resourceUri('README.md'))!.resource }]);
				const result = await vscode.commands.executeCommand<{ target: string; fellBackFrom?: string }>('mcpResources.attachSelected');
				assert.equal(result?.target, 'chat', JSON.stringify(result));
			});
		} finally {
			await settings.update('attachTarget', undefined, vscode.ConfigurationTarget.Global);
			await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
		}
	});

	it('drags workspace files as themselves and other resources as their read-only documents (text/uri-list)', async () => {
		const service = await picker();
		const server = await loadedWorkspace(service);
		const view = (await pickerApi()).view;
		const readme = server.resources.resource(resourceUri('README.md'))!;
		const status = await gitStatus(server);
		const transfer = new vscode.DataTransfer();
		view.handleDrag([readme, status], transfer);
		const uriList = await transfer.get('text/uri-list')!.asString();
		const [first, second] = uriList.split('\r\n').map(u => vscode.Uri.parse(u));
		assert.equal(first.toString(), vscodeUri('README.md').toString());
		assert.equal(second.scheme, 'mcp-workspace-resource');
		assert.equal(new URLSearchParams(second.query).get('uri'), status.resource.uri);
		assert.equal(await transfer.get('text/plain')!.asString(), `${readme.resource.uri}\n${status.resource.uri}`);
		// What a drop opens: the file, and a document with the resource's text.
		const doc = await vscode.workspace.openTextDocument(second);
		const read = await server.connection.read(status.resource.uri);
		assert.equal(doc.getText(), read[0].text);
		// VS Code also drags the items' resourceUri (editors and chat read it): the same file.
		assert.equal(view.getTreeItem(readme).resourceUri?.toString(), vscodeUri('README.md').toString());
	});

	it('marks a selected resource "changed" when its file changes, until it is attached', async () => {
		const service = await picker();
		const server = await loadedWorkspace(service);
		const view = (await pickerApi()).view;
		const rel = 'notes/todo.txt';
		const original = fs.readFileSync(absPath(rel), 'utf8');
		const node = await waitFor(() => server.resources.resource(resourceUri(rel)), rel);
		service.selection.update([{ serverId: WORKSPACE, resource: node.resource }]);
		assert.doesNotMatch(String(view.getTreeItem(node).description), /changed/);
		try {
			await waitFor(() => server.connection.subscribedUris.includes(resourceUri(rel)), 'the selection is subscribed');
			await restoreFile(rel, `changed while selected ${Date.now()}\n`);
			await waitFor(() => /● changed/.test(String(view.getTreeItem(node).description)), 'the "● changed" mark', 15_000);
			await clipboardAfter('before attach', () => vscode.commands.executeCommand('mcpResources.attachSelected', { target: 'clipboard' }));
			assert.doesNotMatch(String(view.getTreeItem(node).description), /changed/, 'attaching resets the mark');
		} finally {
			await restoreFile(rel, original);
		}
	});

	it('Open Resource shows a read-only mcp-workspace-resource document that follows the file', async () => {
		const service = await picker();
		await loadedWorkspace(service);
		const rel = 'notes/todo.txt';
		const original = fs.readFileSync(absPath(rel), 'utf8');
		try {
			const doc = await vscode.commands.executeCommand<vscode.TextDocument>('mcpResources.openResource', { serverId: WORKSPACE, uri: resourceUri(rel) });
			assert.equal(doc.uri.scheme, 'mcp-workspace-resource');
			assert.equal(doc.getText(), original);
			const server = service.server(WORKSPACE)!;
			await waitFor(() => server.connection.subscribedUris.includes(resourceUri(rel)), 'the open document is subscribed');
			const changed = `changed by the picker test ${Date.now()}\n`;
			await restoreFile(rel, changed);
			await waitFor(() => doc.getText() === changed, 'the document to show the new content', 15_000);
		} finally {
			await restoreFile(rel, original);
		}
	});

	it('Copy URI and Clear Selection', async () => {
		const service = await picker();
		const server = await loadedWorkspace(service);
		const node = server.resources.resource(resourceUri('README.md'))!;
		const text = await clipboardAfter('before copy', () => vscode.commands.executeCommand('mcpResources.copyUri', node));
		assert.equal(text, resourceUri('README.md'));
		service.selection.update([{ serverId: WORKSPACE, resource: node.resource }]);
		assert.equal(service.selection.size, 1);
		await vscode.commands.executeCommand('mcpResources.clearSelection');
		assert.equal(service.selection.size, 0);
	});

	it('browses a stdio server from the user\'s mcpResources.servers next to this workspace', async () => {
		const service = await picker();
		const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
		const config = vscode.workspace.getConfiguration('mcpResources');
		await config.update('servers', [{ name: 'Headless docs', command: process.execPath, args: [cli, 'serve', '--root', absPath('docs'), '--stdio', '--no-cache'] }], vscode.ConfigurationTarget.Global);
		try {
			const other = await waitFor(() => service.server('config:Headless docs'), 'the configured server');
			await other.resources.load();
			const intro = other.resources.resource(resourceUri('docs/guide/intro.md'));
			assert.ok(intro, `intro.md listed by the stdio server (state ${JSON.stringify(other.connection.state)})`);
			assert.equal(intro.path, 'guide/intro.md');
			const hits = service.search('intro', 10).hits.map(h => `${h.server.id}:${h.node.path}`);
			assert.ok(hits.includes('config:Headless docs:guide/intro.md') && hits.includes('workspace:docs/guide/intro.md'), hits.join(', '));
			// Remove Server (the server's context menu) takes the entry out of the setting it is in.
			const { view } = await pickerApi();
			const node = view.getChildren().find(n => n.serverId === 'config:Headless docs');
			assert.equal(view.getTreeItem(node!).contextValue, 'server-configured');
			await vscode.commands.executeCommand('mcpResources.removeServer', node);
			assert.equal(config.inspect('servers')?.globalValue, undefined, 'the user setting no longer lists it');
		} finally {
			await config.update('servers', undefined, vscode.ConfigurationTarget.Global);
		}
		await waitFor(() => !service.server('config:Headless docs'), 'the server removed with its setting');
	});

	it('holds a server from this folder\'s settings as a row, with no connection, until the user allows it', async () => {
		const { service, view } = await pickerApi();
		// Another view in the sidebar: the picker asks (a modal) only while it is visible, and
		// nobody answers a modal here. The browser checks (npm run test:e2e) click Allow.
		await vscode.commands.executeCommand('workbench.view.explorer');
		await waitFor(() => !view.view.visible, 'the picker view hidden');
		const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
		const config = vscode.workspace.getConfiguration('mcpResources');
		await config.update('servers', [{ name: 'Folder docs', command: process.execPath, args: [cli, 'serve', '--root', absPath('docs'), '--stdio', '--no-cache'] }], vscode.ConfigurationTarget.Workspace);
		try {
			const held = await waitFor(() => service.heldServers().find(h => h.config.name === 'Folder docs'), 'the folder\'s entry held');
			assert.equal(held.consent, undefined);
			assert.equal(service.server('config:Folder docs'), undefined, 'no connection for a held entry');
			const row = view.getChildren().find(n => n.kind === 'held');
			assert.ok(row, 'a row for the held entry');
			const item = view.getTreeItem(row);
			assert.equal(item.label, 'Folder docs');
			assert.match(String(item.description), /^not started: from this folder's settings — click to review$/);
			assert.equal(item.command?.command, 'mcpResources.reviewFolderServers');
		} finally {
			await config.update('servers', undefined, vscode.ConfigurationTarget.Workspace);
		}
		await waitFor(() => service.heldServers().length === 0, 'the row gone with its setting');
		await vscode.commands.executeCommand('mcpResources.picker.focus');
	});

	it('reconnects with the new token after Rotate Token', async () => {
		const service = await picker();
		const server = await loadedWorkspace(service);
		const before = (await ensureServer()).token;
		await vscode.commands.executeCommand('mcpResources.rotateToken');
		await waitFor(async () => (await ensureServer()).token !== before, 'a new token');
		await waitFor(async () => {
			if (server.connection.state.kind !== 'connected') {
				return false;
			}
			const contents = await server.connection.read(resourceUri('README.md')).catch(() => undefined);
			return contents?.[0]?.text !== undefined;
		}, 'the picker reads through the restarted server', 20_000);
	});
});
