import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { McpSubscription } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import { EraClient, httpEraClients } from '../helpers/eraClients';
import { until } from '../helpers/until';
import { absPath, closeAllEditors, ensureServer, restoreFile, resourceUri, vscodeUri, waitFor } from './helpers';

const FILE = 'src/greet.ts';
/** A word nowhere in the fixture until the test types it. */
const WORD = 'unsavedZebraWord';
const SEARCH = `search://text?q=${WORD}`;

interface Answer {
	files: { path: string; uri: string; matches: { line: number; column: number; text: string; uri: string }[] }[];
	matchCount: number;
	complete: boolean;
}

async function answer(c: EraClient): Promise<Answer> {
	const { contents } = await c.client.readResource({ uri: SEARCH }, { cacheMode: 'bypass' });
	return JSON.parse((contents[0] as { text: string }).text) as Answer;
}

const updatesOf = (c: EraClient) => c.updates.filter(u => u === SEARCH).length;

describe('search://text in the editor answers the unsaved text of an open document (both eras)', () => {
	let original: string;
	let clients: EraClient[] = [];
	const listens: McpSubscription[] = [];

	before(async () => {
		original = fs.readFileSync(absPath(FILE), 'utf8');
		const lock = await ensureServer();
		clients = await httpEraClients(lock.url, lock.token);
		for (const c of clients) {
			assert.equal((await answer(c)).matchCount, 0, `${c.label}: ${WORD} is nowhere yet`);
			if (c.era === 'legacy') {
				await c.client.subscribeResource({ uri: SEARCH });
			} else {
				const listen = await c.client.listen({ resourceSubscriptions: [SEARCH] });
				assert.deepEqual(listen.honoredFilter.resourceSubscriptions, [SEARCH], c.label);
				listens.push(listen);
			}
		}
	});
	after(async () => {
		await closeAllEditors();
		await restoreFile(FILE, original);
		await Promise.all(listens.map(l => l.close()));
		await Promise.all(clients.map(c => c.close()));
	});

	it('finds a word typed but not saved at its line and column, and the subscribed search hears `updated` on the typing and the revert', async () => {
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscodeUri(FILE)));
		const before = clients.map(updatesOf);
		assert.ok(await editor.edit(b => b.insert(new vscode.Position(1, 0), `\t// ${WORD}\n`)), 'typed');
		assert.ok(editor.document.isDirty, 'unsaved');
		await Promise.all(clients.map((c, i) => until(c.onDidUpdate, () => updatesOf(c) > before[i], `${c.label}: updated ${SEARCH} on typing`, 15_000)));
		for (const c of clients) {
			const found = await waitFor(async () => {
				const a = await answer(c);
				return a.matchCount === 1 ? a : undefined;
			}, `${c.label}: the typed word found`);
			assert.deepEqual(found.files.map(f => [f.path, f.uri]), [[FILE, resourceUri(FILE)]], c.label);
			assert.deepEqual(found.files[0].matches, [{ line: 2, column: 5, text: `\t// ${WORD}`, uri: `${resourceUri(FILE)}?lines=2` }], c.label);
		}
		assert.equal(fs.readFileSync(absPath(FILE), 'utf8'), original, 'the disk still has the saved text');

		const typed = clients.map(updatesOf);
		await vscode.commands.executeCommand('workbench.action.files.revert');
		assert.ok(!editor.document.isDirty, 'reverted');
		await Promise.all(clients.map((c, i) => until(c.onDidUpdate, () => updatesOf(c) > typed[i], `${c.label}: updated ${SEARCH} on the revert`, 15_000)));
		for (const c of clients) {
			await waitFor(async () => (await answer(c)).matchCount === 0, `${c.label}: the word gone with the revert`);
		}
	});
});
