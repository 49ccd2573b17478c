import * as assert from 'node:assert/strict';
import { createHeadlessRegistry } from '../../../src/node/headless';
import { FakeWatcher } from '../../fakes/fakeWatcher';
import { TestRepo } from '../../helpers/gitRepo';
import { connectInMemory, listAll, RecordingLogger } from '../../helpers/harness';

describe('headless git scope', () => {
	let repo: TestRepo;
	beforeEach(() => {
		repo = new TestRepo('mono');
		repo.write('packages/app/index.ts', 'export {};\n');
		repo.write('secret-history.txt', 'outside the served root\n');
		repo.commitAll('initial');
	});
	afterEach(() => repo.dispose());

	async function gitUris(root: string): Promise<string[]> {
		const log = new RecordingLogger();
		const { registry } = createHeadlessRegistry({ roots: [root], log, watcher: new FakeWatcher() });
		const conn = await connectInMemory(registry, log);
		try {
			return (await listAll(conn.client)).map(r => r.uri).filter(u => u.startsWith('git:'));
		} finally {
			await conn.close();
			registry.dispose();
		}
	}

	it('serves git state of a repository inside the served root', async () => {
		assert.ok((await gitUris(repo.root)).includes('git://mono/log'));
	});

	it('does not serve a repository that starts above the served root', async () => {
		assert.deepEqual(await gitUris(`${repo.root}/packages/app`), []);
	});
});
