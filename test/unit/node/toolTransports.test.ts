import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileUri } from '../../../src/core/uriGuard';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { CLI } from '../../helpers/headlessHost';
import { headlessTransports, HeadlessTransports } from '../../helpers/headlessTransports';

type ToolResult = {
	content: { type: string; text?: string; uri?: string; name?: string; resource?: { uri: string; text?: string } }[];
	structuredContent?: Record<string, unknown>;
	isError?: boolean;
};

describe('the headless host\'s tools over HTTP, serve --stdio and the bridge, both eras', function () {
	this.timeout(120_000);
	let fx: Fixture;
	let hosts: HeadlessTransports;

	before(async () => {
		assert.ok(existsSync(CLI), 'run npm run build first');
		fx = createFixture();
		fx.write('src/alpha.ts', 'export function activate() {\n\treturn 1;\n}\n// activated\n');
		hosts = await headlessTransports(fx.root);
	});
	after(async () => {
		await hosts?.close();
		fx?.dispose();
	});

	const call = (i: number, name: string, args: Record<string, unknown>) => hosts.clients[i].client.callTool({ name, arguments: args }) as Promise<ToolResult>;

	it('lists the read and search tools, and answers read_resource, search_text, search_files and find_symbols alike', async () => {
		const alpha = fileUri(fx.file('src/alpha.ts'));
		for (const [i, c] of hosts.clients.entries()) {
			const names = (await c.client.listTools()).tools.map(t => t.name);
			for (const name of ['list_resources', 'read_resource', 'search_text', 'search_files', 'find_symbols']) {
				assert.ok(names.includes(name), `${c.label}: ${name} in ${names.join()}`);
			}
			const read = await call(i, 'read_resource', { uri: alpha });
			assert.deepEqual(read.content, [{ type: 'resource', resource: { uri: alpha, mimeType: 'text/x-typescript', text: 'export function activate() {\n\treturn 1;\n}\n// activated\n' } }], c.label);

			const text = await call(i, 'search_text', { q: 'ACTIVATE', word: true });
			assert.equal(text.isError, undefined, c.label);
			assert.deepEqual(text.structuredContent, {
				files: [{ uri: alpha, path: 'src/alpha.ts', matches: [{ line: 1, column: 17, text: 'export function activate() {', uri: `${alpha}?lines=1` }] }],
				matchCount: 1, fileCount: 1, complete: true,
			}, c.label);
			assert.deepEqual(text.content.slice(1), [{ type: 'resource_link', uri: `${alpha}?lines=1`, name: 'src/alpha.ts:1' }], c.label);

			const files = await call(i, 'search_files', { q: 'alphats' });
			assert.deepEqual((files.structuredContent as { files: { path: string }[] }).files.map(f => f.path), ['src/alpha.ts'], c.label);

			const symbols = await call(i, 'find_symbols', { q: 'activate' });
			assert.deepEqual((symbols.structuredContent as { symbols: { name: string; path: string; line: number }[] }).symbols.map(s => [s.name, s.path, s.line]), [['activate', 'src/alpha.ts', 1]], c.label);
		}
	});

	it('a secret, by read_resource or a search, is a tool error or an empty answer with nothing of the file', async () => {
		for (const [i, c] of hosts.clients.entries()) {
			for (const uri of [fileUri(fx.file('.env')), fileUri(fx.file('.ENV')), `${fileUri(fx.file('.env'))}?lines=1`, fileUri(fx.file('link-to-secret'))]) {
				const refused = await call(i, 'read_resource', { uri });
				assert.equal(refused.isError, true, `${c.label} ${uri}`);
				assert.deepEqual(refused.content.map(b => b.type), ['text'], `${c.label} ${uri}: only the reason, no resource`);
				assert.doesNotMatch(JSON.stringify(refused), /hunter2|API_KEY/, `${c.label} ${uri}`);
			}
			const searched = await call(i, 'search_text', { q: 'hunter2' });
			assert.deepEqual([searched.isError, (searched.structuredContent as { matchCount: number }).matchCount], [undefined, 0], c.label);
			const found = await call(i, 'search_files', { q: 'env' });
			assert.ok(!JSON.stringify(found.structuredContent).includes('.env'), `${c.label}: ${JSON.stringify(found.structuredContent)}`);
		}
	});
});
