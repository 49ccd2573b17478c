import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { symlinkSync, truncateSync, unlinkSync, writeFileSync, openSync, closeSync } from 'node:fs';
import * as http from 'node:http';
import { fileUri } from '../../src/core/uriGuard';
import { FilesProvider } from '../../src/core/files/filesProvider';
import { noOpenDocuments, ReadResult } from '../../src/core/ports';
import { ProviderRegistry } from '../../src/core/registry';
import { HttpHost } from '../../src/mcp/http/httpHost';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { StaticFolders } from '../../src/node/staticSources';
import { FakeSettings } from '../fakes/fakeSettings';
import { FakeWatcher } from '../fakes/fakeWatcher';
import { createFixture, Fixture } from '../helpers/fixtureWorkspace';
import { connectHttp, connectInMemory, createTestServer, errorOf, fastTracker, listAll, RecordingLogger, TestServer } from '../helpers/harness';

describe('faults', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let server: TestServer;

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		await server.files.ready();
	});
	afterEach(() => {
		server.dispose();
		fx.dispose();
	});

	it('a file deleted or changed between list and read: not found, or the new content', async () => {
		const conn = await connectInMemory(server.registry, server.log);
		const all = await listAll(conn.client);
		const readme = all.find(r => r.name === 'README.md')!;
		writeFileSync(fx.file('README.md'), 'new content\n');
		assert.equal(((await conn.client.readResource({ uri: readme.uri })).contents[0] as { text: string }).text, 'new content\n');
		unlinkSync(fx.file('README.md'));
		const err = await errorOf(conn.client.readResource({ uri: readme.uri }));
		assert.equal(err.code, -32602);
		await conn.close();
		assert.deepEqual(server.log.errors, []);
	});

	it('an unreadable file gives a clear error and the server keeps serving', async () => {
		class DenyingFs extends NodeFileSystem {
			override readFileUpTo(filePath: string, maxBytes: number, accept: (realPath: string) => boolean | Promise<boolean>): Promise<ReadResult> {
				if (filePath.endsWith('README.md')) {
					return Promise.reject(Object.assign(new Error(`EACCES: permission denied, open '${filePath}'`), { code: 'EACCES' }));
				}
				return super.readFileUpTo(filePath, maxBytes, accept);
			}
		}
		const log = new RecordingLogger();
		const files = new FilesProvider({
			folders: new StaticFolders([fx.root]), reader: new DenyingFs(), watcher: new FakeWatcher(),
			documents: noOpenDocuments, settings: new FakeSettings(), log,
		});
		const registry = new ProviderRegistry([files], fastTracker);
		files.start();
		const conn = await connectInMemory(registry, log);
		try {
			const err = await errorOf(conn.client.readResource({ uri: fileUri(fx.file('README.md')) }));
			assert.equal(err.code, -32603);
			assert.match(err.message, /permission denied/);
			assert.ok(!err.message.includes(fx.root), 'no path in the message');
			const ok = await conn.client.readResource({ uri: fileUri(fx.file('src/index.ts')) });
			assert.equal(ok.contents.length, 1);
		} finally {
			await conn.close();
			registry.dispose();
		}
	});

	it('a huge (sparse, 5 GB) file is listed but reading it names the cap, without reading it', async () => {
		const huge = fx.write('huge.bin', '');
		truncateSync(huge, 5 * 1024 ** 3);
		const conn = await connectInMemory(server.registry, server.log);
		try {
			const added = conn.waitForListChanged();
			server.watcher.fire({ kind: 'created', path: huge });
			await added;
			const entry = (await listAll(conn.client)).find(r => r.name === 'huge.bin') as { size?: number } | undefined;
			assert.equal(entry?.size, 5 * 1024 ** 3);
			const heapBefore = process.memoryUsage().heapUsed;
			const err = await errorOf(conn.client.readResource({ uri: fileUri(huge) }));
			assert.match(err.message, /5 GB, over the 1 MB limit; no read takes a file over 16 MB, whole or in ranges/);
			assert.ok(process.memoryUsage().heapUsed - heapBefore < 100 * 1024 * 1024, 'the file was not loaded');
		} finally {
			await conn.close();
		}
	});

	it('symlink loops and named pipes are neither listed nor readable, and do not hang the index', async () => {
		symlinkSync(fx.file('loop-b'), fx.file('loop-a'));
		symlinkSync(fx.file('loop-a'), fx.file('loop-b'));
		symlinkSync(fx.root, fx.file('src/loop-to-root'));
		execFileSync('mkfifo', [fx.file('pipe')]);
		server.settings.set({ exclude: [] }); // re-index with the new entries
		await server.files.ready();
		const conn = await connectInMemory(server.registry, server.log);
		try {
			const names = (await listAll(conn.client)).map(r => r.name);
			for (const name of ['loop-a', 'loop-b', 'src/loop-to-root', 'pipe']) {
				assert.ok(!names.some(n => n === name || n.startsWith(`${name}/`)), name);
				assert.equal((await errorOf(conn.client.readResource({ uri: fileUri(fx.file(name)) }))).code, -32602, name);
			}
			// A directory link that stays inside the workspace is not walked (no loops), but a
			// file reached through it is a served workspace file and may be read.
			assert.ok(!names.some(n => n.startsWith('src/loop-to-root/')));
			const through = await conn.client.readResource({ uri: fileUri(fx.file('src/loop-to-root/README.md')) });
			assert.equal((through.contents[0] as { text: string }).text, '# Fixture\n');
		} finally {
			await conn.close();
		}
	});

	it('a client disconnecting mid-request and a server restart with clients attached do not break serving', async () => {
		const big = fx.write('big.txt', 'x'.repeat(900_000));
		const host = new HttpHost({ registry: server.registry, log: server.log });
		const info = await host.start();
		try {
			const conn = await connectHttp(info.url, info.token);
			// Abort a request while its response streams.
			const sessionHeaders = {
				Host: `127.0.0.1:${info.port}`, Authorization: `Bearer ${info.token}`, 'Content-Type': 'application/json',
				Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': (conn.client.transport as { sessionId?: string }).sessionId!,
				'Mcp-Protocol-Version': '2025-06-18',
			};
			for (let i = 0; i < 20; i++) {
				await new Promise<void>(resolve => {
					const req = http.request({ host: '127.0.0.1', port: info.port, method: 'POST', path: '/mcp', headers: sessionHeaders }, res => {
						res.once('data', () => {
							req.destroy();
							resolve();
						});
					});
					req.on('error', () => resolve());
					req.end(JSON.stringify({ jsonrpc: '2.0', id: 1000 + i, method: 'resources/read', params: { uri: fileUri(big) } }));
				});
			}
			assert.equal(((await conn.client.readResource({ uri: fileUri(fx.file('README.md')) })).contents[0] as { text: string }).text, '# Fixture\n');

			// Restart on the same port (as with mcpResources.port set): the old session and
			// token are refused at once; a client that reconnects with the new token is served.
			await host.stop();
			const restarted = new HttpHost({ registry: server.registry, log: server.log, port: info.port });
			const next = await restarted.start();
			try {
				assert.equal(next.port, info.port);
				const stale = await errorOf(conn.client.listResources());
				assert.match(stale.message, /401|Unauthorized/i, `the old session is refused, not hung: ${stale.message}`);
				await conn.client.close();
				const again = await connectHttp(next.url, next.token);
				assert.ok((await listAll(again.client)).length > 0);
				await again.close();
			} finally {
				await restarted.stop();
			}
			assert.deepEqual(server.log.errors, []);
		} finally {
			await host.stop();
		}
	});

	it('file descriptors are not leaked by reads', async () => {
		const conn = await connectInMemory(server.registry, server.log);
		const fdsBefore = openFds();
		for (let i = 0; i < 300; i++) {
			await conn.client.readResource({ uri: fileUri(fx.file('README.md')) });
			await errorOf(conn.client.readResource({ uri: fileUri(fx.file('missing.txt')) }));
		}
		assert.ok(openFds() <= fdsBefore + 2, `${fdsBefore} -> ${openFds()}`);
		await conn.close();
	});
});

function openFds(): number {
	// Opening a descriptor returns the lowest free number: a cheap count of what is open.
	const fd = openSync('/dev/null', 'r');
	closeSync(fd);
	return fd;
}
