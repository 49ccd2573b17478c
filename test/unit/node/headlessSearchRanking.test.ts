import * as assert from 'node:assert/strict';
import { createHeadlessRegistry } from '../../../src/node/headless';
import { FakeWatcher } from '../../fakes/fakeWatcher';
import { TestRepo } from '../../helpers/gitRepo';
import { connectInMemory, RecordingLogger } from '../../helpers/harness';
import { readJson } from '../../helpers/readJson';

/**
 * A search's files come in the relevance ranking's order, then by path: the first search of a
 * host too, asked before anything else and before git was first read.
 */
describe('headless search: the first answer in the ranking\'s order', () => {
	let repo: TestRepo;
	beforeEach(() => {
		repo = new TestRepo('app');
		for (const name of ['a.txt', 'b.txt', 'm.txt', 'z.txt']) {
			repo.write(name, 'rankedNeedle\n');
		}
		repo.commitAll('initial');
		repo.write('z.txt', 'rankedNeedle changed\n');
	});
	afterEach(() => repo.dispose());

	it('puts the file git says changed first, in the very first search', async () => {
		const log = new RecordingLogger();
		const { registry } = createHeadlessRegistry({ roots: [repo.root], log, watcher: new FakeWatcher() });
		const conn = await connectInMemory(registry, log);
		try {
			const answer = await readJson(conn, 'search://text?q=rankedNeedle&max=1') as { files: { path: string }[]; complete: boolean };
			assert.deepEqual(answer.files.map(f => f.path), ['z.txt']);
			assert.equal(answer.complete, false);
		} finally {
			await conn.close();
			registry.dispose();
		}
	});
});
