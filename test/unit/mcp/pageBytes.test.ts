import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { ProviderRegistry } from '../../../src/core/registry';
import { createHeadlessRegistry } from '../../../src/node/headless';
import { serveStdioConnection, StdioConnection } from '../../../src/mcp/stdio/serveStdioConnection';
import { StdioTransport } from '../../../src/mcp/stdio/stdioTransport';
import { VERSION } from '../../../src/version';
import { FakeWatcher } from '../../fakes/fakeWatcher';
import { fastTracker, RecordingLogger } from '../../helpers/harness';

/**
 * 2001-09-09T01:46:40Z, and a quarter second more for each file: fractions a double holds
 * exactly, so every file system keeps them, and files both sharing a second and not.
 */
const MTIME_S = 1_000_000_000;

const FILES: readonly [string, string][] = [
	['README.md', '# Pinned\n'],
	['src/index.ts', 'export const answer = 42;\n'],
	['src/ünï cödé.txt', 'unicode name\n'],
	['src/a&b #1.json', '{}\n'],
	['docs/guide.md', 'guide\n'],
];

/** Raw lines in, raw lines out: the stdio server exactly as a client's pipe sees it. */
class PipeClient {
	readonly toServer = new PassThrough();
	readonly fromServer = new PassThrough();
	private text = '';
	private waiting: (() => void) | undefined;

	constructor() {
		this.fromServer.setEncoding('utf8');
		this.fromServer.on('data', (chunk: string) => {
			this.text += chunk;
			this.waiting?.();
		});
	}

	/** Sends one message and returns the next line the server writes, newline included. */
	async call(message: object): Promise<string> {
		this.toServer.write(`${JSON.stringify(message)}\n`);
		let end: number;
		while ((end = this.text.indexOf('\n')) < 0) {
			await new Promise<void>(resolve => { this.waiting = resolve; });
		}
		const line = this.text.slice(0, end + 1);
		this.text = this.text.slice(end + 1);
		return line;
	}
}

const MODERN_META = {
	'io.modelcontextprotocol/protocolVersion': '2026-07-28',
	'io.modelcontextprotocol/clientCapabilities': {},
	'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

/** The pinned workspace served over a raw stdio pipe, `pageSize` entries a page. */
class PinnedWorkspace {
	readonly base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-page-bytes-')));
	readonly root = path.join(this.base, 'ws');
	readonly registry: ProviderRegistry;
	readonly client = new PipeClient();
	private readonly host: StdioConnection;

	constructor(pageSize: number) {
		FILES.forEach(([rel, text], i) => {
			const abs = path.join(this.root, rel);
			mkdirSync(path.dirname(abs), { recursive: true });
			writeFileSync(abs, text);
			utimesSync(abs, MTIME_S + i / 4, MTIME_S + i / 4);
		});
		({ registry: this.registry } = createHeadlessRegistry({ roots: [this.root], log: new RecordingLogger(), watcher: new FakeWatcher(), trackerOptions: fastTracker }));
		this.host = serveStdioConnection({ registry: this.registry, log: new RecordingLogger(), pageSize }, new StdioTransport(this.client.toServer, this.client.fromServer));
	}

	/**
	 * The line with the workspace's URI replaced by `ROOT` (in cursors too, which carry it in
	 * base64url), and inline icon data by `ICON` (the icons test pins those), and the
	 * build's version by `VERSION`.
	 */
	pinned(line: string): string {
		return line
			.replace(/"nextCursor":"c1\.([A-Za-z0-9_-]+)"/g, (_, state: string) => `"nextCursor":"c1.<${Buffer.from(state, 'base64url').toString('utf8')}>"`)
			.split(pathToFileURL(this.root).href).join('ROOT')
			.replace(/"data:image\/png;base64,[^"]*"/g, '"ICON"')
			.split(`"version":${JSON.stringify(VERSION)}`).join('"version":"VERSION"');
	}

	async dispose(): Promise<void> {
		await this.host.close();
		this.registry.dispose();
		rmSync(this.base, { recursive: true, force: true });
	}
}

const cursorOf = (line: string) => (JSON.parse(line) as { result: { nextCursor: string } }).result.nextCursor;
const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };

/**
 * The exact bytes of `resources/list` pages on the wire, in both eras: the listing path is tuned
 * for speed (entries built from the compact index, annotated in place, written in one call), and
 * none of that may change a byte a client receives. The workspace's own URI is the only part
 * replaced, by `ROOT`.
 */
describe('resources/list bytes on the wire (stdio, both eras)', () => {
	let workspace: PinnedWorkspace;
	let client: PipeClient;
	let pinned: (line: string) => string;

	beforeEach(() => {
		workspace = new PinnedWorkspace(3);
		client = workspace.client;
		pinned = line => workspace.pinned(line);
	});
	afterEach(() => workspace.dispose());

	it('2025: every page of a listing, cursors included', async () => {
		await client.call(INITIALIZE);
		client.toServer.write(`${JSON.stringify(INITIALIZED)}\n`);
		const first = await client.call({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: {} });
		assert.equal(pinned(first), LEGACY_FIRST);
		const second = await client.call({ jsonrpc: '2.0', id: 2, method: 'resources/list', params: { cursor: cursorOf(first) } });
		assert.equal(pinned(second), LEGACY_SECOND);
	});

	it('2026-07-28: every page of a listing, cursors and result metadata included', async () => {
		const first = await client.call({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: { _meta: MODERN_META } });
		assert.equal(pinned(first), MODERN_FIRST);
		const second = await client.call({ jsonrpc: '2.0', id: 2, method: 'resources/list', params: { _meta: MODERN_META, cursor: cursorOf(first) } });
		assert.equal(pinned(second), MODERN_SECOND);
	});
});

/** A page prepared ahead (while the client read the one before) goes out as the page built at its request. */
describe('resources/list bytes of a page prepared ahead (stdio, both eras)', () => {
	let workspace: PinnedWorkspace;
	beforeEach(() => { workspace = new PinnedWorkspace(2); });
	afterEach(() => workspace.dispose());

	/** Walks to the third page (prepared while the second was read), then asks for it again (built at the request). */
	async function thirdPageTwice(params: Record<string, unknown>): Promise<{ prepared: string; built: string }> {
		const { client } = workspace;
		const first = await client.call({ jsonrpc: '2.0', id: 1, method: 'resources/list', params });
		const second = await client.call({ jsonrpc: '2.0', id: 2, method: 'resources/list', params: { ...params, cursor: cursorOf(first) } });
		for (let turn = 0; turn < 10; turn++) {
			await new Promise(resolve => setImmediate(resolve)); // the third page is prepared meanwhile
		}
		const third = { jsonrpc: '2.0', id: 3, method: 'resources/list', params: { ...params, cursor: cursorOf(second) } };
		const prepared = await client.call(third);
		return { prepared, built: await client.call(third) };
	}

	it('2025: the third page, prepared ahead, is the page built at its request', async () => {
		await workspace.client.call(INITIALIZE);
		workspace.client.toServer.write(`${JSON.stringify(INITIALIZED)}\n`);
		const { prepared, built } = await thirdPageTwice({});
		assert.equal(prepared, built);
		assert.equal(workspace.pinned(prepared), LEGACY_THIRD_OF_TWO);
	});

	it('2026-07-28: the third page, prepared ahead, is the page built at its request', async () => {
		const { prepared, built } = await thirdPageTwice({ _meta: MODERN_META });
		assert.equal(prepared, built);
		assert.equal(workspace.pinned(prepared), MODERN_THIRD_OF_TWO);
	});
});

/**
 * The other answers of 2026-07-28 on the wire: the members that era adds (`resultType`, the cache
 * fields of cacheable results, the server's identity in `_meta`), as the SDK's encoder writes them.
 */
describe('2026-07-28 answers other than listings, on the wire (stdio)', () => {
	let workspace: PinnedWorkspace;
	beforeEach(() => { workspace = new PinnedWorkspace(3); });
	afterEach(() => workspace.dispose());

	it('read, templates, tools, prompts and completion carry the era\'s members as the SDK writes them', async () => {
		const call = async (id: number, method: string, params: Record<string, unknown> = {}) =>
			workspace.pinned(await workspace.client.call({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } }));
		assert.equal(await call(1, 'resources/read', { uri: `${pathToFileURL(workspace.root).href}/README.md` }), MODERN_READ);
		const templates = await call(2, 'resources/templates/list');
		assert.ok(templates.startsWith('{"result":{"resourceTemplates":[{'), templates);
		assert.ok(templates.endsWith(MODERN_TEMPLATES_END), templates.slice(-300));
		const tools = await call(3, 'tools/list');
		assert.ok(tools.startsWith('{"result":{"tools":[{"name":"list_resources",'), tools.slice(0, 300));
		assert.ok(tools.endsWith(MODERN_TOOLS_END), tools.slice(-300));
		assert.equal(await call(4, 'prompts/list'), MODERN_PROMPTS);
		const completion = await call(5, 'completion/complete', { ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: 'REA' } });
		assert.equal(completion.split(workspace.root.slice(1)).join('WS'), MODERN_COMPLETION);
	});
});

const LEGACY_FIRST = '{"result":{"resources":[{"uri":"context://relevant","name":"relevant now","title":"Relevant now","description":"The 20 files that matter most right now (active and visible editors, recent edits, problems, git changes), ranked, each with its reasons. Subscribe to hear when the ranking changes.","mimeType":"application/json","annotations":{"priority":1,"audience":["assistant","user"]},"icons":[{"src":"ICON","mimeType":"image/png","sizes":["32x32"]}]},{"uri":"ROOT/README.md","name":"README.md","mimeType":"text/markdown","size":9,"annotations":{"lastModified":"2001-09-09T01:46:40.000Z","priority":0.2}},{"uri":"ROOT/docs/guide.md","name":"docs/guide.md","mimeType":"text/markdown","size":6,"annotations":{"lastModified":"2001-09-09T01:46:41.000Z","priority":0.2}}],"nextCursor":"c1.<{"s":"files","a":"ROOT/docs/guide.md"}>"},"jsonrpc":"2.0","id":1}\n';
const LEGACY_SECOND = '{"result":{"resources":[{"uri":"ROOT/src/%C3%BCn%C3%AF%20c%C3%B6d%C3%A9.txt","name":"src/ünï cödé.txt","mimeType":"text/plain","size":13,"annotations":{"lastModified":"2001-09-09T01:46:40.500Z","priority":0.2}},{"uri":"ROOT/src/a&b%20%231.json","name":"src/a&b #1.json","mimeType":"application/json","size":3,"annotations":{"lastModified":"2001-09-09T01:46:40.750Z","priority":0.2}},{"uri":"ROOT/src/index.ts","name":"src/index.ts","mimeType":"text/x-typescript","size":26,"annotations":{"lastModified":"2001-09-09T01:46:40.250Z","priority":0.2}}]},"jsonrpc":"2.0","id":2}\n';
const MODERN_FIRST = '{"result":{"resources":[{"uri":"context://relevant","name":"relevant now","title":"Relevant now","description":"The 20 files that matter most right now (active and visible editors, recent edits, problems, git changes), ranked, each with its reasons. Subscribe to hear when the ranking changes.","mimeType":"application/json","annotations":{"priority":1,"audience":["assistant","user"]},"icons":[{"src":"ICON","mimeType":"image/png","sizes":["32x32"]}]},{"uri":"ROOT/README.md","name":"README.md","mimeType":"text/markdown","size":9,"annotations":{"lastModified":"2001-09-09T01:46:40.000Z","priority":0.2}},{"uri":"ROOT/docs/guide.md","name":"docs/guide.md","mimeType":"text/markdown","size":6,"annotations":{"lastModified":"2001-09-09T01:46:41.000Z","priority":0.2}}],"nextCursor":"c1.<{"s":"files","a":"ROOT/docs/guide.md"}>","resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-workspace-resources","title":"MCP Workspace Resources","version":"VERSION"}}},"jsonrpc":"2.0","id":1}\n';
const MODERN_SECOND = '{"result":{"resources":[{"uri":"ROOT/src/%C3%BCn%C3%AF%20c%C3%B6d%C3%A9.txt","name":"src/ünï cödé.txt","mimeType":"text/plain","size":13,"annotations":{"lastModified":"2001-09-09T01:46:40.500Z","priority":0.2}},{"uri":"ROOT/src/a&b%20%231.json","name":"src/a&b #1.json","mimeType":"application/json","size":3,"annotations":{"lastModified":"2001-09-09T01:46:40.750Z","priority":0.2}},{"uri":"ROOT/src/index.ts","name":"src/index.ts","mimeType":"text/x-typescript","size":26,"annotations":{"lastModified":"2001-09-09T01:46:40.250Z","priority":0.2}}],"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-workspace-resources","title":"MCP Workspace Resources","version":"VERSION"}}},"jsonrpc":"2.0","id":2}\n';
const LEGACY_THIRD_OF_TWO = '{"result":{"resources":[{"uri":"ROOT/src/a&b%20%231.json","name":"src/a&b #1.json","mimeType":"application/json","size":3,"annotations":{"lastModified":"2001-09-09T01:46:40.750Z","priority":0.2}},{"uri":"ROOT/src/index.ts","name":"src/index.ts","mimeType":"text/x-typescript","size":26,"annotations":{"lastModified":"2001-09-09T01:46:40.250Z","priority":0.2}}]},"jsonrpc":"2.0","id":3}\n';
const MODERN_THIRD_OF_TWO = '{"result":{"resources":[{"uri":"ROOT/src/a&b%20%231.json","name":"src/a&b #1.json","mimeType":"application/json","size":3,"annotations":{"lastModified":"2001-09-09T01:46:40.750Z","priority":0.2}},{"uri":"ROOT/src/index.ts","name":"src/index.ts","mimeType":"text/x-typescript","size":26,"annotations":{"lastModified":"2001-09-09T01:46:40.250Z","priority":0.2}}],"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-workspace-resources","title":"MCP Workspace Resources","version":"VERSION"}}},"jsonrpc":"2.0","id":3}\n';
const MODERN_SERVER_META = '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mcp-workspace-resources","title":"MCP Workspace Resources","version":"VERSION"}}';
const MODERN_READ = `{"result":{"contents":[{"uri":"ROOT/README.md","mimeType":"text/markdown","text":"# Pinned\\n"}],"resultType":"complete","ttlMs":0,"cacheScope":"private",${MODERN_SERVER_META}},"jsonrpc":"2.0","id":1}\n`;
const MODERN_TEMPLATES_END = `}]}],"resultType":"complete","ttlMs":600000,"cacheScope":"private",${MODERN_SERVER_META}},"jsonrpc":"2.0","id":2}\n`;
const MODERN_TOOLS_END = `"annotations":{"readOnlyHint":true,"openWorldHint":false}}],"resultType":"complete","ttlMs":600000,"cacheScope":"private",${MODERN_SERVER_META}},"jsonrpc":"2.0","id":3}\n`;
const MODERN_PROMPTS = `{"result":{"prompts":[],"resultType":"complete","ttlMs":600000,"cacheScope":"private",${MODERN_SERVER_META}},"jsonrpc":"2.0","id":4}\n`;
const MODERN_COMPLETION = `{"result":{"completion":{"values":["WS/README.md"],"total":1,"hasMore":false},"resultType":"complete",${MODERN_SERVER_META}},"jsonrpc":"2.0","id":5}\n`;
