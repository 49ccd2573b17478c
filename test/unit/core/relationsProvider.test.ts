import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { FILE_TEMPLATE } from '../../../src/core/files/filesProvider';
import { OutlineProvider } from '../../../src/core/outline/outlineProvider';
import { ProviderRegistry } from '../../../src/core/registry';
import { RelationsProvider } from '../../../src/core/symbols/relationsProvider';
import { WorkspaceSymbolsProvider } from '../../../src/core/symbols/workspaceSymbolsProvider';
import { fileUri } from '../../../src/core/uriGuard';
import { WorkspaceScope } from '../../../src/core/workspaceScope';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { StaticFolders } from '../../../src/node/staticSources';
import { at, FakeRelations, FakeWorkspaceSymbols } from '../../fakes/fakeLanguageServices';
import { FakeOutline, sym } from '../../fakes/fakeOutline';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { connectInMemory, ConnectedClient, createTestServer, errorOf, TestServer } from '../../helpers/harness';
import { readJson } from '../../helpers/readJson';

const GREETER = ['export class Greeter {', '  greet(): string {', '    return "hi";', '  }', '}', ''].join('\n');
const MAIN = ['import { Greeter } from "./greeter";', 'new Greeter().greet();', 'export const again = () => new Greeter().greet();', ''].join('\n');

interface Relations {
	relation: string;
	symbol: { path: string; name?: string; line: number; character: number };
	items: { name?: string; path: string; line: number; column: number; text: string; uri: string }[];
	complete: boolean;
}

/**
 * Relations and workspace symbols as the editor's language services answer them (fakes of the
 * ports), through an SDK client: the served-or-not rule over whatever they return, bounds, bad
 * input, and live answers told only when they change.
 */
describe('symbol relations and workspace symbols from language services', () => {
	let fx: Fixture;
	let server: TestServer;
	let outline: FakeOutline;
	let relations: FakeRelations;
	let symbols: FakeWorkspaceSymbols;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;
	let greeter: string;
	let main: string;

	beforeEach(async () => {
		fx = createFixture();
		greeter = fx.write('src/greeter.ts', GREETER);
		main = fx.write('src/main.ts', MAIN);
		server = createTestServer([fx.root]);
		outline = new FakeOutline();
		outline.set(greeter, [sym('Greeter', 'Class', 0, 4, [{ ...sym('greet', 'Method', 1, 3), selectionRange: { start: { line: 1, character: 2 }, end: { line: 1, character: 7 } } }])]);
		relations = new FakeRelations();
		symbols = new FakeWorkspaceSymbols();
		const folders = new StaticFolders([fx.root]);
		const reader = new NodeFileSystem();
		const scope = new WorkspaceScope(folders, server.files, reader);
		registry = new ProviderRegistry([
			new WorkspaceSymbolsProvider(symbols, scope, { budgetMs: 3_000, throttleMs: 10 }),
			new RelationsProvider({ source: relations, scope, outline, files: server.files, throttleMs: 10 }),
			new OutlineProvider(outline, scope, folders, server.files, FILE_TEMPLATE, { throttleMs: 10 }),
			server.files,
		], { debounceMs: 5, maxDelayMs: 20, listChangedIntervalMs: 0 });
		conn = await connectInMemory(registry);
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
		fx.dispose();
	});

	it('references of symbol=Class.method: asked at its name, items with path, line, column, line text and range URI', async () => {
		relations.answers.set('references', [at(main, 2, 38, 5), at(main, 1, 14, 5), at(greeter, 1, 2, 5)]);
		const body = await readJson(conn, 'symbols://references/src/greeter.ts?symbol=Greeter.greet') as Relations;
		assert.deepEqual(relations.asked, [{ relation: 'references', absPath: greeter, position: { line: 1, character: 2 } }]);
		assert.deepEqual(body.symbol, { path: 'src/greeter.ts', name: 'Greeter.greet', line: 2, character: 3 });
		assert.deepEqual(body.items, [
			{ path: 'src/greeter.ts', line: 2, column: 3, text: 'greet(): string {', uri: `${fileUri(greeter)}?lines=2` },
			{ path: 'src/main.ts', line: 2, column: 15, text: 'new Greeter().greet();', uri: `${fileUri(main)}?lines=2` },
			{ path: 'src/main.ts', line: 3, column: 39, text: 'export const again = () => new Greeter().greet();', uri: `${fileUri(main)}?lines=3` },
		]);
		assert.equal(body.complete, true);
	});

	it('by line and character (1-based), calls carry the caller\'s name, and max bounds the items', async () => {
		relations.answers.set('incoming-calls', [at(main, 1, 0, 3, 'main'), at(main, 2, 13, 5, 'again')]);
		const body = await readJson(conn, 'symbols://incoming-calls/src/greeter.ts?line=2&character=3&max=1') as Relations;
		assert.deepEqual(relations.asked.map(a => a.position), [{ line: 1, character: 2 }]);
		assert.deepEqual(body.items.map(i => [i.name, i.line]), [['main', 2]]);
		assert.equal(body.complete, false);
	});

	it('never names a secret, ignored or outside file a language service returns', async () => {
		const hidden = [fx.file('.env'), fx.file('build/out.js'), fx.file('debug.log'), path.join(fx.outside, 'passwd'), fx.file('link-outside-file')];
		relations.answers.set('definitions', [...hidden.map(p => at(p, 0, 0)), at(greeter, 0, 13, 7)]);
		const body = await readJson(conn, 'symbols://definitions/src/main.ts?line=2&character=5') as Relations;
		assert.deepEqual(body.items.map(i => i.path), ['src/greeter.ts']);
		assert.equal(body.complete, true);
		assert.ok(!JSON.stringify(body).includes('hunter2') && !JSON.stringify(body).includes('outside'));
		symbols.symbols = [...hidden.map(p => ({ name: 'greetSecret', kind: 'Function', absPath: p, range: at(p, 0, 0).range })),
			{ name: 'greet', kind: 'Method', container: 'Greeter', absPath: greeter, range: { start: { line: 1, character: 2 }, end: { line: 3, character: 3 } } }];
		const found = await readJson(conn, 'symbols://workspace?q=greet') as { symbols: { name: string; path: string; uri: string }[]; complete: boolean };
		assert.deepEqual(found.symbols, [{ name: 'greet', kind: 'Method', container: 'Greeter', path: 'src/greeter.ts', line: 2, uri: `${fileUri(greeter)}?lines=2-4` }]);
	});

	it('workspace symbols from a language server are ranked, narrowed by kind and bounded by max', async () => {
		const s = (name: string, kind: string, line: number) => ({ name, kind, absPath: greeter, range: { start: { line, character: 0 }, end: { line, character: 1 } } });
		symbols.symbols = [s('greeting', 'Variable', 3), s('toGreet', 'Function', 2), s('Greet', 'Class', 0), s('gxrxext', 'Function', 1)];
		const all = await readJson(conn, 'symbols://workspace?q=GREET') as { symbols: { name: string }[]; complete: boolean };
		assert.deepEqual(all.symbols.map(x => x.name), ['Greet', 'greeting', 'toGreet', 'gxrxext']);
		assert.deepEqual(symbols.queries, ['greet']);
		const functions = await readJson(conn, 'symbols://workspace?q=greet&kind=function&max=1') as { symbols: { name: string }[]; complete: boolean };
		assert.deepEqual(functions, { symbols: [{ name: 'toGreet', kind: 'Function', path: 'src/greeter.ts', line: 3, uri: `${fileUri(greeter)}?lines=3` }], complete: false });
	});

	it('bad input is -32602 saying what to do; a file not served is not found', async () => {
		const cases: [string, RegExp][] = [
			['symbols://callers/src/greeter.ts?symbol=Greeter', /Unknown relation "callers".*definitions, references, implementations, type-definitions, incoming-calls, outgoing-calls/],
			['symbols://references/src/greeter.ts', /symbol=NAME .* or by line=N&character=M/],
			['symbols://references/src/greeter.ts?symbol=Greeter&line=1&character=1', /one of the two/],
			['symbols://references/src/greeter.ts?line=2', /one of the two/],
			['symbols://references/src/greeter.ts?line=0&character=1', /Invalid line "0"/],
			['symbols://references/src/greeter.ts?symbol=Nope', /No symbol "Nope" in src\/greeter.ts; it has Greeter, Greeter.greet/],
			['symbols://references/src/greeter.ts?symbol=Greeter&max=5000', /Invalid max/],
			['symbols://references/src/greeter.ts?symbol=Greeter&depth=2', /Unknown parameter "depth"/],
		];
		for (const [uri, message] of cases) {
			const err = await errorOf(conn.client.readResource({ uri }));
			assert.equal(err.code, -32602, uri);
			assert.match(err.message, message, uri);
		}
		for (const uri of ['symbols://references/.env?line=1&character=1', 'symbols://references/build/out.js?line=1&character=1', 'symbols://references/src/../../outside/passwd?line=1&character=1']) {
			const err = await errorOf(conn.client.readResource({ uri }));
			assert.ok(err.code === -32002 || err.code === -32602, uri);
			assert.doesNotMatch(err.message, /hunter2|passwd/);
		}
		assert.deepEqual(relations.asked, [], 'no bad question reaches the language services');
	});

	it('a subscribed relation is told when a file it involves changes its answer, not for other files or equal answers', async () => {
		const uri = 'symbols://references/src/greeter.ts?symbol=Greeter';
		relations.answers.set('references', [at(greeter, 0, 13, 7)]);
		await conn.client.subscribeResource({ uri });
		const askedBefore = relations.asked.length;
		// An uninvolved file changes: not asked again, not told.
		const other = fx.write('src/other.ts', 'export {};\n');
		server.watcher.fire({ kind: 'changed', path: other });
		// An involved file changes but the answer does not: asked again, not told.
		server.watcher.fire({ kind: 'changed', path: greeter });
		await until(() => relations.asked.length > askedBefore, 'the relation asked again');
		assert.equal(relations.asked.length, askedBefore + 1, 'only the involved file asked it again');
		// Now the answer changes with a change of the involved file: told once.
		relations.answers.set('references', [at(greeter, 0, 13, 7), at(main, 1, 4, 7)]);
		server.watcher.fire({ kind: 'changed', path: greeter });
		await conn.waitForUpdate(uri);
		assert.deepEqual(conn.updates.filter(u => u === uri), [uri]);
		const body = await readJson(conn, uri) as Relations;
		assert.deepEqual(body.items.map(i => i.path), ['src/greeter.ts', 'src/main.ts']);
	});

	it('a subscribed symbol search is told when the services\' answer changes, not when it stays', async () => {
		const uri = 'symbols://workspace?q=greet';
		symbols.symbols = [{ name: 'greet', kind: 'Method', absPath: greeter, range: at(greeter, 1, 2).range }];
		await conn.client.subscribeResource({ uri });
		const asked = symbols.queries.length;
		symbols.changed();
		await until(() => symbols.queries.length > asked, 'the search asked again');
		symbols.symbols = [...symbols.symbols, { name: 'greetAll', kind: 'Function', absPath: main, range: at(main, 2, 0).range }];
		symbols.changed();
		await conn.waitForUpdate(uri);
		assert.deepEqual(conn.updates.filter(u => u === uri), [uri]);
	});
});

/** Resolves once `holds()` is true, looking again on each turn of a short timer; fails after 5 s. */
async function until(holds: () => boolean, what: string): Promise<void> {
	const deadline = Date.now() + 5_000;
	while (!holds()) {
		assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
		await new Promise(resolve => setTimeout(resolve, 5)); // the next look at a condition, not a wait standing in for it
	}
}

describe('symbol relations without an editor', () => {
	it('offer no template, and reading one says the editor is needed', async () => {
		const fx = createFixture();
		const server = createTestServer([fx.root]);
		const scope = new WorkspaceScope(new StaticFolders([fx.root]), server.files, new NodeFileSystem());
		const provider = new RelationsProvider({ scope, files: server.files });
		const registry = new ProviderRegistry([provider, server.files]);
		const conn = await connectInMemory(registry);
		try {
			assert.deepEqual(provider.templates(), []);
			assert.match(provider.summary, /need the editor's language services/);
			const err = await errorOf(conn.client.readResource({ uri: 'symbols://references/src/index.ts?line=1&character=14' }));
			assert.equal(err.code, -32602);
			assert.match(err.message, /Every use of the symbol needs the editor's language services: this host has none/);
		} finally {
			await conn.close();
			registry.dispose();
			server.dispose();
			fx.dispose();
		}
	});
});
