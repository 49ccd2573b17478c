import * as assert from 'node:assert/strict';
import { nullLogger } from '../../src/common/logger';
import { DiagnosticsProvider } from '../../src/core/diagnostics/diagnosticsProvider';
import { EditorProvider, NOT_SERVED_LABEL } from '../../src/core/editor/editorProvider';
import { EditorTab } from '../../src/core/editor/ports';
import { FilesProvider } from '../../src/core/files/filesProvider';
import { noOpenDocuments } from '../../src/core/ports';
import { ProviderRegistry } from '../../src/core/registry';
import { WorkspaceScope } from '../../src/core/workspaceScope';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { StaticFolders } from '../../src/node/staticSources';
import { FakeDiagnostics, problem } from '../fakes/fakeDiagnostics';
import { FakeEditor, sel } from '../fakes/fakeEditor';
import { FakeSettings } from '../fakes/fakeSettings';
import { FakeWatcher } from '../fakes/fakeWatcher';
import { createFixture, Fixture } from '../helpers/fixtureWorkspace';
import { ConnectedClient, connectInMemory, errorOf, fastTracker, listAll } from '../helpers/harness';
import { readJson } from '../helpers/readJson';

/**
 * Problems and editor state go through the same served-or-not rule as files: what `.gitignore`
 * hides (at the root and nested), secrets, and links to outside are not named, read, completed
 * or notified, whichever family a client asks.
 */
const HIDDEN = ['debug.log', 'build/out.js', 'pkg/generated/gen.ts', '.env', 'link-outside-file'];
const SERVED = ['src/index.ts', 'pkg/keep.log'];

describe('one served-or-not rule for problems and editor state', () => {
	let fx: Fixture;
	let files: FilesProvider;
	let settings: FakeSettings;
	let diagnostics: FakeDiagnostics;
	let editor: FakeEditor;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;

	beforeEach(async () => {
		fx = createFixture();
		const folders = new StaticFolders([fx.root]);
		const reader = new NodeFileSystem();
		settings = new FakeSettings();
		files = new FilesProvider({ folders, reader, watcher: new FakeWatcher(), documents: noOpenDocuments, settings, log: nullLogger });
		diagnostics = new FakeDiagnostics(Object.fromEntries([...HIDDEN, ...SERVED].map(rel => [fx.file(rel), [problem('error', 0, `problem in ${rel}`)]])));
		editor = new FakeEditor();
		const scope = new WorkspaceScope(folders, files, reader);
		registry = new ProviderRegistry([files, new DiagnosticsProvider(diagnostics, scope), new EditorProvider(editor, scope, { throttleMs: 5 })], fastTracker);
		files.start();
		conn = await connectInMemory(registry);
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
		fx.dispose();
	});

	it('lists problems only of served files', async () => {
		const uris = (await listAll(conn.client)).map(r => r.uri).filter(u => u.startsWith('diagnostics://file/'));
		assert.deepEqual(uris.sort(), SERVED.map(rel => `diagnostics://file/${rel}`).sort());
	});

	it('refuses to read or subscribe to problems of hidden files, and leaves them out of the workspace resource', async () => {
		for (const rel of HIDDEN) {
			const uri = `diagnostics://file/${rel}`;
			assert.equal((await errorOf(conn.client.readResource({ uri }))).code, -32602, `read ${rel}`);
			assert.equal((await errorOf(conn.client.subscribeResource({ uri }))).code, -32602, `subscribe ${rel}`);
		}
		const all = JSON.stringify(await readJson(conn, 'diagnostics://workspace'));
		for (const rel of HIDDEN) {
			assert.ok(!all.includes(`problem in ${rel}`), `${rel} is in diagnostics://workspace`);
		}
		for (const rel of SERVED) {
			assert.ok(all.includes(`problem in ${rel}`), `${rel} is missing from diagnostics://workspace`);
		}
	});

	it('completes no hidden path', async () => {
		for (const value of ['', 'debug', 'build', 'pkg/gen', '.e', 'link']) {
			const result = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'diagnostics://file/{+path}' }, argument: { name: 'path', value } });
			assert.deepEqual(result.completion.values.filter(v => !SERVED.includes(v)), [], `completing "${value}"`);
		}
	});

	it('does not notify a change to the problems of a hidden file', async () => {
		await conn.client.subscribeResource({ uri: 'diagnostics://workspace' });
		await listAll(conn.client); // the list changes once the rules load; let that pass
		registry.flushChanges();
		await conn.client.ping();
		const before = conn.updates.length;
		for (const rel of HIDDEN) {
			diagnostics.set(fx.file(rel), [problem('error', 1, 'changed')]);
		}
		registry.flushChanges();
		await conn.client.ping();
		assert.deepEqual(conn.updates.slice(before), [], 'hidden files changed');
		diagnostics.set(fx.file('src/index.ts'), [problem('warning', 2, 'changed')]);
		await conn.waitForUpdate('diagnostics://workspace'); // and a served one does notify
	});

	it('gives neither name nor text of a hidden file open in the editor', async () => {
		for (const rel of HIDDEN) {
			editor.open(fx.file(rel), 'HIDDEN TEXT\nmore', 'plaintext');
			editor.select(sel(0, 0, 1, 2));
			const body = JSON.stringify(await readJson(conn, 'editor://active')) + JSON.stringify(await readJson(conn, 'editor://selection'));
			assert.ok(!body.includes('HIDDEN'), `${rel}: text served: ${body}`);
			assert.ok(!body.includes(rel) && !body.includes(fx.root), `${rel}: named: ${body}`);
		}
		editor.open(fx.file('src/index.ts'), 'SERVED TEXT', 'typescript');
		editor.select(sel(0, 0, 0, 6));
		assert.equal((await readJson(conn, 'editor://selection')).selections[0].text, 'SERVED');
	});

	it('names no hidden file among the open tabs', async () => {
		const tab = (rel: string, group: number): EditorTab => ({
			label: rel.split('/').pop()!, kind: 'text', path: fx.file(rel), group, isActive: false, isDirty: false, isPinned: false, isPreview: false,
		});
		editor.setTabs([...HIDDEN, ...SERVED].map((rel, i) => tab(rel, i + 1)));
		const body = await readJson(conn, 'editor://tabs');
		const text = JSON.stringify(body);
		for (const rel of HIDDEN) {
			assert.ok(!text.includes(rel.split('/').pop()!), `${rel} named in ${text}`);
		}
		assert.equal(body.tabs.length, HIDDEN.length + SERVED.length, 'every tab is still counted');
		assert.deepEqual(body.tabs.slice(0, HIDDEN.length).map((t: { label: string; file: string | null }) => [t.label, t.file]), HIDDEN.map(() => [NOT_SERVED_LABEL, null]));
		assert.deepEqual(body.tabs.slice(HIDDEN.length).map((t: { file: string }) => t.file), SERVED);
	});

	it('names no hidden file on either side of a diff tab, behind a revision, or in a document of another scheme', async () => {
		const base = { group: 1, isActive: false, isDirty: false, isPinned: false, isPreview: false };
		editor.setTabs([
			// "Compare Selected" on .env and a served file: the label names both, the modified side is served.
			{ ...base, label: '.env ↔ index.ts', kind: 'diff', path: fx.file('src/index.ts'), labelPaths: [fx.file('.env'), fx.file('src/index.ts')] },
			// A staged change (git: documents on both sides): no file path of its own.
			{ ...base, label: 'debug.log (Index)', kind: 'diff', labelPaths: [fx.file('debug.log'), fx.file('debug.log')] },
			{ ...base, label: 'secret-of-another-scheme.txt', kind: 'text', labelPaths: [null] },
			{ ...base, label: 'index.ts (Working Tree)', kind: 'diff', path: fx.file('src/index.ts'), labelPaths: [fx.file('src/index.ts'), fx.file('src/index.ts')] },
		]);
		const body = await readJson(conn, 'editor://tabs');
		assert.deepEqual(body.tabs.map((t: { label: string; file: string | null }) => [t.label, t.file]), [
			[NOT_SERVED_LABEL, 'src/index.ts'],
			[NOT_SERVED_LABEL, null],
			[NOT_SERVED_LABEL, null],
			['index.ts (Working Tree)', 'src/index.ts'],
		]);
	});

	it('follows the rule when it changes: ignored files\' problems appear once .gitignore is not respected', async () => {
		const problemUris = async () => (await listAll(conn.client)).map(r => r.uri).filter(u => u.startsWith('diagnostics://file/')).sort();
		assert.ok(!(await problemUris()).includes('diagnostics://file/debug.log'));
		const changed = conn.waitForListChanged();
		settings.set({ respectGitignore: false });
		await changed;
		const uris = await problemUris();
		assert.ok(uris.includes('diagnostics://file/debug.log') && uris.includes('diagnostics://file/build/out.js'), uris.join());
		assert.ok(!uris.includes('diagnostics://file/.env') && !uris.includes('diagnostics://file/link-outside-file'), 'secrets and links stay hidden');
	});
});
