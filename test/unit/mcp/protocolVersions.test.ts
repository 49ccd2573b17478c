import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { fileUri } from '../../../src/core/uriGuard';
import { HttpHost } from '../../../src/mcp/http/httpHost';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, TestServer } from '../../helpers/harness';

interface RpcReply {
	status: number;
	sessionId?: string;
	body: { result?: Record<string, unknown>; error?: { code: number; message: string } } | undefined;
}

/** One JSON-RPC request over raw HTTP, the way a client of an older revision sends it. */
function post(port: number, token: string, message: object, headers: Record<string, string> = {}): Promise<RpcReply> {
	const body = JSON.stringify(message);
	return new Promise((resolve, reject) => {
		const req = http.request({
			host: '127.0.0.1', port, method: 'POST', path: '/mcp',
			headers: {
				Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
				'Content-Length': Buffer.byteLength(body), ...headers,
			},
		}, res => {
			const chunks: Buffer[] = [];
			res.on('data', c => chunks.push(c));
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				// SSE mode: the reply is the data line of the one event.
				const data = text.split('\n').find(l => l.startsWith('data: '))?.slice(6) ?? (text.startsWith('{') ? text : undefined);
				resolve({ status: res.statusCode ?? 0, sessionId: res.headers['mcp-session-id'] as string | undefined, body: data ? JSON.parse(data) : undefined });
			});
		});
		req.on('error', reject);
		req.end(body);
	});
}

describe('protocol versions', () => {
	let fx: Fixture;
	let server: TestServer;
	let host: HttpHost;
	let port: number;
	let token: string;

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		host = new HttpHost({ registry: server.registry, log: server.log });
		({ port, token } = await host.start());
	});
	afterEach(async () => {
		await host.stop();
		host.dispose();
		server.dispose();
		fx.dispose();
	});

	it('negotiates what SDK 1.32 supports, newest 2025-11-25', () => {
		assert.equal(LATEST_PROTOCOL_VERSION, '2025-11-25');
		assert.deepEqual(SUPPORTED_PROTOCOL_VERSIONS, ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']);
	});

	for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
		it(`a client asking for ${version} gets ${version} and can list, read and subscribe`, async () => {
			const init = await post(port, token, {
				jsonrpc: '2.0', id: 1, method: 'initialize',
				params: { protocolVersion: version, capabilities: {}, clientInfo: { name: `client-${version}`, version: '1' } },
			});
			assert.equal(init.status, 200);
			assert.equal(init.body?.result?.protocolVersion, version);
			assert.deepEqual((init.body?.result?.capabilities as { resources: unknown }).resources, { subscribe: true, listChanged: true });
			const sessionId = init.sessionId;
			assert.ok(sessionId);
			// 2025-03-26 predates the MCP-Protocol-Version header; later revisions send it on every request.
			const headers: Record<string, string> = { 'Mcp-Session-Id': sessionId };
			if (version !== '2025-03-26') {
				headers['MCP-Protocol-Version'] = version;
			}
			assert.equal((await post(port, token, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status, 202);

			const list = await post(port, token, { jsonrpc: '2.0', id: 2, method: 'resources/list', params: {} }, headers);
			const resources = list.body?.result?.resources as { uri: string; name: string }[];
			assert.ok(resources.some(r => r.name === 'README.md'), JSON.stringify(list.body));

			const uri = fileUri(fx.file('README.md'));
			const read = await post(port, token, { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri } }, headers);
			assert.equal((read.body?.result?.contents as { text: string }[])[0].text, '# Fixture\n');

			const subscribe = await post(port, token, { jsonrpc: '2.0', id: 4, method: 'resources/subscribe', params: { uri } }, headers);
			assert.deepEqual(subscribe.body?.result, {});
			const templates = await post(port, token, { jsonrpc: '2.0', id: 5, method: 'resources/templates/list', params: {} }, headers);
			assert.equal((templates.body?.result?.resourceTemplates as { uriTemplate: string }[])[0].uriTemplate, 'file:///{+path}');
		});
	}

	it('answers an unknown version with the newest it supports (the client then decides)', async () => {
		const init = await post(port, token, {
			jsonrpc: '2.0', id: 1, method: 'initialize',
			params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'future', version: '1' } },
		});
		assert.equal(init.body?.result?.protocolVersion, LATEST_PROTOCOL_VERSION);
	});

	it('refuses a request whose MCP-Protocol-Version header names a version it does not support', async () => {
		const init = await post(port, token, {
			jsonrpc: '2.0', id: 1, method: 'initialize',
			params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
		});
		const reply = await post(port, token, { jsonrpc: '2.0', id: 2, method: 'resources/list', params: {} },
			{ 'Mcp-Session-Id': init.sessionId!, 'MCP-Protocol-Version': '2026-07-28' });
		assert.equal(reply.status, 400);
	});
});
