import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { absPath, closeAllEditors, TestClient, vscodeUri, waitFor } from './helpers';

const FILE = 'src/problem.ts';
const URI = `diagnostics://file/${FILE}`;
const BROKEN = "export const count: number = 'not a number';\n";
const FIXED = 'export const count: number = 42;\n';

interface ProblemsBody { problems: { severity: string; message: string; source?: string; code?: unknown; range: unknown }[] }

describe('problems (diagnostics://)', () => {
	let client: TestClient;
	before(async () => {
		client = await TestClient.connect();
	});
	after(async () => {
		await closeAllEditors();
		fs.rmSync(absPath(FILE), { force: true });
		await client?.close();
	});

	const readProblems = async (uri: string) => JSON.parse(await client.readText(uri)) as ProblemsBody;

	it('a TypeScript type error shows up as a problem, is notified, and disappears when fixed', async function () {
		// The TypeScript server starts on first use; give it time on a slow machine.
		this.timeout(240_000);
		fs.writeFileSync(absPath(FILE), BROKEN);
		await client.subscribe(URI);
		await client.subscribe('diagnostics://workspace');
		const since = client.mark();
		const document = await vscode.workspace.openTextDocument(vscodeUri(FILE));
		const editor = await vscode.window.showTextDocument(document);

		// The built-in TypeScript support reports the error; the server notifies and lists it.
		await waitFor(() => vscode.languages.getDiagnostics(document.uri).length > 0, 'VS Code reports a diagnostic for the file', 120_000);
		await since.updated(URI, 10_000);
		const body = await waitFor(async () => {
			const b = await readProblems(URI);
			return b.problems.some(p => p.severity === 'error') ? b : undefined;
		}, 'the type error in diagnostics://file/src/problem.ts', 60_000);
		const error = body.problems.find(p => p.severity === 'error')!;
		assert.match(error.message, /not assignable to type 'number'/);
		assert.equal(error.source, 'ts');
		assert.equal(error.code, 2322);
		const listed = await client.listAll();
		const entry = listed.resources.find(r => r.uri === URI);
		assert.ok(entry, 'the file with problems is listed');
		assert.match(entry.description ?? '', /1 error/);
		const workspace = await readProblems('diagnostics://workspace');
		assert.ok(workspace.problems.some(p => (p as unknown as { file: string }).file === FILE));

		const fixedSince = client.mark();
		await editor.edit(b => b.replace(new vscode.Range(0, 0, document.lineCount, 0), FIXED));
		await document.save();
		await fixedSince.updated(URI, 60_000);
		await waitFor(async () => (await readProblems(URI)).problems.length === 0, 'the problem disappears once fixed', 60_000);
		await waitFor(async () => !(await client.listedUris()).has(URI), 'the file is no longer listed', 30_000);
	});
});
