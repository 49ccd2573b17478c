import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { fileUri } from '../../../src/core/uriGuard';
import { FakeDocuments } from '../../fakes/fakeDocuments';
import { EraClient, readOutcome } from '../../helpers/eraClients';
import { startToolWorkspace } from '../../helpers/toolWorkspace';

const SEED = 20261202;
const RUNS = 30;

/** Names a workspace may hold: plain ones, the deny-list's, and ones a random .gitignore may name. */
const NAMES = ['a.ts', 'b.md', 'notes.txt', 'gen.ts', 'debug.log', '.env', '.env.local', 'id_rsa', 'server.pem', 'api.key', '.npmrc', 'credentials.json'];
const DIRS = ['', 'src/', 'src/deep/', 'build/', 'keys/', '.git/'];
const IGNORES = ['*.log', 'build/', 'gen.ts', 'notes.txt', 'src/deep/'];
const LINKS = ['outside-file', 'outside-dir', 'inside', 'to-first'] as const;

interface TreeFile {
	readonly rel: string;
}

interface Tree {
	readonly files: readonly TreeFile[];
	readonly ignores: readonly string[];
	readonly links: readonly (typeof LINKS[number])[];
	/** Files the editor shows (indexes into `files`), for the relevance ranking. */
	readonly shown: readonly number[];
}

/** A name in another letter case: on any system `ID_RSA` holds what `id_rsa` would. */
function twisted(name: string, twist: number): string {
	switch (twist) {
		case 1: return name.toUpperCase();
		case 2: return name.replace(/(^|[._])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
		default: return name;
	}
}

const trees: fc.Arbitrary<Tree> = fc.record({
	files: fc.uniqueArray(
		fc.record({ dir: fc.constantFrom(...DIRS), name: fc.constantFrom(...NAMES), twist: fc.constantFrom(0, 0, 1, 2) })
			.map(({ dir, name, twist }): TreeFile => ({ rel: dir + twisted(name, twist) })),
		{ minLength: 1, maxLength: 12, selector: f => f.rel },
	),
	ignores: fc.subarray(IGNORES),
	links: fc.subarray([...LINKS]),
	shown: fc.array(fc.nat({ max: 11 }), { maxLength: 4 }),
});

/**
 * Writes the tree: each file holds a marker of its own, so any text of it in an answer is found,
 * and a declaration, so the symbol search has something to find in each TypeScript file.
 */
function writeTree(base: string, tree: Tree, documents: FakeDocuments): { root: string; paths: string[]; markers: Map<string, string> } {
	const root = path.join(base, 'ws');
	const outside = path.join(base, 'outside');
	mkdirSync(outside, { recursive: true });
	writeFileSync(path.join(outside, 'secret.txt'), 'MARK-outside-file\n');
	const markers = new Map<string, string>();
	const paths: string[] = [];
	tree.files.forEach((f, i) => {
		const abs = path.join(root, f.rel);
		mkdirSync(path.dirname(abs), { recursive: true });
		writeFileSync(abs, `MARK-${i} needle\nsecond line\nfunction needle${i}() {}\n`);
		// Open in the editor with unsaved text: a refused file's must not reach a search either.
		documents.edit(abs, `MARK-${i} needle unsaved\nsecond line\nfunction needle${i}() {}\n`);
		markers.set(abs, `MARK-${i}`);
		paths.push(abs);
	});
	mkdirSync(root, { recursive: true });
	writeFileSync(path.join(root, '.gitignore'), tree.ignores.join('\n') + '\n');
	for (const link of tree.links) {
		const at = path.join(root, `link-${link}`);
		const target = { 'outside-file': path.join(outside, 'secret.txt'), 'outside-dir': outside, inside: paths[0], 'to-first': paths[0] }[link];
		symlinkSync(target, at);
		paths.push(link === 'outside-dir' ? path.join(at, 'secret.txt') : at);
	}
	return { root, paths, markers };
}

type ToolResult = { content: { type: string; uri?: string; resource?: { uri: string } }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

function call(c: EraClient, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
	return c.client.callTool({ name, arguments: args }) as Promise<ToolResult>;
}

/** Every URI a tool result points at: links, embedded resources, and the `uri`s of its data. */
function urisIn(result: ToolResult): string[] {
	const found = result.content.flatMap(b => [b.uri, b.resource?.uri]).filter((u): u is string => u !== undefined);
	JSON.stringify(result.structuredContent ?? {}, (key, value: unknown) => {
		if (key === 'uri' && typeof value === 'string') {
			found.push(value);
		}
		return value;
	});
	return found;
}

describe('invariant: no tool returns what a read refuses, on random trees (secrets in any case, ignored files, outward links)', function () {
	this.timeout(300_000);

	it('list_resources, read_resource, relevant_files, the search tools and find_symbols give only what resources/read serves', async () => {
		let refusedSeen = 0;
		let servedSeen = 0;
		let found = 0;
		let unsaved = 0;
		await fc.assert(fc.asyncProperty(trees, async tree => {
			const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-tool-tree-')));
			const documents = new FakeDocuments();
			const { root, paths, markers } = writeTree(base, tree, documents);
			const ws = await startToolWorkspace(root, { real: true, documents });
			try {
				const judge = ws.clients[0];
				const reads = new Map<string, boolean>();
				const served = async (uri: string) => {
					if (!reads.has(uri)) {
						reads.set(uri, (await readOutcome(judge, uri)).ok);
					}
					return reads.get(uri)!;
				};
				// The text of every refused file, and of the file outside, must never reach an answer
				// (a link's text is its target's, judged there).
				const refusedMarkers = ['MARK-outside-file'];
				for (const abs of paths) {
					if (await served(fileUri(abs))) {
						servedSeen++;
					} else {
						refusedSeen++;
						if (markers.has(abs)) {
							refusedMarkers.push(markers.get(abs)!);
						}
					}
				}
				ws.signals.show(tree.shown.length > 0 ? paths[tree.shown[0] % paths.length] : undefined, tree.shown.map(i => paths[i % paths.length]));
				for (const c of ws.clients) {
					const results: ToolResult[] = [];
					let cursor: string | undefined;
					do {
						const page = await call(c, 'list_resources', { limit: 7, ...cursor !== undefined && { cursor } });
						results.push(page);
						cursor = (page.structuredContent as { nextCursor?: string }).nextCursor;
					} while (cursor !== undefined);
					for (const abs of paths) {
						const uri = fileUri(abs);
						const read = await call(c, 'read_resource', { uri });
						assert.equal(read.isError === true, !(await served(uri)), `${c.label}: read_resource and resources/read disagree on ${path.relative(base, abs)}`);
						results.push(read);
						const range = await call(c, 'read_resource', { uri: `${uri}?lines=1` });
						assert.equal(range.isError === true, !(await served(uri)), `${c.label}: a range of ${path.relative(base, abs)}`);
						results.push(range);
					}
					results.push(await call(c, 'relevant_files'));
					results.push(await call(c, 'search_text', { q: 'needle', max: 100 }));
					const marks = await call(c, 'search_text', { q: 'MARK' });
					results.push(marks);
					unsaved += JSON.stringify(marks.structuredContent).includes('needle unsaved') ? 1 : 0;
					results.push(await call(c, 'search_text', { q: 'mark-\\d+ NEEDLE$', regex: true, max: 5000 }));
					results.push(await call(c, 'search_text', { q: 'needle', word: true, case: true, glob: '**' }));
					results.push(await call(c, 'search_files', { q: 'e' }));
					results.push(await call(c, 'search_files', { q: 'env', max: 1000 }));
					const symbols = await call(c, 'find_symbols', { q: 'needle', max: 1000 });
					results.push(symbols);
					found += urisIn(symbols).length;
					for (const result of results.filter(r => !r.isError)) {
						for (const uri of urisIn(result)) {
							assert.ok(await served(uri), `${c.label}: a tool gave ${uri}, which resources/read refuses`);
						}
					}
					const everything = JSON.stringify(results);
					for (const marker of refusedMarkers) {
						assert.ok(!new RegExp(`${marker}\\b`).test(everything), `${c.label}: text of a refused file (${marker}) reached a tool answer`);
					}
				}
			} finally {
				await ws.dispose();
				rmSync(base, { recursive: true, force: true });
			}
		}), { seed: SEED, numRuns: RUNS });
		assert.ok(refusedSeen > 0 && servedSeen > 0, `the trees held both refused (${refusedSeen}) and served (${servedSeen}) files`);
		assert.ok(found > 0, 'find_symbols found declarations in served files');
		assert.ok(unsaved > 0, 'search_text found the unsaved text of served files');
	});
});
