import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { absPath, assertMcpError, RESOURCE_NOT_FOUND, resourceUri, TestClient } from './helpers';

/** Files the runner's fixture copy has on disk that must be served. */
const SERVED = ['README.md', 'src/greet.ts', 'src/main.ts', 'notes/todo.txt', 'docs/guide/intro.md', 'assets/bytes.bin', '.gitignore'];
/** Files on disk that must never be served: a deny-listed secret, a git-ignored file, git internals. */
const HIDDEN = ['.env', 'ignored.log', '.git/HEAD', '.git/config'];

describe('resources', () => {
	let client: TestClient;
	before(async () => { client = await TestClient.connect(); });
	after(async () => { await client?.close(); });

	it('lists every workspace file across pages, each once, as file:// URIs', async () => {
		const { resources, pages } = await client.listAll();
		const uris = resources.map(r => r.uri);
		assert.equal(new Set(uris).size, uris.length, 'no resource listed twice across pages');
		const listed = new Set(uris);
		for (const rel of SERVED) {
			assert.ok(fs.existsSync(absPath(rel)), `fixture has ${rel}`);
			assert.ok(listed.has(resourceUri(rel)), `${rel} is listed as ${resourceUri(rel)}`);
		}
		const generated = fs.readdirSync(absPath('many'));
		assert.ok(generated.length >= 100, 'the runner generated the many/ files');
		for (const name of generated) {
			assert.ok(listed.has(resourceUri(`many/${name}`)), `many/${name} is listed`);
		}
		const fileUris = uris.filter(u => u.startsWith('file:'));
		const root = resourceUri('.').replace(/\/?$/, '/');
		for (const uri of fileUris) {
			assert.ok(uri.startsWith(root), `${uri} is inside the workspace ${root}`);
		}
		console.log(`      (${resources.length} resources in ${pages} page(s))`);
	});

	it('does not list secrets, git-ignored files or .git internals', async () => {
		const listed = await client.listedUris();
		for (const rel of HIDDEN) {
			assert.ok(fs.existsSync(absPath(rel)), `fixture has ${rel}`);
			assert.ok(!listed.has(resourceUri(rel)), `${rel} must not be listed`);
		}
		assert.ok(![...listed].some(u => u.includes('/.git/')), 'nothing under .git/ is listed');
	});

	it('reads a text file as text', async () => {
		const uri = resourceUri('src/greet.ts');
		const result = await client.client.readResource({ uri });
		assert.equal(result.contents.length, 1);
		const [content] = result.contents;
		assert.equal(content.uri, uri);
		assert.ok('text' in content, 'text content');
		assert.equal(content.text, fs.readFileSync(absPath('src/greet.ts'), 'utf8'));
	});

	it('reads a binary file as a base64 blob', async () => {
		const result = await client.client.readResource({ uri: resourceUri('assets/bytes.bin') });
		const [content] = result.contents;
		assert.ok('blob' in content && typeof content.blob === 'string', 'blob content');
		assert.deepEqual(Buffer.from(content.blob, 'base64'), fs.readFileSync(absPath('assets/bytes.bin')));
	});

	it('offers the file:///{+path} template', async () => {
		const { resourceTemplates } = await client.client.listResourceTemplates();
		assert.ok(resourceTemplates.some(t => t.uriTemplate === 'file:///{+path}'),
			`templates: ${resourceTemplates.map(t => t.uriTemplate).join(', ')}`);
	});

	it('refuses unknown, hidden and outside URIs with -32602', async () => {
		await assertMcpError(client.client.readResource({ uri: resourceUri('no/such/file.txt') }), RESOURCE_NOT_FOUND, 'missing file');
		await assertMcpError(client.client.readResource({ uri: resourceUri('.env') }), RESOURCE_NOT_FOUND, 'secret .env');
		await assertMcpError(client.client.readResource({ uri: resourceUri('ignored.log') }), RESOURCE_NOT_FOUND, 'git-ignored file');
		await assertMcpError(client.client.readResource({ uri: 'file:///etc/passwd' }), RESOURCE_NOT_FOUND, 'file outside the workspace');
		const traversal = `${resourceUri('src')}/../../../../../../etc/passwd`;
		await assertMcpError(client.client.readResource({ uri: traversal }), RESOURCE_NOT_FOUND, 'traversal out of the workspace');
	});
});
