import * as assert from 'node:assert/strict';
import { createHeadlessRegistry } from '../../../src/node/headless';
import { FakeWatcher } from '../../fakes/fakeWatcher';
import { TestRepo } from '../../helpers/gitRepo';
import { connectInMemory, RecordingLogger } from '../../helpers/harness';

describe('headless list order and startup notifications', () => {
	let repo: TestRepo;
	beforeEach(() => {
		repo = new TestRepo('app');
		for (let i = 0; i < 30; i++) {
			repo.write(`src/file${String(i).padStart(2, '0')}.ts`, 'export {};\n');
		}
		repo.commitAll('initial');
	});
	afterEach(() => repo.dispose());

	it('puts the relevance resource and git state on the first page before files, and sends no list_changed for what that page showed', async () => {
		const log = new RecordingLogger();
		const { registry } = createHeadlessRegistry({ roots: [repo.root], log, watcher: new FakeWatcher() });
		// A page smaller than the workspace: files alone would fill it.
		const conn = await connectInMemory(registry, log, 10);
		try {
			const first = await conn.client.listResources();
			const uris = first.resources.map(r => r.uri);
			assert.equal(uris[0], 'context://relevant', uris.join(' '));
			assert.ok(uris[1].startsWith('git://app/'), uris.join(' '));
			assert.ok(uris.some(u => u.startsWith('file:')), 'files follow on the same page');
			assert.ok(first.nextCursor);
			registry.flushChanges();
			await conn.client.ping(); // notifications sent before this answer have arrived
			assert.equal(conn.listChangedCount(), 0, 'git was found before the page was served');
		} finally {
			await conn.close();
			registry.dispose();
		}
	});
});
