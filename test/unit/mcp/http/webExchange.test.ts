import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { abortedWhenClientGoes, writeResponse } from '../../../../src/mcp/http/webExchange';

/** Socket writes a response made (each is one system call), counted on the server's side. */
interface Served {
	readonly url: string;
	readonly socketWrites: () => number;
	close(): Promise<void>;
}

/** A real loopback server that answers every request with `respond()` through `writeResponse`. */
async function serve(respond: () => Response, opensAtOnce = false): Promise<Served> {
	let writes = 0;
	const server = http.createServer((_req, res) => {
		const socket = res.socket as unknown as { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
		for (const key of ['_write', '_writev'] as const) {
			const original = socket[key].bind(socket);
			socket[key] = (...args: unknown[]) => {
				writes++;
				original(...args);
			};
		}
		void writeResponse(respond(), res, opensAtOnce);
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
		socketWrites: () => writes,
		close: () => new Promise(resolve => {
			server.closeAllConnections();
			server.close(() => resolve());
		}),
	};
}

const encoder = new TextEncoder();
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' };

describe('writing a web Response to Node', () => {
	it('leaves a kept-alive connection clean after an SSE answer: the next answer on it arrives whole', async () => {
		const event = 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n';
		let count = 0;
		const served = await serve(() => ++count % 2 === 1
			? new Response(new ReadableStream<Uint8Array>({
				start(controller) {
					// As the SDK's transport does for a POST: the answer, then the stream closed at once.
					controller.enqueue(encoder.encode(event));
					controller.close();
				},
			}), { status: 200, headers: SSE_HEADERS })
			: new Response('{"jsonrpc":"2.0","id":2,"result":{}}', { status: 200, headers: { 'content-type': 'application/json' } }));
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		const get = () => new Promise<{ body: string; socket: unknown }>((resolve, reject) => {
			http.get(served.url, { agent }, res => {
				let body = '';
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => { body += chunk; });
				res.on('end', () => resolve({ body, socket: res.socket }));
				res.on('error', reject);
			}).on('error', reject);
		});
		try {
			const first = await get();
			const second = await get();
			const third = await get();
			assert.equal(first.body, event);
			assert.equal(second.body, '{"jsonrpc":"2.0","id":2,"result":{}}');
			assert.equal(third.body, event);
			assert.equal(second.socket, first.socket, 'one kept-alive connection');
		} finally {
			agent.destroy();
			await served.close();
		}
	});

	it('opens a long-lived stream at once (headers before any event) and sends each event as it comes', async () => {
		let push: ((text: string) => void) | undefined;
		let end: (() => void) | undefined;
		const served = await serve(() => new Response(new ReadableStream<Uint8Array>({
			start(controller) {
				push = text => controller.enqueue(encoder.encode(text));
				end = () => controller.close();
			},
		}), { status: 200, headers: SSE_HEADERS }), true);
		try {
			const res = await fetch(served.url);
			const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
			const next = async (): Promise<string> => {
				const { value, done } = await reader.read();
				assert.ok(!done, 'the stream is still open');
				return value;
			};
			push!('data: one\n\n');
			assert.equal(await next(), 'data: one\n\n');
			push!('data: two\n\n');
			assert.equal(await next(), 'data: two\n\n');
			end!();
			assert.deepEqual(await reader.read(), { done: true, value: undefined });
		} finally {
			await served.close();
		}
	});

	it('sends a whole JSON body with its length in one socket write', async () => {
		const body = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'é'.repeat(100) } });
		const served = await serve(() => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }));
		try {
			const res = await fetch(served.url);
			assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(body)));
			assert.equal(await res.text(), body);
			assert.equal(served.socketWrites(), 1);
		} finally {
			await served.close();
		}
	});

	it('releases a stream whose client left before the answer was ready, so a 2025 session may open its GET stream again', async () => {
		let cancelled!: () => void;
		const released = new Promise<void>(resolve => (cancelled = resolve));
		const server = http.createServer((req, res) => {
			// The answer is ready only once the client has gone, as when the SDK is slower than a
			// client that gives up: the response is closed before it is written.
			req.socket.once('close', () => void writeResponse(new Response(new ReadableStream<Uint8Array>({
				cancel: () => cancelled(),
			}), { status: 200, headers: SSE_HEADERS }), res, true));
		});
		await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
		try {
			const request = http.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
			request.on('error', () => undefined);
			request.once('socket', socket => socket.once('connect', () => request.once('finish', () => request.destroy())));
			await released;
		} finally {
			server.closeAllConnections();
			await new Promise(resolve => server.close(resolve));
		}
	});

	it('aborts a request\'s signal when its client goes before the answer, not after a full answer', async () => {
		const signals: AbortSignal[] = [];
		let aborted!: () => void;
		const abortSeen = new Promise<void>(resolve => (aborted = resolve));
		const server = http.createServer((req, res) => {
			const signal = abortedWhenClientGoes(res);
			signals.push(signal);
			signal.addEventListener('abort', () => aborted());
			if (req.url === '/answered') {
				res.end('done');
			}
		});
		await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
		const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		try {
			const answered = await fetch(`${base}/answered`);
			assert.equal(await answered.text(), 'done');
			const left = new AbortController();
			const pending = fetch(`${base}/left`, { signal: left.signal }).catch(() => undefined);
			await new Promise<void>(resolve => server.once('request', () => resolve()));
			left.abort();
			await pending;
			await abortSeen;
			assert.deepEqual(signals.map(s => s.aborted), [false, true]);
		} finally {
			server.closeAllConnections();
			await new Promise(resolve => server.close(resolve));
		}
	});
});
