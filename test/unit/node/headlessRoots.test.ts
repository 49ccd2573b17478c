import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { createHeadlessRegistry } from '../../../src/node/headless';
import { FakeWatcher } from '../../fakes/fakeWatcher';
import { TestRepo } from '../../helpers/gitRepo';
import { connectInMemory, listAll, RecordingLogger } from '../../helpers/harness';

describe('headless roots', () => {
	let repo: TestRepo;
	beforeEach(() => {
		repo = new TestRepo('app');
		repo.write('src/a.ts', 'export {};\n');
		repo.write('README.md', '# app\n');
		repo.commitAll('initial');
	});
	afterEach(() => repo.dispose());

	it('serves a folder named more than once (other spellings too) once: no URI listed twice, one repository', async () => {
		const log = new RecordingLogger();
		const spellings = [repo.root, `${repo.root}${path.sep}`, path.join(repo.root, '..', path.basename(repo.root), '.')];
		const { registry } = createHeadlessRegistry({ roots: spellings, log, watcher: new FakeWatcher() });
		const conn = await connectInMemory(registry, log, 10);
		try {
			const all = await listAll(conn.client);
			const uris = all.map(r => r.uri);
			assert.deepEqual(uris.filter((uri, i) => uris.indexOf(uri) !== i), [], 'no URI twice');
			assert.deepEqual(all.filter(r => r.uri.startsWith('file:')).map(r => r.name), ['README.md', 'src/a.ts'], 'one folder: names without a folder prefix');
			assert.deepEqual(uris.filter(u => u.endsWith('/status')), ['git://app/status']);
		} finally {
			await conn.close();
			registry.dispose();
		}
	});

	it('names every folder differently, also when a suffixed name is another folder\'s own (proj, proj, proj-2)', async () => {
		const others = [new TestRepo('proj'), new TestRepo('proj'), new TestRepo('proj-2')];
		for (const other of others) {
			other.write('f.txt', 'x\n');
		}
		const log = new RecordingLogger();
		const { registry } = createHeadlessRegistry({ roots: others.map(r => r.root), log, watcher: new FakeWatcher() });
		try {
			const conn = await connectInMemory(registry, log, 10);
			try {
				const names = (await listAll(conn.client)).filter(r => r.uri.startsWith('file:')).map(r => r.name);
				assert.equal(new Set(names).size, names.length, names.join(' '));
			} finally {
				await conn.close();
			}
		} finally {
			registry.dispose();
			others.forEach(r => r.dispose());
		}
	});
});
