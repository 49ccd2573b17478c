import * as assert from 'node:assert/strict';
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioTransport } from '../../../../src/mcp/stdio/stdioTransport';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { CLI, cliEnv } from '../../../helpers/headlessHost';

/** `serve --stdio` driven line by line: what it writes back, one parsed message per line. */
class RawStdio {
	private readonly lines: unknown[] = [];
	private waiting: (() => void) | undefined;
	constructor(readonly child: ChildProcessWithoutNullStreams) {
		createInterface({ input: child.stdout }).on('line', line => {
			this.lines.push(JSON.parse(line));
			this.waiting?.();
		});
	}

	write(data: string): void {
		this.child.stdin.write(data);
	}

	async next(): Promise<unknown> {
		while (this.lines.length === 0) {
			await new Promise<void>(resolve => { this.waiting = resolve; });
		}
		return this.lines.shift();
	}
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

describe('stdio framing (serve --stdio, one JSON-RPC message per line)', function () {
	this.timeout(30_000);
	let fx: Fixture;
	let home: string;
	let raw: RawStdio;

	beforeEach(() => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-wire-home-'));
		raw = new RawStdio(spawn(process.execPath, [CLI, 'serve', '--root', fx.root, '--stdio', '--log-level', 'warn'], { env: cliEnv(home) }));
	});
	afterEach(() => {
		raw.child.kill('SIGKILL');
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	it('answers lines that are not JSON-RPC with the JSON-RPC error for each, and keeps serving', async () => {
		raw.write('this is not json\n');
		assert.deepEqual(await raw.next(), { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the line is not valid JSON' } });
		raw.write('[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n');
		assert.deepEqual(await raw.next(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: batches are not supported; send one message per line' } });
		for (const notAnObject of ['5', 'null', '"x"']) {
			raw.write(`${notAnObject}\n`);
			assert.deepEqual(await raw.next(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a JSON-RPC message is a JSON object' } }, notAnObject);
		}
		raw.write('{"hello":"world"}\n');
		assert.deepEqual(await raw.next(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' } });
		raw.write('{"jsonrpc":"1.0","id":"x","method":"ping"}\n');
		assert.deepEqual(await raw.next(), { jsonrpc: '2.0', id: 'x', error: { code: -32600, message: 'Invalid Request: not a valid JSON-RPC 2.0 request (check jsonrpc, method and params)' } });
		raw.write('{"jsonrpc":"2.0","id":{"not":"usable"},"method":7}\n');
		assert.deepEqual(await raw.next(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: not a valid JSON-RPC 2.0 request (check jsonrpc, method and params)' } });
		// An invalid notification and blank lines get no answer: the next line out answers initialize.
		raw.write('{"jsonrpc":"2.0","method":7}\n\n   \n');
		raw.write(`${INITIALIZE}\n`);
		const init = await raw.next() as { id: unknown; result?: { protocolVersion?: string } };
		assert.equal(init.id, 'init');
		assert.equal(init.result?.protocolVersion, '2025-06-18');
	});

	it('reads a message split across writes, several in one write, and CRLF line ends, in order', async () => {
		raw.write(INITIALIZE.slice(0, 25));
		raw.write(`${INITIALIZE.slice(25)}\r\n`);
		assert.equal((await raw.next() as { id: unknown }).id, 'init');
		raw.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n{"jsonrpc":"2.0","id":2,"method":"resources/templates/list"}\n');
		assert.deepEqual(await raw.next(), { jsonrpc: '2.0', id: 1, result: {} });
		const templates = await raw.next() as { id: unknown; result: { resourceTemplates: { uriTemplate: string }[] } };
		assert.equal(templates.id, 2);
		assert.ok(templates.result.resourceTemplates.some(t => t.uriTemplate === 'file:///{+path}'));
	});
	it('answers what was asked in the same breath as closing stdin (printf ... | serve --stdio), then exits 0', async () => {
		const exit = new Promise<number | null>(resolve => raw.child.on('exit', resolve));
		raw.child.stdin.end(`${INITIALIZE}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"resources/list"}\n`);
		assert.equal((await raw.next() as { id: unknown }).id, 'init');
		const list = await raw.next() as { id: unknown; result: { resources: { uri: string }[] } };
		assert.equal(list.id, 2);
		assert.ok(list.result.resources.length > 0);
		assert.equal(await exit, 0);
	});

	it('says on stderr, at the default levels, why it stopped when a line grows past the SDK\'s 10 MiB cap', async () => {
		let stderr = '';
		raw.child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
		// The server stops reading in the middle of the line: the rest of the write fails with EPIPE.
		raw.child.stdin.on('error', () => undefined);
		const exit = new Promise<number | null>(resolve => raw.child.on('exit', resolve));
		raw.write(`${INITIALIZE}\n`);
		assert.equal((await raw.next() as { id: unknown }).id, 'init');
		raw.write(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(11 * 1024 * 1024)}"}}\n`);
		await exit;
		assert.match(stderr, /\[warn\] stdio: A line exceeded the maximum size of 10485760 bytes/, 'a client whose server went away can tell why');
	});
});

describe('StdioTransport', () => {
	function wire(output: Writable = new PassThrough(), maxLineBytes?: number): { input: PassThrough; output: Writable; wire: StdioTransport; errors: Error[]; closed: () => boolean } {
		const input = new PassThrough();
		const transport = new StdioTransport(input, output, maxLineBytes);
		const errors: Error[] = [];
		let closed = false;
		transport.onerror = err => errors.push(err);
		transport.onclose = () => { closed = true; };
		return { input, output, wire: transport, errors, closed: () => closed };
	}

	it('closes with an error when a line grows past the cap, and delivers nothing of it', async () => {
		const w = wire(new PassThrough(), 64);
		const delivered: JSONRPCMessage[] = [];
		w.wire.onmessage = message => delivered.push(message);
		await w.wire.start();
		w.input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
		w.input.write(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(100)}`);
		assert.deepEqual(delivered.map(m => 'id' in m ? m.id : undefined), [1]);
		assert.equal(w.closed(), true);
		assert.match(w.errors[0]?.message ?? '', /exceeded the maximum size of 64 bytes/);
		await assert.rejects(w.wire.send({ jsonrpc: '2.0', id: 1, result: {} }), /closed/);
	});

	it('writes each message as one line in one write, and waits for a full pipe to drain', async () => {
		const chunks: string[] = [];
		let release: () => void = () => undefined;
		const slow = new Writable({
			highWaterMark: 8,
			write(chunk: Buffer, _encoding, callback) {
				chunks.push(chunk.toString());
				release = callback;
			},
		});
		const w = wire(slow);
		await w.wire.start();
		let sent = false;
		const sending = w.wire.send({ jsonrpc: '2.0', id: 7, result: { big: 'y'.repeat(32) } }).then(() => { sent = true; });
		await Promise.resolve();
		assert.equal(sent, false, 'not settled while the pipe is full');
		release();
		await sending;
		assert.deepEqual(chunks, [`${JSON.stringify({ jsonrpc: '2.0', id: 7, result: { big: 'y'.repeat(32) } })}\n`]);
	});

	it('reads no more requests while its answers are not taken, and then delivers every answer, in order', async () => {
		// A reader that takes one chunk when the test says so: a client busy elsewhere.
		const taken: string[] = [];
		const waiting: (() => void)[] = [];
		const slow = new Writable({
			highWaterMark: 1024,
			write(chunk: Buffer, _encoding, callback) {
				taken.push(chunk.toString());
				waiting.push(callback);
			},
		});
		const w = wire(slow);
		const answer = (id: number) => ({ jsonrpc: '2.0' as const, id, result: { pad: 'z'.repeat(4000) } });
		const delivered: number[] = [];
		w.wire.onmessage = message => {
			const { id } = message as { id: number };
			delivered.push(id);
			void w.wire.send(answer(id)); // answered at once, as a prepared page is
		};
		await w.wire.start();
		const requests = Array.from({ length: 50 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"ping"}\n`);
		w.input.write(requests.slice(0, 25).join(''));
		w.input.write(requests.slice(25).join(''));
		await new Promise(resolve => setImmediate(resolve));
		// One answer fills the output: nothing more is delivered, so nothing more is buffered.
		assert.deepEqual(delivered, [0]);
		assert.ok(slow.writableLength <= 5000, `buffered ${slow.writableLength} bytes while the reader took nothing`);
		while (taken.join('').split('\n').length <= 50) {
			const next = waiting.shift();
			assert.ok(next, `the wire stalled after ${delivered.length} requests`);
			next();
			await new Promise(resolve => setImmediate(resolve));
			assert.ok(slow.writableLength <= 5000, `buffered ${slow.writableLength} bytes`);
		}
		assert.deepEqual(delivered, Array.from({ length: 50 }, (_, i) => i));
		assert.equal(taken.join(''), Array.from({ length: 50 }, (_, i) => `${JSON.stringify(answer(i))}\n`).join(''));
	});

	it('after stdin ends, writes the answers to what was asked before, then closes; a listen stream or a cancelled request holds nothing open', async () => {
		const w = wire();
		await w.wire.start();
		const closed = w.wire.whenClosed();
		w.input.end([
			'{"jsonrpc":"2.0","id":1,"method":"resources/list"}',
			'{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{}}',
			'{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"file:///a"}}',
			'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}',
			'',
		].join('\n'));
		w.input.resume();
		await new Promise(resolve => setImmediate(resolve));
		assert.equal(w.closed(), false, 'the list is not answered yet');
		await w.wire.send({ jsonrpc: '2.0', id: 1, result: { resources: [] } });
		await closed;
		assert.equal(w.closed(), true);
		assert.match(String((w.output as PassThrough).read()), /"id":1/);
	});

	it('closes when stdin ends', async () => {
		const w = wire();
		await w.wire.start();
		const closed = new Promise<void>(resolve => { w.wire.onclose = resolve; });
		w.input.end();
		w.input.resume();
		await closed;
	});
});
