import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { absPath, closeAllEditors, resourceUri, TestClient, vscodeUri, waitFor } from './helpers';

interface Relations {
	relation: string;
	items: { name?: string; path: string; line: number; column: number; text: string; uri: string }[];
	complete: boolean;
}

interface Symbols {
	symbols: { name: string; kind: string; container?: string; path: string; line: number; uri: string }[];
	complete: boolean;
}

/**
 * Workspace symbols and relations from the TypeScript service VS Code ships, through the server:
 * answered from the live (unsaved) text, and told to subscribers when typing changes an answer.
 */
describe('symbols and relations from the language services (symbols://)', function () {
	// The TypeScript server starts on first use; give it time on a slow machine.
	this.timeout(240_000);
	let client: TestClient;
	const saved = { main: '', greet: '' };

	before(async () => {
		saved.main = fs.readFileSync(absPath('src/main.ts'), 'utf8');
		saved.greet = fs.readFileSync(absPath('src/greet.ts'), 'utf8');
		client = await TestClient.connect();
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscodeUri('src/greet.ts')));
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscodeUri('src/main.ts')));
	});
	after(async () => {
		await closeAllEditors();
		assert.equal(fs.readFileSync(absPath('src/main.ts'), 'utf8'), saved.main, 'nothing was saved');
		await client?.close();
	});

	const json = async <T>(uri: string): Promise<T> => JSON.parse(await client.readText(uri)) as T;

	it('finds greet by name in the workspace, with the URI of its lines', async () => {
		const found = await waitFor(async () => {
			const body = await json<Symbols>('symbols://workspace?q=greet');
			// The TypeScript service names a function with its parentheses (`greet()`) in workspace symbols.
			return body.symbols.find(s => s.name.replace(/\(\)$/, '') === 'greet' && s.path === 'src/greet.ts');
		}, 'greet among the workspace symbols', 120_000);
		assert.equal(found.kind, 'Function');
		assert.equal(found.line, 1);
		assert.match(await client.readText(found.uri), /^export function greet\(/);
	});

	it('definitions by line and character lead from the call in main.ts to greet.ts', async () => {
		// `greet('world')` is on line 3 of main.ts; character 14 is inside `greet`.
		const body = await waitFor(async () => {
			const answer = await json<Relations>('symbols://definitions/src/main.ts?line=3&character=14');
			return answer.items.some(i => i.path === 'src/greet.ts') ? answer : undefined;
		}, 'the definition of greet', 120_000);
		const definition = body.items.find(i => i.path === 'src/greet.ts')!;
		assert.equal(definition.line, 1);
		assert.match(definition.text, /export function greet/);
		assert.equal(definition.uri.split('?')[0], resourceUri('src/greet.ts'));
	});

	it('references of symbol=greet come from the unsaved text after typing, and a subscriber hears the change', async () => {
		const uri = 'symbols://references/src/greet.ts?symbol=greet';
		const before = await waitFor(async () => {
			const answer = await json<Relations>(uri);
			return answer.items.some(i => i.path === 'src/main.ts') ? answer : undefined;
		}, 'a reference in main.ts', 120_000);
		assert.ok(before.items.some(i => i.path === 'src/greet.ts' && i.line === 1), JSON.stringify(before.items));
		await client.subscribe(uri);
		const since = client.mark();
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscodeUri('src/main.ts')));
		const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
		assert.ok(await editor.edit(b => b.insert(end, '\ngreet(\'typed, not saved\');\n')));
		assert.ok(editor.document.isDirty, 'the text is typed, not saved');
		const typedLine = editor.document.lineCount - 1;
		await since.updated(uri, 60_000);
		const after = await waitFor(async () => {
			const answer = await json<Relations>(uri);
			return answer.items.find(i => i.path === 'src/main.ts' && i.text === 'greet(\'typed, not saved\');');
		}, 'the typed call among the references', 60_000);
		assert.equal(after.line, typedLine);
		assert.equal(after.column, 1);

		// How long a relation takes, the service warm (printed for the performance notes, not asserted).
		const times: number[] = [];
		for (let i = 0; i < 10; i++) {
			const started = performance.now();
			await client.readText(uri);
			times.push(performance.now() - started);
		}
		times.sort((a, b) => a - b);
		console.log(`      relation latency (references, warm): p50 ${times[5].toFixed(1)} ms, max ${times[9].toFixed(1)} ms`);
	});

	it('incoming calls of greet name main.ts as its caller', async () => {
		const body = await waitFor(async () => {
			const answer = await json<Relations>('symbols://incoming-calls/src/greet.ts?symbol=greet');
			return answer.items.length > 0 ? answer : undefined;
		}, 'a caller of greet', 120_000);
		assert.ok(body.items.every(i => i.path === 'src/main.ts'), JSON.stringify(body.items));
		assert.ok(body.items.every(i => typeof i.name === 'string'));
	});

	it('a bad relation is -32602 naming the relations there are', async () => {
		await assert.rejects(client.readText('symbols://callers/src/greet.ts?symbol=greet'), (err: { code?: number; message?: string }) =>
			err.code === -32602 && /definitions, references, implementations, type-definitions, incoming-calls, outgoing-calls/.test(err.message ?? ''));
	});
});
