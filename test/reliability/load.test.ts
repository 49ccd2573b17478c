import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { fileUri } from '../../src/core/uriGuard';
import { HttpHost } from '../../src/mcp/http/httpHost';
import { createFixture, Fixture } from '../helpers/fixtureWorkspace';
import { connectHttp, createTestServer, TestServer } from '../helpers/harness';
import { heapAfterGc } from '../helpers/heap';

const SESSIONS = 20;
const READS_PER_SESSION = Number(process.env.LOAD_READS ?? 1000);
const CYCLES = Number(process.env.LOAD_CYCLES ?? 1000);

function timers(): number {
	return process.getActiveResourcesInfo().filter(r => r === 'Timeout').length;
}

describe('load', function () {
	this.timeout(900_000);
	let fx: Fixture;
	let server: TestServer;
	let host: HttpHost;
	let url: string;
	let token: string;
	const files: string[] = [];

	before(async () => {
		fx = createFixture();
		for (let i = 0; i < 200; i++) {
			files.push(fx.write(`load/f${i}.txt`, `content ${i}\n`.repeat(20)));
		}
		server = createTestServer([fx.root]);
		await server.files.ready();
		host = new HttpHost({ registry: server.registry, log: server.log });
		({ url, token } = await host.start());
	});

	after(async () => {
		await host.stop();
		server.dispose();
		fx.dispose();
	});

	it(`${SESSIONS} sessions x ${READS_PER_SESSION} reads and subscriptions while files change: no failures, bounded heap`, async () => {
		// Warm up code paths and caches so the heap comparison measures growth, not first use.
		const warm = await connectHttp(url, token);
		for (let i = 0; i < 200; i++) {
			await warm.client.readResource({ uri: fileUri(files[i % files.length]) });
		}
		await warm.close();
		const heapBefore = heapAfterGc();

		let changes = 0;
		const churn = setInterval(() => {
			const i = changes++ % files.length;
			writeFileSync(files[i], `changed ${changes}\n`);
			server.watcher.fire({ kind: 'changed', path: files[i] });
		}, 5);
		let failures = 0;
		let requests = 0;
		const updates: number[] = [];
		try {
			await Promise.all(Array.from({ length: SESSIONS }, async (_, s) => {
				const conn = await connectHttp(url, token);
				try {
					for (let i = 0; i < READS_PER_SESSION; i++) {
						const uri = fileUri(files[(s * 31 + i) % files.length]);
						try {
							if (i % 10 === 0) {
								await conn.client.subscribeResource({ uri });
							}
							const result = await conn.client.readResource({ uri });
							assert.equal(result.contents.length, 1);
							requests++;
						} catch {
							failures++;
						}
					}
					updates.push(conn.updates.length);
				} finally {
					await conn.close();
				}
			}));
		} finally {
			clearInterval(churn);
		}
		const heapAfter = heapAfterGc();
		const growthMb = (heapAfter - heapBefore) / 1024 / 1024;
		console.log(`      ${requests} reads, ${failures} failed, ${changes} file changes, ${updates.reduce((a, b) => a + b, 0)} updates delivered, heap growth ${growthMb.toFixed(1)} MB`);
		assert.equal(failures, 0);
		assert.equal(requests, SESSIONS * READS_PER_SESSION);
		assert.ok(updates.every(n => n > 0), 'every session heard about the files it subscribed to');
		assert.ok(growthMb <= 10, `heap grew by ${growthMb.toFixed(1)} MB`);
		assert.equal(host.sessionCount, 0);
	});

	it(`${CYCLES} connect/disconnect cycles leave no sessions, listeners or timers`, async () => {
		const listenersBefore = server.registry.changeListenerCount;
		const timersBefore = timers();
		for (let i = 0; i < CYCLES; i++) {
			const conn = await connectHttp(url, token);
			if (i % 2 === 0) {
				await conn.client.subscribeResource({ uri: fileUri(files[i % files.length]) });
			}
			await conn.close();
		}
		assert.equal(host.sessionCount, 0);
		assert.equal(server.registry.changeListenerCount, listenersBefore);
		// Keep-alive sockets of the client's fetch may hold a timer briefly; allow none to accumulate.
		assert.ok(timers() <= timersBefore + 2, `timers: ${timersBefore} -> ${timers()}`);
		console.log(`      ${CYCLES} cycles; sessions 0, change listeners ${listenersBefore} -> ${server.registry.changeListenerCount}, timers ${timersBefore} -> ${timers()}`);
	});
});
