import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
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

	async function gitUris(root: string, log = new RecordingLogger()): Promise<string[]> {
		const { registry } = createHeadlessRegistry({ roots: [root], log, watcher: new FakeWatcher() });
		const conn = await connectInMemory(registry, log);
		try {
			return (await listAll(conn.client)).map(r => r.uri).filter(u => u.startsWith('git:'));
		} finally {
			await conn.close();
			registry.dispose();
		}
	}

	/** A folder beside the repository, made by the test (as a downloaded archive would be). */
	function folder(name: string): string {
		const dir = path.join(repo.parent, name);
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello\n');
		return dir;
	}

	it('serves git state of a repository inside the served root', async () => {
		assert.ok((await gitUris(repo.root)).includes('git://mono/log'));
	});

	it('does not serve a repository that starts above the served root', async () => {
		assert.deepEqual(await gitUris(`${repo.root}/packages/app`), []);
	});

	it('does not serve another repository that a folder\'s .git file or .git/commondir names', async () => {
		const byFile = folder('by-file');
		fs.writeFileSync(path.join(byFile, '.git'), 'gitdir: ../mono/.git\n');
		const log = new RecordingLogger();
		assert.deepEqual(await gitUris(byFile, log), []);
		assert.ok(log.warnings.some(w => /does not name it back/.test(w)), log.warnings.join('\n'));
		const byLink = folder('by-link');
		fs.symlinkSync(path.join(repo.root, '.git'), path.join(byLink, '.git'));
		assert.deepEqual(await gitUris(byLink), []);
		// A .git directory of the folder's own that shares the other repository's refs and objects.
		const byCommonDir = folder('by-commondir');
		fs.mkdirSync(path.join(byCommonDir, '.git'));
		fs.writeFileSync(path.join(byCommonDir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
		fs.writeFileSync(path.join(byCommonDir, '.git', 'commondir'), path.join(repo.root, '.git'));
		fs.writeFileSync(path.join(byCommonDir, '.git', 'gitdir'), path.join(byCommonDir, '.git'));
		assert.deepEqual(await gitUris(byCommonDir), []);
	});

	it('serves a linked worktree and a submodule opened on their own, whose git directories name them back', async () => {
		const worktree = path.join(repo.parent, 'feature');
		repo.git('worktree', 'add', '-q', '-b', 'feature', worktree);
		assert.ok((await gitUris(worktree)).includes('git://feature/log'));
		repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', worktree, 'sub');
		assert.ok((await gitUris(path.join(repo.root, 'sub'))).includes('git://sub/log'));
	});
});
