import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileUri } from '../../../src/core/uriGuard';
import { FakeDocuments } from '../../fakes/fakeDocuments';
import { createFixture, Fixture, PNG_BYTES, SERVED_NAMES } from '../../helpers/fixtureWorkspace';
import { connectInMemory, ConnectedClient, createTestServer, errorOf, listAll, TestServer } from '../../helpers/harness';

describe('files provider through an MCP client', () => {
	let fx: Fixture;
	let server: TestServer;
	let conn: ConnectedClient;
	const documents = new FakeDocuments();

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root], { documents });
		await server.files.ready();
		conn = await connectInMemory(server.registry, server.log, 4);
	});

	afterEach(async () => {
		await conn.close();
		server.dispose();
		fx.dispose();
	});

	it('lists exactly the served files across pages, sorted, with metadata', async () => {
		const all = await listAll(conn.client);
		assert.deepEqual(all.map(r => r.name).sort(), [...SERVED_NAMES].sort());
		const uris = all.map(r => r.uri);
		assert.deepEqual(uris, [...uris].sort((a, b) => (a < b ? -1 : 1)), 'stable URI order');
		const first = (await conn.client.listResources()).resources;
		assert.equal(first.length, 4, 'page size honoured');
		const readme = all.find(r => r.name === 'README.md') as Record<string, unknown>;
		assert.equal(readme.uri, fileUri(fx.file('README.md')));
		assert.ok(!('title' in readme), 'no title: it would repeat the last segment of name, ~24 bytes an entry');
		assert.equal(readme.mimeType, 'text/markdown');
		assert.equal(readme.size, 10);
		assert.match((readme.annotations as { lastModified: string }).lastModified, /^\d{4}-\d\d-\d\dT/);
	});

	it('reads text, unicode names, binary as base64, and non-UTF-8 text as a blob', async () => {
		const text = await conn.client.readResource({ uri: fileUri(fx.file('src/ünïcödé 文件.txt')) });
		assert.deepEqual(text.contents, [{ uri: fileUri(fx.file('src/ünïcödé 文件.txt')), mimeType: 'text/plain', text: 'unicode name\n' }]);
		const odd = await conn.client.readResource({ uri: fileUri(fx.file('src/with space & #hash?.txt')) });
		assert.equal((odd.contents[0] as { text: string }).text, 'odd name\n');
		const png = await conn.client.readResource({ uri: fileUri(fx.file('images/pixel.png')) });
		assert.equal(png.contents[0].mimeType, 'image/png');
		assert.deepEqual(Buffer.from((png.contents[0] as { blob: string }).blob, 'base64'), PNG_BYTES);
		const latin1 = await conn.client.readResource({ uri: fileUri(fx.file('data/latin1.txt')) });
		assert.deepEqual(Buffer.from((latin1.contents[0] as { blob: string }).blob, 'base64'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
		const listed = (await listAll(conn.client)).find(r => r.uri === latin1.contents[0].uri) as { mimeType?: string };
		assert.equal(latin1.contents[0].mimeType, listed.mimeType, 'the blob keeps the MIME type the file is listed with');
		assert.equal(listed.mimeType, 'text/plain');
	});

	it('serves a symlink inside the workspace and refuses links that leave it or reach secrets', async () => {
		const inside = await conn.client.readResource({ uri: fileUri(fx.file('link-inside.md')) });
		assert.equal((inside.contents[0] as { text: string }).text, '# Fixture\n');
		for (const rel of ['link-outside-file', 'link-outside-dir/passwd', 'link-outside-dir/secret.txt', 'link-to-secret']) {
			const uri = fileUri(fx.file(rel));
			const err = await errorOf(conn.client.readResource({ uri }));
			assert.equal(err.code, -32602, rel);
			assert.deepEqual(err.data, { uri });
			assert.ok(!err.message.includes(fx.outside), 'no foreign path in the message');
		}
	});

	const traversals = (fx: Fixture) => [
		`${fileUri(fx.root)}/../outside/passwd`,
		`${fileUri(fx.root)}/%2e%2e/outside/passwd`,
		`${fileUri(fx.root)}/src/%2E%2E/%2E%2E/outside/passwd`,
		`${fileUri(fx.root)}/src%2f..%2f..%2foutside%2fpasswd`,
		fileUri(path.join(fx.outside, 'passwd')),
		'file:///etc/passwd',
		fileUri(fx.root),
		`${fileUri(fx.root)}/missing.txt`,
	];

	it('refuses traversal, foreign paths and missing files with -32602 and no leak', async () => {
		for (const uri of traversals(fx)) {
			const err = await errorOf(conn.client.readResource({ uri }));
			assert.equal(err.code, -32602, uri);
			assert.deepEqual(err.data, { uri });
			assert.ok(!/passwd\n|root:x|\bat \w+ \(/.test(JSON.stringify(err)), 'no content or stack');
			const sub = await errorOf(conn.client.subscribeResource({ uri }));
			assert.equal(sub.code, -32602, `subscribe ${uri}`);
		}
		assert.deepEqual(server.log.errors, [], 'client mistakes are not logged as errors');
	});

	it('accepts subscriptions to schemes no provider serves (never notified), refuses non-URIs', async () => {
		await conn.client.subscribeResource({ uri: 'test://watched-resource' });
		await conn.client.unsubscribeResource({ uri: 'test://watched-resource' });
		assert.equal((await errorOf(conn.client.subscribeResource({ uri: 'no scheme here' }))).code, -32602);
		assert.equal((await errorOf(conn.client.readResource({ uri: 'test://watched-resource' }))).code, -32602, 'reads still refuse');
	});

	it('refuses secrets, ignored and excluded files on read and subscribe', async () => {
		for (const rel of ['.env', 'config/.env.production', 'certs/server.pem', '.npmrc', '.git/config', 'build/out.js', 'debug.log', 'pkg/generated/gen.ts']) {
			const uri = fileUri(fx.file(rel));
			assert.equal((await errorOf(conn.client.readResource({ uri }))).code, -32602, `read ${rel}`);
			assert.equal((await errorOf(conn.client.subscribeResource({ uri }))).code, -32602, `subscribe ${rel}`);
		}
	});

	it('returns the unsaved editor text for a dirty document and notifies subscribers', async () => {
		const file = fx.file('src/index.ts');
		const uri = fileUri(file);
		await conn.client.subscribeResource({ uri });
		documents.edit(file, 'export const answer = 43; // unsaved\n');
		await conn.waitForUpdate(uri);
		const read = await conn.client.readResource({ uri });
		assert.equal((read.contents[0] as { text: string }).text, 'export const answer = 43; // unsaved\n');
		documents.revert(file);
		const reverted = await conn.client.readResource({ uri });
		assert.equal((reverted.contents[0] as { text: string }).text, 'export const answer = 42;\n');
	});

	it('names the cap and the setting when a file is too large', async () => {
		server.settings.set({ maxFileSize: 5 });
		await server.files.ready();
		const uri = fileUri(fx.file('README.md'));
		const err = await errorOf(conn.client.readResource({ uri }));
		assert.equal(err.code, -32600);
		assert.match(err.message, /5 B limit/);
		assert.match(err.message, /mcpResources\.maxFileSize/);
		assert.deepEqual(err.data, { uri, size: 10, limit: 5, setting: 'mcpResources.maxFileSize' });
	});

	it('holds unsaved editor text to the same size cap as the file, naming the cap and the setting', async () => {
		const file = fx.file('README.md');
		const uri = fileUri(file);
		server.settings.set({ maxFileSize: 16 });
		await server.files.ready();
		try {
			documents.edit(file, '# caf\u00e9 unsaved!\n');
			const err = await errorOf(conn.client.readResource({ uri }));
			assert.equal(err.code, -32600);
			assert.deepEqual(err.data, { uri, size: 17, limit: 16, setting: 'mcpResources.maxFileSize' }, 'bytes as UTF-8, not characters');
			documents.edit(file, '# small unsaved\n');
			const read = await conn.client.readResource({ uri });
			assert.equal((read.contents[0] as { text: string }).text, '# small unsaved\n');
		} finally {
			documents.revert(file);
		}
	});

	it('notifies subscribers only, and list_changed when files appear or go', async () => {
		const other = await connectInMemory(server.registry);
		try {
			const readme = fileUri(fx.file('README.md'));
			await conn.client.subscribeResource({ uri: readme });
			writeFileSync(fx.file('README.md'), '# Changed\n');
			server.watcher.fire({ kind: 'changed', path: fx.file('README.md') });
			await conn.waitForUpdate(readme);

			const added = fx.write('src/new.ts', 'new\n');
			const listChanged = conn.waitForListChanged();
			const otherListChanged = other.waitForListChanged();
			server.watcher.fire({ kind: 'created', path: added });
			await Promise.all([listChanged, otherListChanged]);
			assert.ok((await listAll(conn.client)).some(r => r.uri === fileUri(added)));

			unlinkSync(added);
			const removed = conn.waitForListChanged();
			server.watcher.fire({ kind: 'deleted', path: added });
			await removed;
			assert.ok(!(await listAll(conn.client)).some(r => r.uri === fileUri(added)));

			assert.deepEqual(other.updates, [], 'a client that subscribed to nothing gets no updated');
			assert.ok(!conn.updates.includes(fileUri(added)), 'not subscribed to the new file');

			await conn.client.unsubscribeResource({ uri: readme });
			writeFileSync(fx.file('README.md'), '# Changed again\n');
			server.watcher.fire({ kind: 'changed', path: fx.file('README.md') });
			const count = conn.updates.length;
			// A later, observable event proves the earlier one was processed without an update.
			const probe = fx.write('probe.txt', 'p');
			const probed = conn.waitForListChanged();
			server.watcher.fire({ kind: 'created', path: probe });
			await probed;
			assert.equal(conn.updates.length, count, 'no update after unsubscribe');
		} finally {
			await other.close();
		}
	});

	it('indexes a new directory, ignores ignored ones, and drops a deleted directory', async () => {
		fx.write('newdir/a.ts', 'a');
		fx.write('newdir/deep/b.ts', 'b');
		mkdirSync(fx.file('build/more'), { recursive: true });
		writeFileSync(fx.file('build/more/x.js'), 'x');
		const changed = conn.waitForListChanged();
		server.watcher.fire({ kind: 'created', path: fx.file('newdir') }, { kind: 'created', path: fx.file('build/more') });
		await changed;
		let names = (await listAll(conn.client)).map(r => r.name);
		assert.ok(names.includes('newdir/a.ts') && names.includes('newdir/deep/b.ts'));
		assert.ok(!names.some(n => n.startsWith('build/')));
		rmSync(fx.file('newdir'), { recursive: true });
		const gone = conn.waitForListChanged();
		server.watcher.fire({ kind: 'deleted', path: fx.file('newdir') });
		await gone;
		names = (await listAll(conn.client)).map(r => r.name);
		assert.ok(!names.some(n => n.startsWith('newdir/')));
	});

	it('judges each file of one batch by its own name and every ancestor, many to a directory', async () => {
		// Served and hidden files side by side in one directory, in hidden directories, and under
		// a nested .gitignore with a negation: the batch checks each directory once, each name apart.
		const served = ['src/new.ts', 'src/more.txt', 'pkg/keep2.ts', 'pkg/keep.log', 'pkg/sub/keep.log', 'notes/a.md'];
		const hidden = ['src/trace.log', 'src/.env.local', 'src/id_rsa', 'pkg/generated/gen2.ts', 'pkg/sub/other.log', 'pkg/generated/deep/g.ts', 'build/new.js', 'build/deep/x.js', 'config/.env.test', '.git/hooks/post'];
		const written = [...served, ...hidden].map(rel => fx.write(rel, 'x'));
		const changed = conn.waitForListChanged();
		server.watcher.fire(...written.map(p => ({ kind: 'created' as const, path: p })));
		await changed;
		const names = (await listAll(conn.client)).map(r => r.name);
		assert.deepEqual(served.filter(rel => !names.includes(rel)), [], 'served files listed');
		assert.deepEqual(hidden.filter(rel => names.includes(rel)), [], 'hidden files not listed');
	});

	it('applies exclude and gitignore settings without a restart', async () => {
		const changed = conn.waitForListChanged();
		server.settings.set({ exclude: ['src/**'], respectGitignore: false });
		await changed;
		const names = (await listAll(conn.client)).map(r => r.name);
		assert.ok(!names.some(n => n.startsWith('src/')), 'excluded');
		assert.ok(names.includes('debug.log') && names.includes('build/out.js'), 'gitignored files served when disabled');
		assert.ok(!names.includes('.env'), 'secrets stay hidden');
		assert.equal((await errorOf(conn.client.readResource({ uri: fileUri(fx.file('src/index.ts')) }))).code, -32602);
	});

	it('re-reads .gitignore when it changes', async () => {
		writeFileSync(fx.file('.gitignore'), 'build/\n*.log\nsrc/\n');
		const changed = conn.waitForListChanged();
		server.watcher.fire({ kind: 'changed', path: fx.file('.gitignore') });
		await changed;
		const names = (await listAll(conn.client)).map(r => r.name);
		assert.ok(!names.some(n => n.startsWith('src/')));
	});

	it('lists the file template and completes paths', async () => {
		writeFileSync(fx.file('src/pct%41.ts'), '');
		const listed = conn.waitForListChanged();
		server.watcher.fire({ kind: 'created', path: fx.file('src/pct%41.ts') });
		await listed;
		const { resourceTemplates } = await conn.client.listResourceTemplates();
		assert.deepEqual(resourceTemplates.map(t => t.uriTemplate), ['file:///{+path}']);
		const prefix = fx.file('src/').slice(1);
		const result = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: prefix } });
		assert.deepEqual(result.completion.values.sort(), ['index.ts', 'ünïcödé 文件.txt'].map(n => `${prefix}${n}`).sort(),
			'every suggestion reads once expanded: `with space & #hash?.txt` would expand to a query and a fragment, `pct%41.ts` to `pctA.ts`');
		assert.equal(result.completion.total, 2);
		const fuzzy = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: 'LIB.t' } });
		assert.deepEqual(fuzzy.completion.values, [fx.file('pkg/lib.ts').slice(1)]);
		const secrets = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: '.env' } });
		assert.deepEqual(secrets.completion.values, [], 'secrets are never suggested');
		const bad = await errorOf(conn.client.complete({ ref: { type: 'ref/resource', uri: 'nope:///{x}' }, argument: { name: 'x', value: '' } }));
		assert.equal(bad.code, -32602);
	});

	it('answers malformed params and bad cursors with -32602', async () => {
		assert.equal((await errorOf(conn.client.listResources({ cursor: 'not-a-cursor' }))).code, -32602);
		assert.equal((await errorOf(conn.client.request({ method: 'resources/read', params: { uri: 42 } } as never, (await import('@modelcontextprotocol/sdk/types.js')).ReadResourceResultSchema))).code, -32602);
		assert.equal((await errorOf(conn.client.request({ method: 'resources/subscribe', params: {} } as never, (await import('@modelcontextprotocol/sdk/types.js')).EmptyResultSchema))).code, -32602);
		assert.deepEqual(server.log.errors, []);
	});
});

describe('files provider with several roots', () => {
	it('serves every folder, naming files by folder, and keeps URIs unique', async () => {
		const a = createFixture();
		const b = createFixture();
		const server = createTestServer([a.root, b.root]);
		const conn = await connectInMemory(server.registry);
		try {
			const all = await listAll(conn.client);
			assert.equal(all.length, SERVED_NAMES.length * 2);
			assert.equal(new Set(all.map(r => r.uri)).size, all.length);
			assert.ok(all.some(r => r.name === 'ws/README.md'));
			assert.ok(all.some(r => r.name === 'ws-2/README.md'));
		} finally {
			await conn.close();
			server.dispose();
			a.dispose();
			b.dispose();
		}
	});
});

describe('files provider list order under change', () => {
	it('keeps the list sorted, complete and current through small and large batches', async () => {
		const fx = createFixture();
		const server = createTestServer([fx.root]);
		await server.files.ready();
		const conn = await connectInMemory(server.registry, server.log, 50);
		try {
			const check = async () => {
				const all = await listAll(conn.client) as { uri: string; size?: number }[];
				const uris = all.map(r => r.uri);
				assert.deepEqual(uris, [...uris].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
				assert.equal(new Set(uris).size, uris.length);
				return all;
			};
			await check();
			// Small batch: patched in place.
			const small = ['a.txt', 'zz/b.txt', 'src/c.ts'].map(rel => fx.write(rel, 'x'));
			let changed = conn.waitForListChanged();
			server.watcher.fire(...small.map(p => ({ kind: 'created' as const, path: p })));
			await changed;
			let all = await check();
			assert.ok(small.every(p => all.some(r => r.uri === fileUri(p))));
			// A content change updates size in the list without a re-sort.
			writeFileSync(fx.file('README.md'), 'a much longer readme than before\n');
			const updated = conn.client.subscribeResource({ uri: fileUri(fx.file('README.md')) });
			await updated;
			server.watcher.fire({ kind: 'changed', path: fx.file('README.md') });
			await conn.waitForUpdate(fileUri(fx.file('README.md')));
			all = await check();
			assert.equal(all.find(r => r.uri === fileUri(fx.file('README.md')))?.size, 33);
			// Large batch: the order is rebuilt.
			const many = Array.from({ length: 700 }, (_, i) => fx.write(`bulk/${String(i).padStart(4, '0')}.txt`, 'y'));
			changed = conn.waitForListChanged();
			server.watcher.fire({ kind: 'created', path: fx.file('bulk') });
			await changed;
			all = await check();
			assert.ok(many.every(p => all.some(r => r.uri === fileUri(p))));
			unlinkSync(small[0]);
			changed = conn.waitForListChanged();
			server.watcher.fire({ kind: 'deleted', path: small[0] });
			await changed;
			all = await check();
			assert.ok(!all.some(r => r.uri === fileUri(small[0])));
		} finally {
			await conn.close();
			server.dispose();
			fx.dispose();
		}
	});
});
