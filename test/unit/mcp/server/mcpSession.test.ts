import * as assert from 'node:assert/strict';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { ConnectedClient, connectInMemory, createTestServer, errorOf, TestServer } from '../../../helpers/harness';
import { fixedToolSwitch } from '../../../../src/mcp/tools/toolSwitch';

describe('MCP session surface', () => {
	let fx: Fixture;
	let server: TestServer;
	let conn: ConnectedClient;

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		conn = await connectInMemory(server.registry);
	});
	afterEach(async () => {
		await conn.close();
		server.dispose();
		fx.dispose();
	});

	it('answers tools/list and prompts/list (prompts empty), so clients that always call them work', async () => {
		const capabilities = conn.client.getServerCapabilities();
		assert.ok(capabilities?.tools && capabilities.prompts, 'the spec asks the capability of a server that answers the method');
		assert.deepEqual((await conn.client.listTools()).tools.map(t => t.name), ['list_resources', 'read_resource']);
		assert.deepEqual((await conn.client.listPrompts()).prompts, []);
	});

	it('answers tools/list with an empty list while tools are off, and a call as an unknown tool', async () => {
		const off = await connectInMemory(server.registry, undefined, undefined, fixedToolSwitch(false));
		try {
			assert.deepEqual(off.client.getServerCapabilities()?.tools, { listChanged: true }, 'still declared: turning them on is announced');
			assert.deepEqual((await off.client.listTools()).tools, []);
			const call = await errorOf(off.client.callTool({ name: 'read_resource', arguments: { uri: 'file:///x' } }));
			assert.equal(call.code, -32602);
			assert.match(call.message, /Unknown tool: read_resource\. Tools are turned off on this server \(mcpResources\.tools\.enabled, or serve --no-tools\)/);
		} finally {
			await off.close();
		}
	});

	it('answers a malformed tools/list or prompts/list cursor with -32602 and a short reason, not -32603 and the validator\'s dump', async () => {
		for (const cursor of [5, null, {}]) {
			for (const list of [() => conn.client.listTools({ cursor } as never), () => conn.client.listPrompts({ cursor } as never)]) {
				const err = await errorOf(list());
				assert.equal(err.code, -32602, JSON.stringify(cursor));
				assert.match(err.message, /cursor/);
				assert.doesNotMatch(err.message, /invalid_type|\n/, 'a short reason, not a JSON dump');
			}
		}
		assert.equal((await conn.client.listTools()).tools.length, 2, 'and the next request is answered');
	});

	it('refuses a tool or prompt by name with -32602, offering none', async () => {
		const tool = await errorOf(conn.client.callTool({ name: 'read_file', arguments: {} }));
		assert.equal(tool.code, -32602);
		assert.match(tool.message, /Unknown tool: read_file/);
		assert.equal((await errorOf(conn.client.getPrompt({ name: 'summarize' }))).code, -32602);
	});

	it('tells the client only about the families this host registered', () => {
		const instructions = conn.client.getInstructions() ?? '';
		assert.match(instructions, /file:\/\//);
		assert.doesNotMatch(instructions, /diagnostics:|editor:|git:/);
	});
});
