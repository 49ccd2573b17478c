import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Emitter } from '../../../src/common/event';
import { fileUri } from '../../../src/core/uriGuard';
import { ServerRunner } from '../../../src/mcp/serverRunner';
import { FakeToolSwitch } from '../../fakes/fakeToolSwitch';
import { bridgeEraClients, EraClient } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, TestServer } from '../../helpers/harness';
import { CLI } from '../../helpers/headlessHost';
import { until } from '../../helpers/until';

describe('bridge: the window\'s tools, and their list changing, in both eras', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let home: string;
	let server: TestServer;
	let tools: FakeToolSwitch;
	let runner: ServerRunner;
	let clients: EraClient[];
	const heard = new Map<EraClient, number>();
	const onHeard = new Emitter<void>();

	before(() => assert.ok(existsSync(CLI), 'run npm run build first'));
	beforeEach(async () => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-bridge-tools-'));
		server = createTestServer([fx.root]);
		tools = new FakeToolSwitch();
		runner = new ServerRunner({ registry: server.registry, log: server.log, port: () => 0, workspaceFolders: () => [fx.root], hostKind: 'vscode', home, tools });
		await runner.start();
		clients = await bridgeEraClients(fx.root, home);
		for (const c of clients) {
			heard.set(c, 0);
			c.client.setNotificationHandler('notifications/tools/list_changed', () => {
				heard.set(c, heard.get(c)! + 1);
				onHeard.fire();
			});
		}
	});
	afterEach(async () => {
		await Promise.all(clients.map(c => c.close()));
		runner.dispose();
		server.dispose();
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	it('relays tools/list and tools/call, refusals included', async () => {
		for (const c of clients) {
			assert.deepEqual((await c.client.listTools()).tools.map(t => t.name), ['list_resources', 'read_resource'], c.label);
			const read = await c.client.callTool({ name: 'read_resource', arguments: { uri: fileUri(fx.file('README.md')) } });
			assert.deepEqual(read.structuredContent, { contents: [{ uri: fileUri(fx.file('README.md')), mimeType: 'text/markdown', text: '# Fixture\n' }] }, c.label);
			const secret = await c.client.callTool({ name: 'read_resource', arguments: { uri: fileUri(fx.file('.env')) } });
			assert.equal(secret.isError, true, c.label);
			assert.doesNotMatch(JSON.stringify(secret), /hunter2/);
		}
	});

	it('tells each client when the window\'s tools are turned off and on', async () => {
		const modern = clients.find(c => c.era === 'modern')!;
		const listen = await modern.client.listen({ toolsListChanged: true });
		try {
			assert.equal(listen.honoredFilter.toolsListChanged, true);
			// The bridge's own listen stream upstream opens once it has connected: turn the switch
			// until every client has heard once (that proves the path), then count from there.
			while (clients.some(c => heard.get(c) === 0)) {
				const before = [...heard.values()].reduce((a, b) => a + b, 0);
				tools.set(false);
				tools.set(true);
				await until(onHeard.event, () => [...heard.values()].reduce((a, b) => a + b, 0) > before, 'a first tools/list_changed');
			}
			await Promise.all(clients.map(c => c.client.listTools())); // what was sent so far has arrived
			clients.forEach(c => heard.set(c, 0));
			tools.set(false);
			await until(onHeard.event, () => clients.every(c => heard.get(c)! >= 1), 'every bridge client to hear tools/list_changed');
			for (const c of clients) {
				assert.deepEqual((await c.client.listTools()).tools, [], c.label);
			}
			tools.set(true);
			await until(onHeard.event, () => clients.every(c => heard.get(c)! >= 2), 'every bridge client to hear it again');
			for (const c of clients) {
				assert.equal((await c.client.listTools()).tools.length, 2, c.label);
			}
		} finally {
			await listen.close();
		}
	});
});
