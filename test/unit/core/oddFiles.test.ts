import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileUri } from '../../../src/core/uriGuard';
import { connectInMemory, ConnectedClient, createTestServer, errorOf, listAll, TestServer } from '../../helpers/harness';

/** Names a file system allows and a workspace may hold, that no fixture had. */
describe('files with names and kinds nobody tried', () => {
	let root: string;
	let server: TestServer | undefined;
	let conn: ConnectedClient | undefined;
	let socket: net.Server | undefined;

	beforeEach(() => {
		root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-odd-')));
	});

	afterEach(async () => {
		await conn?.close();
		server?.dispose();
		conn = undefined;
		server = undefined;
		await new Promise<void>(resolve => socket ? socket.close(() => resolve()) : resolve());
		socket = undefined;
		rmSync(root, { recursive: true, force: true });
	});

	async function serve(): Promise<{ server: TestServer; conn: ConnectedClient }> {
		server = createTestServer([root]);
		await server.files.ready();
		conn = await connectInMemory(server.registry, server.log);
		return { server, conn };
	}

	it('lists and reads files named after members of every object (__proto__, constructor) as plain text', async () => {
		const names = ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf'];
		for (const name of names) {
			writeFileSync(path.join(root, name), `${name}\n`);
		}
		const { conn } = await serve();
		// The SDK client checks every entry of a page: one mimeType that is not a string
		// would make the whole page, and every file on it, unreadable for the client.
		const listed = await listAll(conn.client) as { uri: string; name: string; mimeType?: unknown }[];
		assert.deepEqual(listed.map(r => r.name).sort(), [...names].sort());
		assert.deepEqual(listed.filter(r => r.mimeType !== undefined), [], 'a name says nothing about its type');
		for (const name of names) {
			const uri = fileUri(path.join(root, name));
			const read = await conn.client.readResource({ uri });
			assert.deepEqual(read.contents, [{ uri, mimeType: 'text/plain', text: `${name}\n` }]);
		}
	});

	it('notifies a subscription by the URI exactly as the client spelled it (~ as URI templates expand it, lowercase escapes, localhost)', async () => {
		writeFileSync(path.join(root, 'notes~.txt'), 'one\n');
		writeFileSync(path.join(root, 'caf\u00e9.txt'), 'one\n');
		const { server, conn } = await serve();
		const own = fileUri(path.join(root, 'notes~.txt'));
		assert.ok(own.endsWith('notes%7E.txt'), 'listed with ~ escaped (Node\'s pathToFileURL)');
		// VS Code's and the SDK's RFC 6570 expansion of file:///{+path} leave ~ as it is.
		const spellings = [
			own.replace('%7E', '~'),
			fileUri(path.join(root, 'caf\u00e9.txt')).replace('%C3%A9', '%c3%a9'),
			own.replace('file://', 'file://localhost'),
		];
		for (const uri of spellings) {
			await conn.client.subscribeResource({ uri });
		}
		writeFileSync(path.join(root, 'notes~.txt'), 'two\n');
		writeFileSync(path.join(root, 'caf\u00e9.txt'), 'two\n');
		server.watcher.fire({ kind: 'changed', path: path.join(root, 'notes~.txt') }, { kind: 'changed', path: path.join(root, 'caf\u00e9.txt') });
		for (const uri of spellings) {
			await conn.waitForUpdate(uri);
		}
		assert.ok(!conn.updates.includes(own), 'nobody subscribed by the listed spelling');
	});

	it('answers a socket and a name too long to exist with not-found and the URI, logging no error', async () => {
		writeFileSync(path.join(root, 'served.txt'), 'x\n');
		socket = net.createServer();
		await new Promise<void>(resolve => socket!.listen(path.join(root, 'sock'), resolve));
		const { server, conn } = await serve();
		const uris = [
			fileUri(path.join(root, 'sock')),
			fileUri(path.join(root, 'sock')) + '?lines=1',
			fileUri(path.join(root, `${'n'.repeat(300)}.txt`)),
			fileUri(path.join(root, ...Array.from({ length: 25 }, () => 'd'.repeat(200)), 'x.txt')),
		];
		for (const uri of uris) {
			const err = await errorOf(conn.client.readResource({ uri }));
			assert.deepEqual([err.code, err.data], [-32602, { uri }], uri.slice(0, 80));
		}
		assert.deepEqual(server.log.errors, [], 'nothing went wrong on the server');
	});
});
