import * as assert from 'node:assert/strict';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { ConnectedClient, connectInMemory, createTestServer, errorOf, TestServer } from '../../../helpers/harness';

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

	it('answers tools/list and prompts/list with empty lists, so clients that always call them work', async () => {
		const capabilities = conn.client.getServerCapabilities();
		assert.ok(capabilities?.tools && capabilities.prompts, 'the spec asks the capability of a server that answers the method');
		assert.deepEqual((await conn.client.listTools()).tools, []);
		assert.deepEqual((await conn.client.listPrompts()).prompts, []);
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
		assert.deepEqual((await conn.client.listTools()).tools, [], 'and the next request is answered');
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
