import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fileUri } from '../../../src/core/uriGuard';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { errorOf } from '../../helpers/harness';
import { cliStdio } from '../../helpers/headlessHost';

describe('serve --stdio in both protocol eras (SDK v2 clients)', function () {
	this.timeout(30_000);
	let fx: Fixture;
	let home: string;

	beforeEach(() => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-home-'));
	});
	afterEach(() => {
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	function transport(): StdioClientTransport {
		return new StdioClientTransport(cliStdio(['serve', '--root', fx.root, '--stdio'], home));
	}

	it('negotiates 2026-07-28 by itself (auto), lists one page, reads, and hears changes on subscriptions/listen', async () => {
		const client = new Client({ name: 'stdio-modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
		const served = fileUri(fx.file('src/index.ts'));
		let heard: (uri: string) => void = () => undefined;
		const update = new Promise<string>(resolve => { heard = resolve; });
		client.setNotificationHandler('notifications/resources/updated', n => heard(n.params.uri));
		await client.connect(transport());
		try {
			assert.equal(client.getProtocolEra(), 'modern');
			const page = await client.request({ method: 'resources/list', params: {} });
			assert.ok(page.resources.some(r => r.uri === fileUri(fx.file('README.md'))));
			const read = await client.readResource({ uri: served });
			assert.deepEqual(read.contents.map(c => 'text' in c ? c.text : ''), ['export const answer = 42;\n']);
			const secret = await errorOf(client.readResource({ uri: fileUri(fx.file('.env')) }));
			assert.deepEqual([secret.code, secret.data], [-32602, { uri: fileUri(fx.file('.env')) }]);
			const subscription = await client.listen({ resourcesListChanged: true, resourceSubscriptions: [served, fileUri(fx.file('.env')), 'test://not-ours'] });
			assert.deepEqual(subscription.honoredFilter.resourceSubscriptions, [served], 'refused URIs are left out of the acknowledgement');
			fx.write('src/index.ts', 'export const answer = 43;\n');
			assert.equal(await update, served);
			await subscription.close();
		} finally {
			await client.close();
		}
	});

	it('serves a 2025 client (legacy mode) with initialize and resources/subscribe on the same command', async () => {
		const client = new Client({ name: 'stdio-legacy', version: '1' });
		const served = fileUri(fx.file('README.md'));
		let heard: (uri: string) => void = () => undefined;
		const update = new Promise<string>(resolve => { heard = resolve; });
		client.setNotificationHandler('notifications/resources/updated', n => heard(n.params.uri));
		await client.connect(transport());
		try {
			assert.equal(client.getProtocolEra(), 'legacy');
			assert.equal(client.getServerVersion()?.name, 'mcp-workspace-resources');
			await client.subscribeResource({ uri: served });
			fx.write('README.md', '# Changed\n');
			assert.equal(await update, served);
		} finally {
			await client.close();
		}
	});
});
