import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { serveStdioConnection, StdioConnection } from '../../src/mcp/stdio/serveStdioConnection';
import { StdioTransport } from '../../src/mcp/stdio/stdioTransport';
import { fileUri } from '../../src/core/uriGuard';
import { createFixture, Fixture } from '../helpers/fixtureWorkspace';
import { createTestServer, RecordingLogger, TestServer } from '../helpers/harness';
import { heapAfterGc } from '../helpers/heap';

const ENVELOPE = {
	'io.modelcontextprotocol/protocolVersion': '2026-07-28',
	'io.modelcontextprotocol/clientCapabilities': {},
	'io.modelcontextprotocol/clientInfo': { name: 'cancels-everything', version: '1' },
};

/** Request ids of 32 KB: whatever keeps one id per request shows in megabytes within a few hundred. */
const ID_PAD = 'i'.repeat(32 * 1024);
const PAIRS_PER_ROUND = 500;
const ROUNDS = 4;

/** A raw stdio pipe into the server, the answers to `sync-*` ids awaited. */
class Pipe {
	readonly toServer = new PassThrough();
	readonly fromServer = new PassThrough();
	private text = '';
	private readonly waiting = new Map<string, () => void>();

	constructor() {
		this.fromServer.setEncoding('utf8');
		this.fromServer.on('data', (chunk: string) => {
			this.text += chunk;
			let end: number;
			while ((end = this.text.indexOf('\n')) >= 0) {
				const line = this.text.slice(0, end);
				this.text = this.text.slice(end + 1);
				const id = (JSON.parse(line) as { id?: unknown }).id;
				if (typeof id === 'string' && id.startsWith('sync-')) {
					this.waiting.get(id)?.();
					this.waiting.delete(id);
				}
			}
		});
	}

	write(messages: object[]): void {
		this.toServer.write(messages.map(m => `${JSON.stringify(m)}\n`).join(''));
	}

	/**
	 * Resolves once everything written before has been handled: a `server/discover` is answered
	 * by the SDK's entry itself, in order behind every cancellation.
	 */
	sync(n: number): Promise<void> {
		const id = `sync-${n}`;
		const answered = new Promise<void>(resolve => this.waiting.set(id, resolve));
		this.write([{ jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: ENVELOPE } }]);
		return answered;
	}
}

/**
 * A stdio client that sends requests and cancels each at once: a cancelled request gets no
 * answer, so anything kept per request until its answer is kept for good unless the cancel
 * lets go of it too.
 */
describe('requests cancelled at once over stdio: nothing kept per request', function () {
	this.timeout(300_000);
	let fx: Fixture;
	let server: TestServer;
	let host: StdioConnection;
	let pipe: Pipe;

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		await server.files.ready();
		pipe = new Pipe();
		host = serveStdioConnection({ registry: server.registry, log: new RecordingLogger() }, new StdioTransport(pipe.toServer, pipe.fromServer));
		await pipe.sync(-1); // the 2026-07-28 era
	});
	afterEach(async () => {
		await host.close();
		server.dispose();
		fx.dispose();
	});

	const kinds: [string, () => Record<string, unknown>][] = [
		['server/discover', () => ({ _meta: ENVELOPE })],
		['resources/read', () => ({ _meta: ENVELOPE, uri: fileUri(fx.file('README.md')) })],
		['resources/list', () => ({ _meta: ENVELOPE })],
	];
	for (const [method, params] of kinds) {
		it(`${method}: ${ROUNDS * PAIRS_PER_ROUND} requests with 32 KB ids, each cancelled at once, leave the heap level`, async () => {
			const heap: number[] = [];
			let next = 0;
			for (let round = 0; round <= ROUNDS; round++) {
				if (round > 0) {
					for (let i = 0; i < PAIRS_PER_ROUND; i++) {
						const id = `${next++}-${ID_PAD}`;
						pipe.write([
							{ jsonrpc: '2.0', id, method, params: params() },
							{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, _meta: ENVELOPE } },
						]);
					}
				}
				await pipe.sync(round);
				heap.push(heapAfterGc());
			}
			const grownMb = (heap[ROUNDS] - heap[1]) / (1024 * 1024);
			console.log(`      ${method}: heap after each ${PAIRS_PER_ROUND} pairs (MB): ${heap.map(h => (h / (1024 * 1024)).toFixed(1)).join(', ')}`);
			// One id kept per pair would be 16 MB a round.
			assert.ok(grownMb < 8, `heap grew ${grownMb.toFixed(1)} MB over ${ROUNDS - 1} rounds of ${PAIRS_PER_ROUND} cancelled requests`);
		});
	}
});
