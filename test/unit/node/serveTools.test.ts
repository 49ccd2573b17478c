import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileUri } from '../../../src/core/uriGuard';
import { EraClient, httpEraClients, stdioEraClients } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { CLI, Host, startHost } from '../../helpers/headlessHost';

describe('the headless host\'s tools (serve, serve --no-tools), both eras over stdio and HTTP', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let home: string;
	let hosts: Host[];
	let clients: EraClient[];

	before(() => assert.ok(existsSync(CLI), 'run npm run build first'));
	beforeEach(() => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-tools-home-'));
		hosts = [];
		clients = [];
	});
	afterEach(async () => {
		await Promise.all(clients.map(c => c.close()));
		await Promise.all(hosts.map(h => h.stop()));
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	async function connect(options: string[]): Promise<EraClient[]> {
		const host = await startHost(fx.root, home, options);
		hosts.push(host);
		clients.push(...await httpEraClients(host.url, host.token), ...await stdioEraClients(fx.root, home, options));
		return clients;
	}

	it('offers the tools it can back (no relations headless), and they read under the resources\' rule', async () => {
		for (const c of await connect([])) {
			assert.deepEqual((await c.client.listTools()).tools.map(t => t.name), ['list_resources', 'read_resource', 'search_text', 'search_files', 'relevant_files', 'find_symbols'], c.label);
			const read = await c.client.callTool({ name: 'read_resource', arguments: { uri: fileUri(fx.file('README.md')) } });
			assert.deepEqual(read.content, [{ type: 'resource', resource: { uri: fileUri(fx.file('README.md')), mimeType: 'text/markdown', text: '# Fixture\n' } }], c.label);
			const secret = await c.client.callTool({ name: 'read_resource', arguments: { uri: fileUri(fx.file('.env')) } });
			assert.equal(secret.isError, true, c.label);
			assert.doesNotMatch(JSON.stringify(secret), /hunter2/);
		}
	});

	it('--no-tools: an empty tools/list, resources as before', async () => {
		for (const c of await connect(['--no-tools'])) {
			assert.deepEqual((await c.client.listTools()).tools, [], c.label);
			assert.ok((await c.client.readResource({ uri: fileUri(fx.file('README.md')) })).contents.length === 1, c.label);
		}
	});
});
