import * as assert from 'node:assert/strict';
import { nullLogger } from '../../../src/common/logger';
import { RelevanceProvider } from '../../../src/core/relevance/relevanceProvider';
import { ProviderRegistry } from '../../../src/core/registry';
import { fileUri } from '../../../src/core/uriGuard';
import { WorkspaceScope } from '../../../src/core/workspaceScope';
import { HttpHost } from '../../../src/mcp/http/httpHost';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { StaticFolders } from '../../../src/node/staticSources';
import { ServerConnection } from '../../../src/picker/serverConnection';
import { parseSuggestions, Suggestions } from '../../../src/picker/suggestions';
import { ResourceNode } from '../../../src/picker/pickerNodes';
import { ResourceListing } from '../../../src/picker/resourceListing';
import { FakeRelevanceSignals } from '../../fakes/fakeRelevanceSignals';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, fastTracker, TestServer } from '../../helpers/harness';
import { until } from '../../helpers/until';

describe('picker: Suggested group over a real server', () => {
	let fx: Fixture;
	let server: TestServer;
	let signals: FakeRelevanceSignals;
	let registry: ProviderRegistry;
	let host: HttpHost;
	let connection: ServerConnection;
	let resources: ResourceListing;
	let suggestions: Suggestions;

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		signals = new FakeRelevanceSignals();
		const scope = new WorkspaceScope(new StaticFolders([fx.root]), server.files, new NodeFileSystem());
		registry = new ProviderRegistry([new RelevanceProvider({ scope, editor: signals, touches: signals.onDidTouch }, { throttleMs: 10, gitThrottleMs: 10 }), server.files], fastTracker);
		host = new HttpHost({ registry, log: server.log });
		const info = await host.start();
		connection = new ServerConnection('t', 'Test', { resolve: async () => ({ kind: 'http', url: info.url, headers: { Authorization: `Bearer ${info.token}` } }) }, { log: nullLogger });
		resources = new ResourceListing(connection);
		suggestions = new Suggestions(connection, resources);
	});
	afterEach(async () => {
		suggestions.dispose();
		resources.dispose();
		connection.dispose();
		await host.stop();
		host.dispose();
		registry.dispose();
		fx.dispose();
	});

	it('shows the server\'s top files with their reasons, and follows the ranking as it changes', async () => {
		signals.show(fx.file('src/index.ts'), [fx.file('src/index.ts')], [fx.file('src/index.ts'), fx.file('README.md')]);
		await resources.load();
		await until(suggestions.onDidChange, () => suggestions.items().length === 2, 'two suggestions');
		assert.deepEqual(suggestions.items().map(s => [s.node.label, s.reason]), [['index.ts', 'active editor'], ['README.md', 'open in a tab']]);
		assert.equal(suggestions.items()[0].node.key, `t|suggested|${fileUri(fx.file('src/index.ts'))}`, 'a key of its own: the file row stays');
		assert.equal(suggestions.reasonFor(suggestions.items()[1].node.key), 'open in a tab');
		signals.show(fx.file('README.md'));
		await until(suggestions.onDidChange, () => suggestions.items()[0]?.node.label === 'README.md', 'README.md first after the switch');
		assert.deepEqual(suggestions.items().map(s => s.node.label), ['README.md']);
	});

	it('shows nothing for a server without context://relevant', async () => {
		const plain = createTestServer([fx.root]);
		const plainHost = new HttpHost({ registry: plain.registry, log: plain.log });
		const info = await plainHost.start();
		const c = new ServerConnection('p', 'Plain', { resolve: async () => ({ kind: 'http', url: info.url, headers: { Authorization: `Bearer ${info.token}` } }) }, { log: nullLogger });
		const r = new ResourceListing(c);
		const s = new Suggestions(c, r);
		try {
			await r.load();
			assert.deepEqual(s.items(), []);
			assert.deepEqual(c.subscribedUris, [], 'nothing subscribed');
		} finally {
			s.dispose();
			r.dispose();
			c.dispose();
			await plainHost.stop();
			plainHost.dispose();
			plain.dispose();
		}
	});
});

describe('picker: parsing suggestions', () => {
	it('keeps only listed resources, once each, with flattened reasons, and skips malformed entries', () => {
		const node = (uri: string): ResourceNode => ({ kind: 'resource', serverId: 's', key: `s|r|${uri}`, resource: { uri, name: uri }, group: 'files', label: uri, path: uri });
		const listed = new Map([['file:///a', node('file:///a')], ['file:///b', node('file:///b')]]);
		const parsed = parseSuggestions({ files: [
			{ uri: 'file:///a', reasons: ['active editor', 'line\nbreak', 3] },
			{ uri: 'file:///secret', reasons: ['not listed'] },
			{ uri: 'file:///a', reasons: ['again'] },
			'junk',
			{ uri: 42 },
			{ uri: 'file:///b' },
		] }, { resource: uri => listed.get(uri) }, 's');
		assert.deepEqual(parsed.map(p => [p.node.resource.uri, p.reason]), [['file:///a', 'active editor, line break'], ['file:///b', '']]);
		assert.deepEqual(parseSuggestions({ files: 'no' }, { resource: () => undefined }, 's'), []);
		assert.deepEqual(parseSuggestions(null, { resource: () => undefined }, 's'), []);
	});
});
