import * as assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { OutlineProvider } from '../../../src/core/outline/outlineProvider';
import { FILE_TEMPLATE } from '../../../src/core/files/filesProvider';
import { MAX_RANGE_SOURCE_BYTES } from '../../../src/core/answerBudget';
import { RangesProvider } from '../../../src/core/ranges/rangesProvider';
import { ProviderRegistry } from '../../../src/core/registry';
import { fileUri } from '../../../src/core/uriGuard';
import { WorkspaceScope } from '../../../src/core/workspaceScope';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { StaticFolders } from '../../../src/node/staticSources';
import { FakeDocuments } from '../../fakes/fakeDocuments';
import { FakeOutline, sym } from '../../fakes/fakeOutline';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { connectInMemory, ConnectedClient, createTestServer, errorOf, TestServer } from '../../helpers/harness';
import { readJson } from '../../helpers/readJson';

const SOURCE = ['class Greeter {', '  greet() {', '    return "hi";', '  }', '}', '', 'function main() {', '  new Greeter().greet();', '}', ''].join('\n');

describe('line ranges and outlines through an MCP client', () => {
	let fx: Fixture;
	let server: TestServer;
	let outline: FakeOutline;
	let documents: FakeDocuments;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;
	let file: string;

	beforeEach(async () => {
		fx = createFixture();
		file = fx.write('src/greeter.ts', SOURCE);
		documents = new FakeDocuments();
		server = createTestServer([fx.root], { documents, settings: { maxFileSize: 1024 } });
		outline = new FakeOutline();
		outline.set(file, [sym('Greeter', 'Class', 0, 4, [sym('greet', 'Method', 1, 3)]), sym('main', 'Function', 6, 8)]);
		const folders = new StaticFolders([fx.root]);
		const reader = new NodeFileSystem();
		const scope = new WorkspaceScope(folders, server.files, reader);
		registry = new ProviderRegistry([
			new OutlineProvider(outline, scope, folders, server.files, FILE_TEMPLATE, { throttleMs: 10 }),
			new RangesProvider({ files: server.files, scope, reader, outline, documents }),
			server.files,
		], { debounceMs: 5, maxDelayMs: 20, listChangedIntervalMs: 0 });
		conn = await connectInMemory(registry);
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
		fx.dispose();
	});

	const text = async (uri: string) => {
		const { contents } = await conn.client.readResource({ uri });
		return (contents[0] as { text: string }).text;
	};

	it('read a line range, a symbol by dotted name, and the unsaved text of a dirty file', async () => {
		const uri = fileUri(file);
		assert.equal(await text(`${uri}?lines=2-4`), '  greet() {\n    return "hi";\n  }\n');
		assert.equal(await text(`${uri}?lines=7`), 'function main() {\n');
		assert.equal(await text(`${uri}?symbol=Greeter.greet`), '  greet() {\n    return "hi";\n  }\n');
		assert.equal(await text(`${uri}?symbol=main`), 'function main() {\n  new Greeter().greet();\n}\n');
		const { contents } = await conn.client.readResource({ uri: `${uri}?lines=1` });
		assert.equal(contents[0].uri, `${uri}?lines=1`);
		assert.equal(contents[0].mimeType, 'text/x-typescript');
		documents.edit(file, '// unsaved\n' + SOURCE);
		assert.equal(await text(`${uri}?lines=1-2`), '// unsaved\nclass Greeter {\n');
	});

	it('read a range of a file over the read cap, which a whole read refuses', async () => {
		const big = fx.write('src/big.log.txt', Array.from({ length: 400 }, (_, i) => `row ${i + 1}`).join('\n') + '\n');
		const whole = await errorOf(conn.client.readResource({ uri: fileUri(big) }));
		assert.match(whole.message, /over the 1 KB limit/);
		assert.equal(await text(`${fileUri(big)}?lines=300-301`), 'row 300\nrow 301\n');
	});

	it('say where a range was cut at 5,000 lines and which lines come next; a range that fits has no marker', async () => {
		const rows = fx.write('src/rows.txt', Array.from({ length: 6000 }, (_, i) => `r${i + 1}`).join('\n') + '\n');
		const open = await text(`${fileUri(rows)}?lines=1-`);
		assert.ok(open.startsWith('r1\nr2\n') && open.includes('\nr5000\n') && !open.includes('r5001'));
		assert.ok(open.endsWith('\nr5000\n[... 1,000 more lines cut here: a range returns at most 5,000; read lines=5001- next ...]\n'), open.slice(-200));
		const closed = await text(`${fileUri(rows)}?lines=2-5002`);
		assert.ok(closed.endsWith('\nr5001\n[... 1 more line cut here: a range returns at most 5,000; read lines=5002-5002 next ...]\n'), closed.slice(-200));
		const fits = await text(`${fileUri(rows)}?lines=1001-6000`);
		assert.ok(fits.endsWith('\nr6000\n') && !fits.includes('[...'), fits.slice(-200));
	});

	it('read a range of unsaved text over the read cap, which a whole read refuses as it refuses the file', async () => {
		const uri = fileUri(file);
		const rows = Array.from({ length: 400 }, (_, i) => `unsaved ${i + 1}`).join('\n') + '\n';
		documents.edit(file, rows);
		const whole = await errorOf(conn.client.readResource({ uri }));
		assert.match(whole.message, /over the 1 KB limit/);
		assert.equal(await text(`${uri}?lines=300-301`), 'unsaved 300\nunsaved 301\n', 'the editor\'s text, not the disk\'s');
	});

	it('name the URI sent, with its query, when a file is too large even for a range', async () => {
		const huge = fx.write('src/huge.txt', 'x'.repeat(MAX_RANGE_SOURCE_BYTES + 1));
		const uri = `${fileUri(huge)}?lines=1`;
		const err = await errorOf(conn.client.readResource({ uri }));
		assert.deepEqual([err.code, err.data], [-32600, { uri, size: MAX_RANGE_SOURCE_BYTES + 1, limit: 1024, setting: 'mcpResources.maxFileSize' }]);
	});

	it('say no read takes a file over 16 MB, rather than to raise the read cap or read ranges, whatever the cap', async () => {
		const huge = fx.write('src/huge.txt', 'x'.repeat(MAX_RANGE_SOURCE_BYTES + 1));
		const range = await errorOf(conn.client.readResource({ uri: `${fileUri(huge)}?lines=1` }));
		assert.match(range.message, /no read takes a file over 16 MB, whole or in ranges/);
		assert.doesNotMatch(range.message, /raise/);
		// A read cap set above 16 MB: the whole read is over the answer budget, and ranges refuse it too.
		const wide = createTestServer([fx.root], { settings: { maxFileSize: 4 * MAX_RANGE_SOURCE_BYTES } });
		const folders = new StaticFolders([fx.root]);
		const reader = new NodeFileSystem();
		const wideRegistry = new ProviderRegistry([
			new RangesProvider({ files: wide.files, scope: new WorkspaceScope(folders, wide.files, reader), reader, outline }),
			wide.files,
		], { debounceMs: 5, maxDelayMs: 20, listChangedIntervalMs: 0 });
		const wideConn = await connectInMemory(wideRegistry);
		try {
			for (const uri of [fileUri(huge), `${fileUri(huge)}?lines=1`]) {
				const err = await errorOf(wideConn.client.readResource({ uri }));
				assert.equal(err.code, -32600, uri);
				assert.match(err.message, /no read takes a file over 16 MB, whole or in ranges/, uri);
				assert.doesNotMatch(err.message, /raise|read it in ranges/, uri);
			}
		} finally {
			await wideConn.close();
			wideRegistry.dispose();
		}
	});

	it('name the URI sent, with its query, when the editor has no outline for the file', async () => {
		const uri = `${fileUri(file)}?symbol=main`;
		outline.symbols = async () => undefined; // as the editor answers once the file is gone
		const err = await errorOf(conn.client.readResource({ uri }));
		assert.deepEqual([err.code, err.data], [-32602, { uri }]);
	});

	it('name the URI sent, with its query, when a subscription to a range of a refused file is refused', async () => {
		for (const rel of ['.env', 'build/out.js', 'src/missing.ts', 'src']) {
			for (const query of ['lines=1', 'symbol=main']) {
				const uri = `${fileUri(fx.file(rel))}?${query}`;
				const err = await errorOf(conn.client.subscribeResource({ uri }));
				assert.deepEqual([err.code, err.data], [-32602, { uri }], `${rel}?${query}`);
			}
		}
	});

	it('refuse what a whole read refuses (secrets, ignored, outside), and say what a bad query should be', async () => {
		for (const rel of ['.env', 'build/out.js', 'link-outside-file']) {
			const err = await errorOf(conn.client.readResource({ uri: `${fileUri(fx.file(rel))}?lines=1` }));
			assert.ok(err.code === -32002 || err.code === -32602, `${rel}: ${JSON.stringify(err)}`);
			assert.ok(!JSON.stringify(err).includes(fx.outside), 'no outside path');
			assert.ok(!/hunter2|ignored|root:x/.test(JSON.stringify(err)), 'no content');
		}
		const outside = await errorOf(conn.client.readResource({ uri: `${fileUri(fx.outside)}/passwd?lines=1` }));
		assert.ok(outside.code === -32002 || outside.code === -32602);
		assert.match((await errorOf(conn.client.readResource({ uri: `${fileUri(file)}?lines=0` }))).message, /N, N-M or N-/);
		assert.match((await errorOf(conn.client.readResource({ uri: `${fileUri(file)}?lines=99` }))).message, /past the end: the file has 9 lines/);
		assert.match((await errorOf(conn.client.readResource({ uri: `${fileUri(file)}?foo=1` }))).message, /\?lines=N-M or \?symbol=NAME/);
		assert.match((await errorOf(conn.client.readResource({ uri: `${fileUri(file)}?symbol=nope` }))).message, /No symbol "nope" in this file; it has Greeter, Greeter.greet, main/);
		assert.match((await errorOf(conn.client.readResource({ uri: `${fileUri(fx.file('images/pixel.png'))}?lines=1` }))).message, /binary/);
	});

	it('notify a subscribed range when its file changes', async () => {
		const uri = `${fileUri(file)}?lines=1-2`;
		await conn.client.subscribeResource({ uri });
		documents.edit(file, '// typed\n' + SOURCE);
		await conn.waitForUpdate(uri);
	});

	it('notify a subscribed range of a file spelled otherwise than its listed URI', async () => {
		const uri = `${fileUri(file).replace('file://', 'file://localhost')}?lines=1-2`;
		await conn.client.subscribeResource({ uri });
		documents.edit(file, '// typed\n' + SOURCE);
		await conn.waitForUpdate(uri);
	});

	it('serve the outline of a file by the template, each symbol with its range URI, list none, and notify it on edits', async () => {
		outline.setOpen([file, fx.file('.env')]);
		const { resources } = await conn.client.listResources();
		assert.deepEqual(resources.filter(r => r.uri.startsWith('outline:')), [], 'outlines are not listed: opening a document changes no list');
		const body = await readJson(conn, 'outline://file/src/greeter.ts') as { file: string; symbols: { name: string; kind: string; lines: string; uri: string; children?: { name: string; uri: string }[] }[] };
		assert.equal(body.file, 'src/greeter.ts');
		assert.deepEqual(body.symbols.map(s => [s.name, s.kind, s.lines]), [['Greeter', 'Class', '1-5'], ['main', 'Function', '7-9']]);
		assert.equal(body.symbols[0].children![0].uri, `${fileUri(file)}?lines=2-4`);
		assert.equal(await text(body.symbols[1].uri), 'function main() {\n  new Greeter().greet();\n}\n');
		await conn.client.subscribeResource({ uri: 'outline://file/src/greeter.ts' });
		outline.edit(file);
		await conn.waitForUpdate('outline://file/src/greeter.ts');
		const missing = await errorOf(conn.client.readResource({ uri: 'outline://file/src/no-such-file.ts' }));
		assert.deepEqual([missing.code, missing.data], [-32602, { uri: 'outline://file/src/no-such-file.ts' }], 'a typo\'d path is not found');
		const secret = await errorOf(conn.client.readResource({ uri: 'outline://file/.env' }));
		assert.ok(secret.code === -32002 || secret.code === -32602);
		assert.ok(!outline.asked.includes(fx.file('.env')), 'a refused file\'s outline is never asked for');
	});

	it('refuse an outline URI with a query or a fragment in read and subscribe alike, as problems URIs do', async () => {
		for (const uri of ['outline://file/src/greeter.ts?lines=1', 'outline://file/src/greeter.ts#top', 'outline://file/src/greeter.ts?']) {
			assert.equal((await errorOf(conn.client.readResource({ uri }))).code, -32602, uri);
			const subscribe = await errorOf(conn.client.subscribeResource({ uri }));
			assert.deepEqual([subscribe.code, subscribe.data], [-32602, { uri }], `${uri} is not taken for updates either`);
		}
	});

	it('refuse a subscription to the outline of a directory or a link to one; a file that may appear is watched', async () => {
		symlinkSync(fx.file('src'), fx.file('src-link'));
		for (const uri of ['outline://file/src', 'outline://file/src-link']) {
			const sub = await errorOf(conn.client.subscribeResource({ uri }));
			assert.deepEqual([sub.code, sub.data], [-32602, { uri }], `subscribe ${uri}`);
		}
		await conn.client.subscribeResource({ uri: 'outline://file/src/not-yet.ts' });
	});

	it('notify an outline by the URI exactly as the client expanded the template (@ and + kept raw)', async () => {
		const scoped = fx.write('packages/@scope/a+b.ts', SOURCE);
		// RFC 6570 (the SDK's UriTemplate) expands outline://file/{+path} keeping @ and + raw.
		const uri = 'outline://file/packages/@scope/a+b.ts';
		await conn.client.subscribeResource({ uri });
		outline.edit(scoped);
		await conn.waitForUpdate(uri);
	});

	it('offer templates with completion for paths and symbol names', async () => {
		const { resourceTemplates } = await conn.client.listResourceTemplates();
		assert.deepEqual(resourceTemplates.map(t => t.uriTemplate).sort(), ['file:///{+path}', 'file:///{+path}{?lines}', 'file:///{+path}{?symbol}', 'outline://file/{+path}']);
		const paths = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'outline://file/{+path}' }, argument: { name: 'path', value: 'src/gr' } });
		assert.deepEqual(paths.completion.values, ['src/greeter.ts']);
		outline.setOpen([fx.file('README.md'), fx.file('.env')]);
		const openFirst = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'outline://file/{+path}' }, argument: { name: 'path', value: '' } });
		assert.equal(openFirst.completion.values[0], 'README.md', 'open files first');
		assert.ok(!openFirst.completion.values.includes('.env'), 'a secret open in the editor is not offered');
		const symbols = await conn.client.complete({
			ref: { type: 'ref/resource', uri: 'file:///{+path}{?symbol}' }, argument: { name: 'symbol', value: 'gre' },
			context: { arguments: { path: file.slice(1) } },
		});
		assert.deepEqual(symbols.completion.values, ['Greeter', 'Greeter.greet']);
		// Rust's `struct Counter` and `impl Counter` are siblings of one name: offered once, each method once.
		const counter = fx.write('src/counter.rs', 'pub struct Counter {}\nimpl Counter {\n    fn new() {}\n    fn add() {}\n}\n');
		outline.set(counter, [sym('Counter', 'Struct', 0, 0), sym('Counter', 'Object', 1, 4, [sym('new', 'Method', 2, 2), sym('add', 'Method', 3, 3)])]);
		const siblings = await conn.client.complete({
			ref: { type: 'ref/resource', uri: 'file:///{+path}{?symbol}' }, argument: { name: 'symbol', value: 'count' },
			context: { arguments: { path: counter.slice(1) } },
		});
		assert.deepEqual(siblings.completion.values, ['Counter', 'Counter.new', 'Counter.add']);
		const linePaths = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'file:///{+path}{?lines}' }, argument: { name: 'path', value: file.slice(1, -3) } });
		assert.ok(linePaths.completion.values.includes(file.slice(1)), JSON.stringify(linePaths.completion.values));
		const secretSymbols = await conn.client.complete({
			ref: { type: 'ref/resource', uri: 'file:///{+path}{?symbol}' }, argument: { name: 'symbol', value: '' },
			context: { arguments: { path: fx.file('.env').slice(1) } },
		});
		assert.deepEqual(secretSymbols.completion.values, []);
	});
});
