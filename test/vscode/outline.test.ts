import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, resourceUri, TestClient, vscodeUri, waitFor } from './helpers';

interface OutlineBody { file: string; symbols: { name: string; kind: string; lines: string; uri: string }[] }

describe('outlines and line ranges (outline://, file:///...?lines=)', () => {
	let client: TestClient;
	before(async () => {
		client = await TestClient.connect();
	});
	after(async () => {
		await closeAllEditors();
		await client?.close();
	});

	it('the outline of a TypeScript file lists its functions, and each one\'s URI reads its lines', async function () {
		// The TypeScript server starts on first use; give it time on a slow machine.
		this.timeout(240_000);
		const document = await vscode.workspace.openTextDocument(vscodeUri('src/greet.ts'));
		await vscode.window.showTextDocument(document);
		const outline = await waitFor(async () => {
			const body = JSON.parse(await client.readText('outline://file/src/greet.ts')) as OutlineBody;
			return body.symbols.length > 0 ? body : undefined;
		}, 'the TypeScript outline of src/greet.ts', 120_000);
		const greet = outline.symbols.find(s => s.name === 'greet');
		assert.ok(greet, JSON.stringify(outline));
		assert.equal(greet.kind, 'Function');
		assert.equal(greet.uri, `${resourceUri('src/greet.ts')}?lines=${greet.lines}`);
		assert.match(await client.readText(greet.uri), /^export function greet\(/);
		assert.match(await client.readText(`${resourceUri('src/greet.ts')}?symbol=greet`), /^export function greet\(/);
	});

	it('serves a file\'s signatures from the grammars, parsed in their worker thread', async () => {
		assert.equal(await client.readText(`${resourceUri('src/greet.ts')}?view=signatures`), 'export function greet(name: string): string { … }\n');
	});

	it('a range reads the unsaved text of a dirty file', async () => {
		const document = await vscode.workspace.openTextDocument(vscodeUri('src/main.ts'));
		const editor = await vscode.window.showTextDocument(document);
		await editor.edit(b => b.insert(new vscode.Position(0, 0), '// typed, not saved\n'));
		await waitFor(async () => (await client.readText(`${resourceUri('src/main.ts')}?lines=1`)) === '// typed, not saved\n', 'the unsaved first line');
		await vscode.commands.executeCommand('workbench.action.files.revert');
	});
});
