import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import { createInterface } from 'node:readline';
import { fileUri } from '../../src/core/uriGuard';
import { HttpHost } from '../../src/mcp/http/httpHost';
import { createFixture, Fixture } from '../helpers/fixtureWorkspace';
import { connectHttp, createTestServer, listAll, TestServer } from '../helpers/harness';
import { CLI } from '../helpers/headlessHost';
import { FuzzGenerator, isValidResponse } from './fuzzMessages';

const COUNT = Number(process.env.FUZZ_MESSAGES ?? 10_000);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(port: number, headers: Record<string, string>, body: string | Buffer): Promise<{ status: number; type: string; text: string; sessionId?: string }> {
	return new Promise((resolve, reject) => {
		const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers, agent }, res => {
			const chunks: Buffer[] = [];
			res.on('data', c => chunks.push(c));
			res.on('end', () => resolve({
				status: res.statusCode ?? 0,
				type: String(res.headers['content-type'] ?? ''),
				text: Buffer.concat(chunks).toString('utf8'),
				sessionId: res.headers['mcp-session-id'] as string | undefined,
			}));
		});
		req.setTimeout(10_000, () => req.destroy(new Error('request timed out')));
		req.on('error', reject);
		req.end(body);
	});
}

/** JSON-RPC messages in a response body, SSE or plain JSON. */
function messagesOf(type: string, text: string): unknown[] {
	if (text.trim() === '') {
		return [];
	}
	if (type.includes('text/event-stream')) {
		return text.split('\n').filter(l => l.startsWith('data:')).map(l => l.slice(5).trim()).filter(Boolean).map(d => JSON.parse(d));
	}
	const parsed = JSON.parse(text);
	return Array.isArray(parsed) ? parsed : [parsed];
}

describe('protocol fuzzing', function () {
	this.timeout(600_000);
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

	it(`answers ${COUNT} generated messages over HTTP with valid JSON-RPC, stays up, logs no errors`, async () => {
		const host = new HttpHost({ registry: server.registry, log: server.log });
		const { port, token, url } = await host.start();
		try {
			const base = {
				Host: `127.0.0.1:${port}`, Authorization: `Bearer ${token}`,
				'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
			};
			const init = await post(port, base, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }));
			assert.equal(init.status, 200);
			const headers = { ...base, 'Mcp-Session-Id': init.sessionId!, 'Mcp-Protocol-Version': '2025-06-18' };
			await post(port, headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

			const gen = new FuzzGenerator(1, [fileUri(fx.file('README.md')), fileUri(fx.file('.env'))]);
			const statuses = new Map<number, number>();
			for (let i = 0; i < COUNT; i++) {
				const { body, expectIds } = gen.next();
				const res = await post(port, headers, body);
				statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
				const context = `message ${i}: ${String(body).slice(0, 200)} -> ${res.status} ${res.text.slice(0, 200)}`;
				assert.ok(res.status < 500, context);
				const messages = messagesOf(res.type, res.text);
				if (res.status >= 400) {
					assert.ok(messages.length === 1 && (messages[0] as { error?: { code?: unknown } }).error && Number.isInteger((messages[0] as { error: { code: unknown } }).error.code), context);
					continue;
				}
				for (const m of messages) {
					if ((m as { method?: unknown }).method === undefined) {
						assert.ok(isValidResponse(m), context);
					}
				}
				for (const id of expectIds) {
					assert.ok(messages.some(m => (m as { id?: unknown }).id === id), `no response for id ${id}: ${context}`);
				}
			}
			console.log(`      HTTP: ${COUNT} messages, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
			const conn = await connectHttp(url, token);
			assert.ok((await listAll(conn.client)).length > 0, 'still serving after the fuzz');
			await conn.close();
			assert.deepEqual(server.log.errors, []);
		} finally {
			await host.stop();
		}
	});

	it(`answers every valid request among ${COUNT} generated lines over stdio and keeps serving`, async () => {
		const child = spawn(process.execPath, [CLI, 'serve', '--root', fx.root, '--stdio', '--log-level', 'warn'], { stdio: ['pipe', 'pipe', 'pipe'] });
		let stderr = '';
		child.stderr.on('data', d => (stderr += d));
		const answered = new Set<string | number>();
		let invalid = 0;
		const waiters: (() => void)[] = [];
		createInterface({ input: child.stdout }).on('line', line => {
			const message = JSON.parse(line);
			if (message.method === undefined) {
				if (!isValidResponse(message)) {
					invalid++;
				}
				answered.add(message.id);
			}
			waiters.splice(0).forEach(w => w());
		});
		const until = (predicate: () => boolean, what: string) => new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 60_000);
			const check = () => (predicate() ? (clearTimeout(timer), resolve()) : waiters.push(check));
			check();
		});
		const write = (data: string | Buffer) => new Promise<void>(resolve => (child.stdin.write(data) ? resolve() : child.stdin.once('drain', resolve)));
		try {
			await write(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }) + '\n');
			await until(() => answered.has('init'), 'initialize');
			await write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
			const gen = new FuzzGenerator(2, [fileUri(fx.file('README.md'))]);
			const expected = new Set<string | number>();
			for (let i = 0; i < COUNT; i++) {
				const { body, expectIds } = gen.next();
				expectIds.forEach(id => expected.add(id));
				await write(Buffer.concat([Buffer.isBuffer(body) ? body : Buffer.from(body), Buffer.from('\n')]));
			}
			await write(JSON.stringify({ jsonrpc: '2.0', id: 'final', method: 'resources/list', params: {} }) + '\n');
			await until(() => answered.has('final') && [...expected].every(id => answered.has(id)), 'every valid request to be answered');
			assert.equal(invalid, 0, 'every response is valid JSON-RPC');
			assert.equal(child.exitCode, null, 'still running');
			assert.ok(!/\[error\]/.test(stderr), stderr.slice(0, 2000));
			console.log(`      stdio: ${COUNT} messages, ${expected.size} distinct valid request ids answered`);
		} finally {
			child.kill('SIGTERM');
		}
	});
});
