import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { HttpHost } from '../../src/mcp/http/httpHost';
import { createFixture, Fixture } from '../helpers/fixtureWorkspace';
import { ConnectedClient, connectHttp, createTestServer, initializeOnly, listAll, TestServer, untilListening } from '../helpers/harness';

/** Resolves when the server closes the socket (or it errors), with what it sent. */
function closed(socket: net.Socket): Promise<string> {
	return new Promise(resolve => {
		let data = '';
		socket.on('data', d => (data += d));
		socket.on('close', () => resolve(data));
		socket.on('error', () => undefined);
	});
}

function connect(port: number): Promise<net.Socket> {
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
		socket.on('error', reject);
	});
}

describe('HTTP abuse', function () {
	this.timeout(120_000);
	let fx: Fixture;
	let server: TestServer;

	before(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		await server.files.ready();
	});
	after(() => {
		server.dispose();
		fx.dispose();
	});

	it('cuts off slow senders: headers and bodies that never finish', async () => {
		const host = new HttpHost({ registry: server.registry, log: server.log, headersTimeoutMs: 500, requestTimeoutMs: 1000 });
		const { port, token } = await host.start();
		try {
			// Headers dribbled and never completed.
			const slowHeaders = await connect(port);
			const headersCut = closed(slowHeaders);
			slowHeaders.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
			const response = await headersCut;
			assert.match(response, /^HTTP\/1\.1 408/, 'request timeout answered');
			// A body that is announced but never sent.
			const slowBody = await connect(port);
			const bodyCut = closed(slowBody);
			slowBody.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
				'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"');
			assert.match(await bodyCut, /^HTTP\/1\.1 408|^$/, 'the connection is closed');
			const conn = await connectHttp(host.connectionInfo!.url, token);
			assert.ok((await listAll(conn.client)).length > 0, 'still serving');
			await conn.close();
		} finally {
			await host.stop();
		}
	});

	it('bounds sessions opened and never closed: the oldest abandoned are reaped, connected clients kept', async () => {
		const host = new HttpHost({ registry: server.registry, log: server.log, maxSessions: 10 });
		const { url, token } = await host.start();
		let probes = 0;
		const poke = () => server.watcher.fire({ kind: 'created', path: fx.write(`probe-${probes++}.txt`, 'x') });
		try {
			const listener = await connectHttp(url, token);
			await untilListening(listener, poke);
			for (let i = 0; i < 25; i++) {
				assert.equal((await initializeOnly(url, token)).status, 200); // never used again, never closed
			}
			assert.equal(host.sessionCount, 10);
			// one listener per 2025 session, plus the stateless 2026-07-28 route's one for the host
			assert.equal(server.registry.changeListenerCount, 10 + 1, 'reaped sessions release their listeners');
			const newest = await connectHttp(url, token);
			assert.ok((await listAll(newest.client)).length > 0, 'the newest session works');
			await untilListening(listener, poke);
			assert.ok((await listAll(listener.client)).length > 0, 'the listening client was kept throughout');
			await Promise.all([newest.close(), listener.close()]);
		} finally {
			await host.stop();
		}
		assert.equal(server.registry.changeListenerCount, 0);
	});

	it('bounds sessions held open by connected clients: the newcomer is refused, nobody is dropped', async () => {
		const host = new HttpHost({ registry: server.registry, log: server.log, maxSessions: 10 });
		const { url, token } = await host.start();
		let probes = 0;
		const poke = () => server.watcher.fire({ kind: 'created', path: fx.write(`probe-${probes++}.txt`, 'x') });
		const clients: ConnectedClient[] = [];
		try {
			for (let i = 0; i < 10; i++) {
				clients.push(await connectHttp(url, token));
				await untilListening(clients[i], poke);
			}
			for (let i = 0; i < 15; i++) {
				const refused = await initializeOnly(url, token);
				assert.equal(refused.status, 503);
				assert.match(refused.body, /Too many sessions/);
			}
			assert.equal(host.sessionCount, 10);
			assert.equal(server.registry.changeListenerCount, 10 + 1, 'refused newcomers hold nothing');
			for (const client of clients) {
				assert.ok((await client.client.listResources()).resources.length > 0);
			}
		} finally {
			await Promise.all(clients.map(c => c.close()));
			await host.stop();
		}
		assert.equal(server.registry.changeListenerCount, 0);
	});

	it('bounds a connection flood from loopback, and serves again once it stops', async () => {
		const host = new HttpHost({ registry: server.registry, log: server.log, maxConnections: 50 });
		const { port, url, token } = await host.start();
		const sockets: net.Socket[] = [];
		try {
			const refused: Promise<string>[] = [];
			let refusedAtConnect = 0;
			for (let i = 0; i < 200; i++) {
				const socket = await connect(port).catch(() => undefined);
				if (socket) {
					sockets.push(socket);
					refused.push(closed(socket));
				} else {
					refusedAtConnect++;
				}
			}
			// Connections past the limit are closed by the server at once: wait for those 150 closes
			// (none of ours yet), then see that the server holds the 50 it admitted, no fewer.
			await new Promise<void>(resolve => {
				let closes = refusedAtConnect;
				const counted = () => ++closes >= 200 - 50 && resolve();
				refused.forEach(r => void r.then(counted));
				if (closes >= 200 - 50) {
					resolve();
				}
			});
			assert.equal(await host.connectionCount(), 50, 'the server holds the connections it admitted');
			const open = sockets.filter(s => !s.destroyed && s.readyState === 'open').length;
			assert.ok(open <= 50, `${open} connections stayed open`);
			for (const s of sockets) {
				s.destroy();
			}
			await Promise.all(refused);
			// The server learns of the closes asynchronously: wait until it has.
			while ((await host.connectionCount()) > 0) {
				await new Promise(resolve => setImmediate(resolve));
			}
			const conn = await connectHttp(url, token);
			assert.ok((await listAll(conn.client)).length > 0, 'serves again after the flood');
			await conn.close();
			console.log(`      flood: 200 connections, ${200 - open} refused by the server, ${open} held`);
		} finally {
			sockets.forEach(s => s.destroy());
			await host.stop();
		}
	});
});
