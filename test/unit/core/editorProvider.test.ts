import * as assert from 'node:assert/strict';
import { EditorProvider } from '../../../src/core/editor/editorProvider';
import { ProviderRegistry } from '../../../src/core/registry';
import { StaticFolders } from '../../../src/node/staticSources';
import { FakeEditor, sel } from '../../fakes/fakeEditor';
import { readJson } from '../../helpers/readJson';
import { connectInMemory, ConnectedClient, errorOf, fastTracker } from '../../helpers/harness';
import { scopeOver } from '../../helpers/workspaceScope';

const WS = '/ws-editor';

describe('editor provider through an MCP client', () => {
	let editor: FakeEditor;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;

	beforeEach(async () => {
		editor = new FakeEditor();
		const { scope } = scopeOver(new StaticFolders([WS]));
		registry = new ProviderRegistry([new EditorProvider(editor, scope, { throttleMs: 100 })], fastTracker);
		conn = await connectInMemory(registry);
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
	});

	const read = (uri: string) => readJson(conn, uri);

	it('lists editor://active, editor://selection and editor://tabs', async () => {
		const { resources } = await conn.client.listResources();
		assert.deepEqual(resources.map(r => r.uri), ['editor://active', 'editor://selection', 'editor://tabs']);
		assert.deepEqual((await conn.client.listResourceTemplates()).resourceTemplates, []);
	});

	it('reads the active file, language and selections with their text', async () => {
		assert.deepEqual(await read('editor://active'), { file: null, reason: 'no active text editor' });
		editor.open(`${WS}/src/a.ts`, 'const a = 1;\nconst b = 2;\n', 'typescript');
		editor.select(sel(0, 6, 0, 7), sel(1, 0, 1, 0));
		const active = await read('editor://active');
		assert.equal(active.file, 'src/a.ts');
		assert.equal(active.uri, 'file:///ws-editor/src/a.ts');
		assert.equal(active.languageId, 'typescript');
		assert.equal(active.selections.length, 2);
		assert.equal(active.selections[0].text, 'a');
		assert.equal(active.selections[1].isEmpty, true);
		const selection = await read('editor://selection');
		assert.deepEqual(selection.selections, [{ start: { line: 0, character: 6 }, end: { line: 0, character: 7 }, text: 'a' }]);
	});

	it('gives neither path nor text for files outside the workspace, secrets and untitled documents', async () => {
		for (const [path, scheme] of [['/etc/hosts', 'file'], [`${WS}/.env`, 'file'], [undefined, 'untitled']] as const) {
			editor.open(path, 'TOKEN=abc', 'plaintext', scheme);
			editor.select(sel(0, 0, 0, 9));
			const body = JSON.stringify(await read('editor://active')) + JSON.stringify(await read('editor://selection'));
			assert.ok(!body.includes('TOKEN'), `${path}: no text`);
			assert.ok(!body.includes('/etc') && !body.includes('.env'), `${path}: no path`);
		}
	});

	it('reads tabs with workspace-relative paths only', async () => {
		editor.setTabs([
			{ label: 'a.ts', kind: 'text', path: `${WS}/src/a.ts`, group: 1, isActive: true, isDirty: true, isPinned: false, isPreview: false },
			{ label: 'hosts', kind: 'text', path: '/etc/hosts', group: 2, isActive: false, isDirty: false, isPinned: false, isPreview: true },
		]);
		const { tabs } = await read('editor://tabs');
		assert.equal(tabs[0].file, 'src/a.ts');
		assert.equal(tabs[0].isDirty, true);
		assert.equal(tabs[1].file, null);
		assert.ok(!JSON.stringify(tabs).includes('/etc/'));
	});

	it('throttles a held arrow key into a few notifications', async () => {
		editor.open(`${WS}/a.txt`, 'x'.repeat(1000));
		await conn.client.subscribeResource({ uri: 'editor://active' });
		await conn.client.subscribeResource({ uri: 'editor://tabs' });
		const started = performance.now();
		// 60 key repeats, 5 ms apart (a fast key repeat), then wait for the last notification.
		for (let i = 0; i < 60; i++) {
			editor.select(sel(0, i, 0, i));
			await new Promise(resolve => setTimeout(resolve, 5));
		}
		const elapsed = performance.now() - started;
		await conn.waitForUpdate('editor://active');
		registry.flushChanges();
		const count = conn.updates.filter(u => u === 'editor://active').length;
		assert.ok(count >= 1 && count <= Math.ceil(elapsed / 100) + 2, `${count} notifications for 60 moves in ${Math.round(elapsed)} ms`);
		assert.ok(!conn.updates.includes('editor://tabs'), 'tabs not notified for cursor moves');
		const active = await read('editor://active');
		assert.equal(active.selections[0].start.character, 59, 'reads see the latest state');
	});

	it('tells nobody when the cursor moves or text is typed in a secret, an outside file or an untitled buffer: what a read shows did not change', async () => {
		// Unthrottled, so that each keystroke would be a notification of its own.
		const unthrottled = new EditorProvider(editor, scopeOver(new StaticFolders([WS])).scope, { throttleMs: 0 });
		const own = new ProviderRegistry([unthrottled], fastTracker);
		const client = await connectInMemory(own);
		try {
			await client.client.subscribeResource({ uri: 'editor://selection' });
			await own.providers[0].ready();
			editor.open(`${WS}/src/a.ts`, 'served\n');
			for (const [path, scheme] of [[`${WS}/.env`, 'file'], ['/etc/hosts', 'file'], [undefined, 'untitled']] as const) {
				editor.open(path, 'TOKEN=', 'plaintext', scheme); // from a served file: a reader now sees none
				own.flushChanges();
				await client.waitForUpdate('editor://selection');
				client.updates.length = 0;
				for (let i = 1; i <= 5; i++) {
					editor.select(sel(0, 6 + i, 0, 6 + i)); // typing a character moves the cursor
					own.flushChanges();
				}
				editor.open(`${WS}/src/a.ts`, 'served\n');
				own.flushChanges();
				// Notifications arrive in order: once the served file's is here, the keystrokes' would have been.
				await client.waitForUpdate('editor://selection');
				assert.deepEqual(client.updates, ['editor://selection'], `${path ?? scheme}: only the served file's change was told`);
			}
		} finally {
			await client.close();
			own.dispose();
		}
	});

	it('refuses unknown editor URIs', async () => {
		const err = await errorOf(conn.client.readResource({ uri: 'editor://nope' }));
		assert.equal(err.code, -32602);
		assert.equal((await errorOf(conn.client.subscribeResource({ uri: 'editor://nope' }))).code, -32602);
	});
});
