import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { absPath, closeAllEditors, resourceUri, TestClient, vscodeUri, waitFor } from './helpers';

const RELEVANT = 'context://relevant';
const BROKEN_FILE = 'src/relevance-broken.ts';
const TYPED_FILE = 'src/relevance-typed.ts';

interface RelevantBody { files: { file: string; uri: string; priority: number; reasons: string[] }[] }

describe('relevance (context://relevant)', () => {
	let client: TestClient;
	before(async () => {
		client = await TestClient.connect();
	});
	after(async () => {
		await closeAllEditors();
		fs.rmSync(absPath(BROKEN_FILE), { force: true });
		fs.rmSync(absPath(TYPED_FILE), { force: true });
		await client?.close();
	});

	const relevant = async () => JSON.parse(await client.readText(RELEVANT)) as RelevantBody;

	it('typing in a file puts it at the top and notifies subscribers', async () => {
		fs.writeFileSync(absPath(TYPED_FILE), 'export const typed = 1;\n');
		await closeAllEditors();
		await client.subscribe(RELEVANT);
		// The new file beside, README.md active: the active editor outranks a file only shown
		// (other suites ran before: files they edited may rank high too, but not above a fresh edit).
		const typed = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscodeUri(TYPED_FILE)), vscode.ViewColumn.Two);
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscodeUri('README.md')), vscode.ViewColumn.One);
		await waitFor(async () => (await relevant()).files.some(f => f.file === 'README.md' && f.reasons.includes('active editor')), 'README.md active');
		assert.notEqual((await relevant()).files[0]?.file, TYPED_FILE, 'not first before typing');
		const since = client.mark();
		await typed.edit(b => b.insert(new vscode.Position(0, 0), '// typed\n'));
		await since.updated(RELEVANT);
		const body = await waitFor(async () => {
			const b = await relevant();
			return b.files[0]?.file === TYPED_FILE ? b : undefined;
		}, 'the typed file first');
		// Strongest first; the fixture is a git repository, so the new file is untracked too.
		assert.deepEqual(body.files[0].reasons.slice(0, 2).map(r => r.replace(/[0-9]+ s ago$/, 'N s ago')), ['edited (unsaved) N s ago', 'visible editor']);
		assert.equal(body.files[0].uri, resourceUri(TYPED_FILE));
		const listed = (await client.listAll()).resources;
		const top = listed.find(r => r.uri === resourceUri(TYPED_FILE));
		const other = listed.find(r => r.uri === resourceUri('docs/guide/intro.md'));
		assert.ok(top && other);
		assert.ok((top.annotations?.priority ?? 0) > (other.annotations?.priority ?? 1), `${top.annotations?.priority} vs ${other.annotations?.priority}`);
		await vscode.window.showTextDocument(typed.document);
		await vscode.commands.executeCommand('workbench.action.files.revert');
		await closeAllEditors();
	});

	it('a TypeScript error raises its file above a file that is only open', async function () {
		// The TypeScript server starts on first use; give it time on a slow machine.
		this.timeout(240_000);
		fs.writeFileSync(absPath(BROKEN_FILE), "export const n: number = 'text';\n");
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscodeUri('docs/guide/intro.md')), { preview: false });
		const broken = await vscode.workspace.openTextDocument(vscodeUri(BROKEN_FILE));
		await vscode.window.showTextDocument(broken, { preview: false });
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscodeUri('README.md')), { preview: false });
		await waitFor(() => vscode.languages.getDiagnostics(broken.uri).some(d => d.severity === vscode.DiagnosticSeverity.Error), 'the type error', 120_000);
		const body = await waitFor(async () => {
			const b = await relevant();
			const entry = b.files.find(f => f.file === BROKEN_FILE);
			return entry?.reasons.includes('1 error') ? b : undefined;
		}, 'the broken file ranked with its error', 30_000);
		const order = body.files.map(f => f.file);
		assert.ok(order.includes('docs/guide/intro.md'), order.join(', '));
		assert.ok(order.indexOf(BROKEN_FILE) < order.indexOf('docs/guide/intro.md'), `an error outranks a tab alone: ${order.join(', ')}`);
		// Leave no problem behind for the suites after this one.
		const editor = await vscode.window.showTextDocument(broken);
		await editor.edit(b => b.replace(new vscode.Range(0, 0, broken.lineCount, 0), 'export const n: number = 1;\n'));
		await broken.save();
		await waitFor(() => vscode.languages.getDiagnostics(broken.uri).length === 0, 'the fixed file has no problems', 60_000);
	});
});
