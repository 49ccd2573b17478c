import * as assert from 'node:assert/strict';
import { MAX_RANGE_SOURCE_BYTES } from '../../../src/core/answerBudget';
import { fileUri } from '../../../src/core/uriGuard';
import { RELEVANT_URI } from '../../../src/common/wellKnownUris';
import { TOOL_SEARCH_MAX } from '../../../src/mcp/tools/searchTools';
import { EraClient, outcomeOf, readOutcome, walkList } from '../../helpers/eraClients';
import { createFixture, Fixture, PNG_BYTES } from '../../helpers/fixtureWorkspace';
import { startToolWorkspace, ToolWorkspace } from '../../helpers/toolWorkspace';

interface ToolResult {
	readonly content: { type: string; text?: string; uri?: string; name?: string; description?: string; resource?: Record<string, unknown> }[];
	readonly structuredContent?: Record<string, unknown>;
	readonly isError?: boolean;
}

function call(c: EraClient, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
	return c.client.callTool({ name, arguments: args }) as Promise<ToolResult>;
}

/** The one text block of a tool error. */
function errorText(result: ToolResult): string {
	assert.equal(result.isError, true, `expected a tool error: ${JSON.stringify(result).slice(0, 300)}`);
	assert.equal(result.content.length, 1);
	assert.equal(result.content[0].type, 'text');
	return result.content[0].text!;
}

/** The variables of a filled search template, decoded. */
function queryOf(uri: string): Record<string, string> {
	return Object.fromEntries(new URL(uri).searchParams);
}

const SECRET_TEXTS = ['hunter2', 'DB_PASSWORD', 'BEGIN PRIVATE KEY', '_authToken', 'root:x:0:0', 'outside secret', 'ignored by nested', 'EXCLUDED TEXT'];

describe('read-only tools through SDK v2 clients, both eras, over HTTP and stdio', function () {
	this.timeout(30_000);
	let fx: Fixture;
	let ws: ToolWorkspace;

	before(async () => {
		fx = createFixture();
		fx.write('excluded/skip.txt', 'EXCLUDED TEXT\n');
		fx.write('big.txt', `${'x'.repeat(99)}\n`.repeat(30));
		fx.write('huge.txt', 'x'.repeat(MAX_RANGE_SOURCE_BYTES + 1));
		fx.write('src/many.ts', Array.from({ length: 30 }, (_, i) => `line ${i + 1} answer`).join('\n'));
		ws = await startToolWorkspace(fx.root, { settings: { exclude: ['excluded/**'], maxFileSize: 2048 } });
		// The client checks each result's structuredContent against the tool's outputSchema once it has listed the tools.
		for (const c of ws.clients) {
			await c.client.listTools();
		}
	});
	after(async () => {
		await ws?.dispose();
		fx?.dispose();
	});

	it('lists seven read-only tools, each with a title, both schemas and the hints, alike for every client', async () => {
		const lists = await Promise.all(ws.clients.map(c => c.client.listTools()));
		for (const [i, { tools }] of lists.entries()) {
			assert.deepEqual(tools.map(t => t.name), ['list_resources', 'read_resource', 'search_text', 'search_files', 'relevant_files', 'find_symbols', 'symbol_relations'], ws.clients[i].label);
			for (const tool of tools) {
				assert.ok(tool.title && tool.description, `${tool.name} has a title and a description`);
				assert.deepEqual(tool.annotations, { readOnlyHint: true, openWorldHint: false }, tool.name);
				assert.equal(tool.inputSchema.type, 'object', tool.name);
				assert.equal(tool.outputSchema?.type, 'object', tool.name);
				assert.equal('$schema' in tool.inputSchema, false, 'no dialect line: the default one, paid for in tokens otherwise');
			}
			assert.deepEqual(tools, lists[0].tools, `${ws.clients[i].label} lists what ${ws.clients[0].label} does`);
		}
		const capabilities = ws.clients.map(c => c.client.getServerCapabilities()?.tools);
		assert.deepEqual(capabilities, ws.clients.map(() => ({ listChanged: true })));
	});

	it('list_resources pages the listing in its own order, with the cursor for the next page', async () => {
		for (const c of ws.clients) {
			const listed = (await walkList(c)).map(r => r.uri);
			const walked: string[] = [];
			let cursor: string | undefined;
			let pages = 0;
			do {
				const result = await call(c, 'list_resources', { limit: 4, ...cursor !== undefined && { cursor } });
				const structured = result.structuredContent as { resources: { uri: string }[]; nextCursor?: string };
				const links = result.content.filter(b => b.type === 'resource_link');
				assert.deepEqual(links.map(l => l.uri), structured.resources.map(r => r.uri), 'one link per listed resource');
				assert.ok(structured.resources.length <= 4);
				assert.equal(result.content[0].type, 'text');
				if (structured.nextCursor !== undefined) {
					assert.ok(result.content[0].text!.includes(structured.nextCursor), 'the summary tells the model the cursor');
				}
				walked.push(...structured.resources.map(r => r.uri));
				cursor = structured.nextCursor;
				pages++;
			} while (cursor !== undefined);
			assert.deepEqual(walked, listed, `${c.label}: the tool lists what resources/list lists`);
			assert.ok(pages > 2, 'several pages');
		}
	});

	it('list_resources filters to a folder (by URI or path) or a family', async () => {
		const src = fx.file('src');
		const expected = (await walkList(ws.clients[0])).map(r => r.uri as string).filter(u => u.startsWith(`${fileUri(src)}/`));
		assert.ok(expected.length >= 3);
		for (const c of ws.clients) {
			for (const prefix of [`${fileUri(src)}/`, `${src}/`]) {
				const result = await call(c, 'list_resources', { prefix });
				assert.deepEqual((result.structuredContent as { resources: { uri: string }[] }).resources.map(r => r.uri), expected, `${c.label} ${prefix}`);
			}
			const family = await call(c, 'list_resources', { prefix: 'context:' });
			assert.deepEqual((family.structuredContent as { resources: { uri: string }[] }).resources.map(r => r.uri), [RELEVANT_URI]);
			assert.match(errorText(await call(c, 'list_resources', { prefix: 'src/' })), /neither a URI prefix .* nor an absolute path/);
		}
	});

	it('read_resource returns what resources/read returns, as embedded resources: text, binary, a range', async () => {
		const uris = [fileUri(fx.file('README.md')), fileUri(fx.file('images/pixel.png')), `${fileUri(fx.file('src/many.ts'))}?lines=3-4`,
			fileUri(fx.file('src/ünïcödé 文件.txt')), RELEVANT_URI];
		for (const c of ws.clients) {
			for (const uri of uris) {
				const read = await readOutcome(c, uri);
				assert.ok(read.ok, uri);
				const result = await call(c, 'read_resource', { uri });
				assert.equal(result.isError, undefined, uri);
				assert.deepEqual(result.content.map(b => b.resource), read.value, `${c.label} ${uri}`);
				assert.deepEqual(result.content.map(b => b.type), (read.value as unknown[]).map(() => 'resource'));
				assert.deepEqual(result.structuredContent, { contents: read.value });
			}
			const png = await call(c, 'read_resource', { uri: fileUri(fx.file('images/pixel.png')) });
			assert.equal(png.content[0].resource!.blob, PNG_BYTES.toString('base64'));
			const lines = await call(c, 'read_resource', { uri: `${fileUri(fx.file('src/many.ts'))}?lines=3-4` });
			assert.equal(lines.content[0].resource!.text, 'line 3 answer\nline 4 answer\n');
		}
	});

	it('refuses a secret, ignored, excluded or outside URI as a tool error the model can act on, with nothing of the file', async () => {
		const refused = ['.env', 'config/.env.production', 'certs/server.pem', '.npmrc', 'build/out.js', 'debug.log', 'excluded/skip.txt',
			'link-outside-file', 'link-to-secret', 'link-outside-dir/passwd'].map(rel => fileUri(fx.file(rel)));
		refused.push(fileUri(`${fx.outside}/secret.txt`), `${fileUri(fx.file('src'))}/../.env`, `${fileUri(fx.file('.env'))}?lines=1`, 'nope://x', 'not a uri');
		for (const c of ws.clients) {
			for (const uri of refused) {
				const read = await readOutcome(c, uri);
				assert.equal(read.ok, false, `resources/read refuses ${uri}`);
				const text = errorText(await call(c, 'read_resource', { uri }));
				assert.match(text, /^Not served: .*outside the workspace, ignored, excluded or secret, which are never served\. Use list_resources or search_files to find what can be read\.$/, `${c.label} ${uri}: ${text}`);
				for (const secret of SECRET_TEXTS) {
					assert.ok(!text.includes(secret), `${uri}: the error holds ${secret}`);
				}
			}
		}
	});

	it('offers no range to read for a file over 16 MB, which no read takes', async () => {
		const uri = fileUri(fx.file('huge.txt'));
		for (const c of ws.clients) {
			const text = errorText(await call(c, 'read_resource', { uri }));
			assert.match(text, /no read takes a file over 16 MB, whole or in ranges/, `${c.label}: ${text}`);
			assert.doesNotMatch(text, /lines=|read part of it/, `${c.label}: ${text}`);
		}
	});

	it('names the size cap and a range that reads, for a file over it', async () => {
		const uri = fileUri(fx.file('big.txt'));
		for (const c of ws.clients) {
			const text = errorText(await call(c, 'read_resource', { uri }));
			assert.match(text, /over the 2 KB limit; raise mcpResources\.maxFileSize to read it, or read part of it: .*big\.txt\?lines=1-200$/);
			const suggested = text.slice(text.lastIndexOf(' ') + 1);
			const part = await call(c, 'read_resource', { uri: suggested });
			assert.equal(part.isError, undefined);
			assert.equal(part.content[0].resource!.text, `${'x'.repeat(99)}\n`.repeat(30));
		}
	});

	it('answers malformed arguments with a clear tool error, an unknown tool with -32602, and stays up', async () => {
		const cases: [string, Record<string, unknown>, RegExp][] = [
			['read_resource', {}, /^Invalid arguments for read_resource: uri: /],
			['read_resource', { uri: 5 }, /^Invalid arguments for read_resource: uri: .*string/],
			['read_resource', { path: '/etc/passwd' }, /Unrecognized key.*path/],
			['read_resource', { uri: `file:///${'a'.repeat(9000)}` }, /over the 8 KB limit/],
			['list_resources', { limit: 0 }, /^Invalid arguments for list_resources: limit: /],
			['list_resources', { limit: 'ten' }, /limit: .*number/],
			['list_resources', { cursor: 'not-ours' }, /^Invalid cursor/],
			['search_text', { q: '' }, /^Invalid arguments for search_text: q: /],
			['search_text', { q: 'x', max: 5001 }, /max: /],
			['relevant_files', { top: 3 }, /Unrecognized key/],
		];
		for (const c of ws.clients) {
			for (const [name, args, expected] of cases) {
				assert.match(errorText(await call(c, name, args)), expected, `${c.label} ${name} ${JSON.stringify(args).slice(0, 60)}`);
			}
			const unknown = await outcomeOf(call(c, 'write_file', { uri: 'x' }));
			assert.ok(!unknown.ok && unknown.code === -32602 && /Unknown tool: write_file\. This server's tools are list_resources, /.test(unknown.message), JSON.stringify(unknown));
			const still = await call(c, 'read_resource', { uri: fileUri(fx.file('README.md')) });
			assert.equal(still.content[0].resource!.text, '# Fixture\n', 'and the next call is answered');
		}
		assert.deepEqual(ws.log.errors, [], 'no client mistake is logged as an error');
	});

	it('refuses an argument too long for any resource URI as the model\'s mistake, naming it, even past the SDK\'s template cap', async () => {
		// Over a million characters the SDK's UriTemplate throws a plain Error of its own.
		const huge = 'x'.repeat(1_000_001);
		const cases: [string, Record<string, unknown>, string][] = [
			['search_text', { q: huge }, 'q'],
			['search_text', { q: 'answer', glob: huge }, 'glob'],
			['search_files', { q: huge }, 'q'],
			['find_symbols', { q: huge }, 'q'],
			['find_symbols', { q: 'greet', kind: huge }, 'kind'],
			['symbol_relations', { relation: 'references', path: huge, at: 'greet' }, 'path'],
			['symbol_relations', { relation: 'references', path: 'src/greet.ts', at: huge }, 'symbol'],
		];
		for (const c of ws.clients) {
			for (const [name, args, argument] of cases) {
				assert.equal(errorText(await call(c, name, args)), `Invalid arguments for ${name}: ${argument} is 976.6 KB, over the 8 KB limit for a resource URI`, `${c.label} ${name} ${argument}`);
			}
		}
		assert.deepEqual(ws.log.errors, [], 'no client mistake is logged as an error');
	});

	it('relevant_files links the ranking\'s files with their reasons, and never a file that is not served', async () => {
		ws.signals.show(fx.file('src/index.ts'), [fx.file('src/index.ts'), fx.file('.env')], [fx.file('src/index.ts'), fx.file('.env'), fx.file('debug.log')]);
		for (const c of ws.clients) {
			const result = await call(c, 'relevant_files');
			const { files } = result.structuredContent as { files: { uri: string; path: string; reasons: string[] }[] };
			assert.equal(files[0].uri, fileUri(fx.file('src/index.ts')));
			assert.equal(files[0].path, 'src/index.ts');
			assert.ok(files[0].reasons.length > 0);
			const links = result.content.filter(b => b.type === 'resource_link');
			assert.deepEqual(links.map(l => [l.uri, l.name]), files.map(f => [f.uri, f.path]));
			assert.deepEqual(result.content[0].text!.split('\n').slice(1), files.map(f => `${f.path}: ${f.reasons.join('; ')}`), 'the reasons are in the text');
			assert.ok(!JSON.stringify(result).includes('.env') && !JSON.stringify(result).includes('debug.log'), 'no hidden file named');
		}
	});

	it('search_text fills the search template from its arguments and links each match to its line', async () => {
		for (const c of ws.clients) {
			ws.search!.asked.length = 0;
			const result = await call(c, 'search_text', { q: 'Answer', case: false, word: false, regex: false, glob: 'src/**,*.md', max: 5 });
			assert.deepEqual(queryOf(ws.search!.asked[0]), { q: 'Answer', glob: 'src/**,*.md', max: '5' }, 'false flags are left out, as the defaults');
			const structured = result.structuredContent as { files: { path: string; matches: { line: number; column: number; text: string; uri: string }[] }[]; matchCount: number; complete: boolean; reason?: string };
			assert.equal(structured.matchCount, 5);
			assert.equal(structured.complete, false);
			const links = result.content.filter(b => b.type === 'resource_link');
			assert.deepEqual(links.map(l => [l.uri, l.name]), structured.files.flatMap(f => f.matches.map(m => [m.uri, `${f.path}:${m.line}`])));
			const [head, ...lines] = result.content[0].text!.split('\n');
			assert.match(head, /^5 matches in \d+ files?\. Stopped early \(max\): narrow q or glob, or raise max\.$/);
			assert.deepEqual(lines, structured.files.flatMap(f => f.matches.map(m => `${f.path}:${m.line}:${m.column}: ${m.text}`)), 'the lines are in the text');
			// A link reads just its line.
			const line = await call(c, 'read_resource', { uri: links[0].uri! });
			assert.equal(line.content[0].resource!.text, `${structured.files[0].matches[0].text}\n`);

			await call(c, 'search_text', { q: 'a b&c', regex: true, case: true, word: true });
			assert.deepEqual(queryOf(ws.search!.asked[1]), { q: 'a b&c', regex: 'true', case: 'true', word: 'true', max: String(TOOL_SEARCH_MAX) });
			assert.ok(ws.search!.asked[1].startsWith('search://text?q=a%20b%26c&'), ws.search!.asked[1]);
		}
	});

	it('search_files fills its template and links each file', async () => {
		for (const c of ws.clients) {
			ws.search!.asked.length = 0;
			const result = await call(c, 'search_files', { q: 'srcidx' });
			assert.deepEqual(queryOf(ws.search!.asked[0]), { q: 'srcidx', max: String(TOOL_SEARCH_MAX) });
			assert.ok(ws.search!.asked[0].startsWith('search://files?'));
			assert.deepEqual(result.structuredContent, { files: [{ uri: fileUri(fx.file('src/index.ts')), path: 'src/index.ts', score: 1 }], complete: true });
			assert.deepEqual(result.content.slice(1), [{ type: 'resource_link', uri: fileUri(fx.file('src/index.ts')), name: 'src/index.ts' }]);
			assert.equal(result.content[0].text, '1 file, best match first.');
		}
	});

	it('find_symbols fills the symbols template and links each declaration to its lines', async () => {
		for (const c of ws.clients) {
			ws.symbols!.asked.length = 0;
			const result = await call(c, 'find_symbols', { q: 'gree', kind: 'function,class' });
			assert.deepEqual(queryOf(ws.symbols!.asked[0]), { q: 'gree', kind: 'function,class', max: '50' });
			const { symbols, complete } = result.structuredContent as { symbols: { name: string; uri: string }[]; complete: boolean };
			assert.deepEqual(symbols.map(s => s.name), ['greet', 'Greeter']);
			assert.equal(complete, true);
			assert.deepEqual(result.content.slice(1), symbols.map(s => ({ type: 'resource_link', uri: s.uri, name: s.uri.includes('lines=3') ? 'src/greet.ts:3' : 'src/greet.ts:7' })));
			assert.deepEqual(result.content[0].text!.split('\n'), ['2 symbols.', 'src/greet.ts:3: function greet', 'src/greet.ts:7: class Greeter']);
		}
	});

	it('symbol_relations fills the relation template and links each place', async () => {
		for (const c of ws.clients) {
			ws.symbols!.asked.length = 0;
			const result = await call(c, 'symbol_relations', { relation: 'references', path: 'src/greet.ts', at: 'greet' });
			assert.ok(ws.symbols!.asked[0].startsWith('symbols://references/src/greet.ts?'), ws.symbols!.asked[0]);
			assert.deepEqual(queryOf(ws.symbols!.asked[0]), { symbol: 'greet', max: '50' });
			assert.deepEqual(result.structuredContent, { items: [{ path: 'src/main.ts', line: 2, column: 10, text: 'greet("x");', uri: `${fileUri(fx.file('src/main.ts'))}?lines=2` }], complete: true });
			assert.equal(result.content[0].text, '1 references.\nsrc/main.ts:2:10: greet("x");');
			const bad = await call(c, 'symbol_relations', { relation: 'callers', path: 'src/greet.ts', at: '3:5' });
			assert.equal(bad.isError, true, 'an unknown relation is a tool error');
		}
	});
});

describe('tools offered by what the registry serves', function () {
	this.timeout(30_000);

	it('offers the search tools only with a search provider, the symbol tools only with symbols, relevant_files only with the ranking', async () => {
		const fx = createFixture();
		const ws = await startToolWorkspace(fx.root, { search: false, relevance: false, symbols: false });
		try {
			for (const c of ws.clients) {
				assert.deepEqual((await c.client.listTools()).tools.map(t => t.name), ['list_resources', 'read_resource'], c.label);
				const search = await outcomeOf(call(c, 'search_text', { q: 'x' }));
				assert.ok(!search.ok && search.code === -32602, `${c.label}: no stand-in search`);
				const refused = errorText(await call(c, 'read_resource', { uri: fileUri(fx.file('.env')) }));
				assert.match(refused, /Use list_resources to find what can be read\.$/, `${c.label}: names no tool it does not offer`);
			}
			assert.match(ws.clients[0].client.getInstructions() ?? '', /read-only tools \(list_resources, read_resource\)/);
		} finally {
			await ws.dispose();
			fx.dispose();
		}
	});
});
