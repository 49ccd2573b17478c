import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileUri } from '../../../src/core/uriGuard';
import { EraClient, readOutcome, walkList } from '../../helpers/eraClients';
import { HIDDEN, InvariantWorkspace, SERVED, startInvariantWorkspace } from '../../helpers/invariantWorkspace';

/** The bytes a read's content stands for: `size` in a listing counts these. */
function contentBytes(content: { text?: string; blob?: string }): number {
	return content.text !== undefined ? Buffer.byteLength(content.text, 'utf8') : Buffer.from(content.blob ?? '', 'base64').length;
}

describe('invariant: what is listed reads as listed, and both eras list the same (headless host over HTTP, stdio and the bridge)', function () {
	this.timeout(60_000);
	let ws: InvariantWorkspace;
	const lists = new Map<EraClient, Record<string, unknown>[]>();

	before(async () => {
		ws = await startInvariantWorkspace();
		for (const c of ws.clients) {
			lists.set(c, await walkList(c));
		}
	});
	after(async () => {
		await ws?.dispose();
	});

	it('lists the same resources in every era and transport, with no duplicate', () => {
		// `annotations.priority` is the live ranking when the page was built (git state arrives a
		// moment after start, in each process on its own): everything else must be equal.
		const steady = (c: EraClient): Record<string, unknown>[] => lists.get(c)!.map(r => ({ ...r, annotations: { ...r.annotations as object, priority: undefined } }));
		const first = steady(ws.clients[0]);
		assert.equal(new Set(first.map(r => r.uri)).size, first.length, 'no URI twice');
		for (const c of ws.clients.slice(1)) {
			assert.deepEqual(steady(c), first, `${c.label} lists what ${ws.clients[0].label} does`);
		}
	});

	it('lists the same templates in every era and transport', async () => {
		const templates = [];
		for (const c of ws.clients) {
			templates.push((await c.client.listResourceTemplates()).resourceTemplates);
		}
		for (const [i, list] of templates.entries()) {
			assert.deepEqual(list, templates[0], `${ws.clients[i].label} lists the templates ${ws.clients[0].label} does`);
		}
		assert.ok(templates[0].length > 0);
	});

	it('lists every served file and no hidden one', () => {
		const uris = new Set(lists.get(ws.clients[0])!.map(r => r.uri));
		for (const rel of SERVED) {
			assert.ok(uris.has(fileUri(ws.fx.file(rel))), `${rel} is listed`);
		}
		for (const rel of HIDDEN) {
			assert.ok(![...uris].some(u => String(u).toLowerCase() === fileUri(ws.fx.file(rel)).toLowerCase()), `${rel} is not listed in any case`);
		}
	});

	it('lists exactly the files on disk that read: nothing readable is missing, nothing listed is refused', async () => {
		// Every file and link in the workspace, not through linked directories (their files are
		// listed under their own path), each asked for by its canonical URI.
		const onDisk = readdirSync(ws.fx.root, { recursive: true, withFileTypes: true })
			.filter(d => d.isFile() || d.isSymbolicLink())
			.map(d => fileUri(path.join(d.parentPath, d.name)));
		const c = ws.clients[0];
		const listed = new Set(lists.get(c)!.map(r => r.uri as string));
		for (const uri of onDisk) {
			const reads = (await readOutcome(c, uri)).ok;
			assert.equal(listed.has(uri), reads, `${uri} is ${reads ? 'read but not listed' : 'listed but refused'}`);
		}
	});

	it('reads every listed resource under its URI, with the MIME type and size it was listed with, in every client', async () => {
		for (const c of ws.clients) {
			for (const entry of lists.get(c)!) {
				const uri = entry.uri as string;
				const read = await readOutcome(c, uri);
				assert.ok(read.ok, `${c.label} reads listed ${uri}: ${JSON.stringify(read)}`);
				const contents = read.value as { uri: string; mimeType?: string; text?: string; blob?: string }[];
				assert.equal(contents.length, 1, uri);
				assert.equal(contents[0].uri, uri, `${c.label}: the content names the listed URI`);
				if (entry.mimeType !== undefined) {
					assert.equal(contents[0].mimeType, entry.mimeType, `${c.label}: ${uri} reads as the MIME type it was listed with`);
				}
				if (entry.size !== undefined) {
					assert.equal(contentBytes(contents[0]), entry.size, `${c.label}: ${uri} reads as many bytes as listed`);
				}
			}
		}
	});
});
