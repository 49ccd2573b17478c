import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ProviderRegistry } from '../../../src/core/registry';
import { HttpHost } from '../../../src/mcp/http/httpHost';
import { createHeadlessRegistry } from '../../../src/node/headless';
import { FakeWatcher } from '../../fakes/fakeWatcher';
import { TestRepo } from '../../helpers/gitRepo';
import { connectInMemory, RecordingLogger } from '../../helpers/harness';
import { HeardNotifications } from '../../helpers/heardNotifications';

const FIXED = ['status', 'diff', 'diff/staged', 'log', 'branches'];
const uri = (suffix: string) => `git://kinds/${suffix}`;

/**
 * Each git resource is notified when what it shows can have changed, and only then: a real
 * repository edited, staged, committed, branched and checked out, its `.git` watched for real;
 * working-tree edits come from the test's file watcher, as the headless host's would report them.
 */
describe('git notifications follow what changed (real repository, headless, both eras)', () => {
	let repo: TestRepo;
	let watcher: FakeWatcher;
	let registry: ProviderRegistry;
	let heard: HeardNotifications;

	beforeEach(() => {
		repo = new TestRepo('kinds');
		repo.write('a.txt', 'one\n');
		repo.commitAll('first');
		watcher = new FakeWatcher();
		({ registry } = createHeadlessRegistry({ roots: [repo.root], log: new RecordingLogger(), watcher }));
		heard = new HeardNotifications({ timeoutMs: 10_000 });
	});
	afterEach(() => {
		registry.dispose();
		repo.dispose();
	});

	/**
	 * Runs the five steps; after each, waits for the resources it must notify, lets `settle` make
	 * sure whatever else the same change notified has arrived, then checks none of `never` did.
	 */
	async function steps(settle: () => Promise<void>): Promise<void> {
		const step = async (what: string, act: () => void, expected: string[], never: string[]) => {
			const from = heard.updates.length;
			const since = () => heard.updates.slice(from);
			act();
			await heard.until(() => expected.every(suffix => since().includes(uri(suffix))), `${what}: ${expected.join(', ')}`);
			await settle();
			for (const suffix of never) {
				assert.ok(!since().includes(uri(suffix)), `${what} notified ${suffix}: ${since().join(', ')}`);
			}
		};
		await step('edit', () => {
			repo.write('a.txt', 'one\ntwo\n');
			watcher.fire({ path: path.join(repo.root, 'a.txt'), kind: 'changed' });
		}, ['status', 'diff'], ['diff/staged', 'log', 'branches']);
		await step('stage', () => repo.git('add', 'a.txt'), ['status', 'diff', 'diff/staged'], ['log', 'branches']);
		await step('commit', () => repo.git('commit', '-q', '-m', 'second'), ['status', 'diff/staged', 'log', 'branches'], []);
		await step('branch', () => repo.git('branch', 'topic'), ['status', 'diff/staged', 'log', 'branches'], ['diff']);
		await step('checkout', () => repo.git('checkout', '-q', 'topic'), ['status', 'log', 'branches'], []);
	}

	/** Reads every fixed resource (the repository is found), then sends what that notified to nobody. */
	async function settleDiscovery(read: (uri: string) => Promise<unknown>): Promise<void> {
		for (const suffix of FIXED) {
			await read(uri(suffix));
		}
		registry.flushChanges();
	}

	it('2025: resources/subscribe', async () => {
		const conn = await connectInMemory(registry);
		conn.client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => heard.updated(n.params.uri));
		try {
			await settleDiscovery(u => conn.client.readResource({ uri: u }));
			for (const suffix of FIXED) {
				await conn.client.subscribeResource({ uri: uri(suffix) });
			}
			// In memory, what one change notified is delivered before the answer to a later request.
			await steps(async () => {
				registry.flushChanges();
				await conn.client.ping();
			});
		} finally {
			await conn.close();
		}
	});

	it('2026-07-28: subscriptions/listen over HTTP', async () => {
		const host = new HttpHost({ registry, log: new RecordingLogger() });
		const { url, token } = await host.start();
		const client = new V2Client({ name: 'kinds', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
		client.setNotificationHandler('notifications/resources/updated', n => heard.updated(n.params.uri));
		await client.connect(new V2HttpTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
		try {
			await settleDiscovery(u => client.readResource({ uri: u }));
			const subscription = await client.listen({ resourceSubscriptions: FIXED.map(uri) });
			assert.deepEqual([...subscription.honoredFilter.resourceSubscriptions ?? []].sort(), FIXED.map(uri).sort());
			// One change's URIs go out in one batch, on one stream, in the provider's order, with
			// status (every change's) last of a repository's fixed resources: once the step's
			// expected ones are here (status among them), the rest of that batch is too.
			await steps(async () => undefined);
			await subscription.close();
		} finally {
			await client.close();
			await host.stop();
			host.dispose();
		}
	});
});
