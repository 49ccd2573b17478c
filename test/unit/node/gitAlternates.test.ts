import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nullLogger } from '../../../src/common/logger';
import { GitCliRepository } from '../../../src/node/git/gitCliRepository';
import { locateRepository } from '../../../src/node/git/gitLocation';
import { GitCli } from '../../../src/node/git/gitProcess';
import { OwnHistory } from '../../../src/node/git/ownHistory';
import { createHeadlessRegistry } from '../../../src/node/headless';
import { FakeWatcher } from '../../fakes/fakeWatcher';
import { TestRepo } from '../../helpers/gitRepo';
import { connectInMemory, RecordingLogger } from '../../helpers/harness';

describe('git alternates: only a repository\'s own commits are served', () => {
	const cli = new GitCli();
	let other: TestRepo;
	let foreign: string;
	let repo: TestRepo;
	let own: string;

	beforeEach(() => {
		other = new TestRepo('other');
		other.write('plan.txt', 'the other repository\'s secret plan\n');
		foreign = other.commitAll('private work');
		repo = new TestRepo('cloned', other.parent);
		repo.write('a.txt', 'own\n');
		own = repo.commitAll('own work');
	});
	afterEach(() => {
		delete process.env.GIT_ALTERNATE_OBJECT_DIRECTORIES;
		other.dispose();
	});

	async function adapter(root = repo.root): Promise<GitCliRepository> {
		const location = await locateRepository(cli, root);
		assert.ok(location);
		return new GitCliRepository(location, cli, nullLogger);
	}

	function borrow(file = 'alternates'): void {
		fs.writeFileSync(path.join(repo.root, '.git', 'objects', 'info', file), `${path.join(other.root, '.git', 'objects')}\n`);
	}

	it('does not resolve another repository\'s commit that objects/info/alternates lends', async () => {
		borrow();
		const git = await adapter();
		try {
			assert.equal(await git.commit(foreign.slice(0, 10)), undefined);
			assert.equal(await git.commit(foreign), undefined);
			assert.equal((await git.commit(own.slice(0, 10)))?.hash, own);
			assert.equal((await git.commit('HEAD'))?.hash, own);
		} finally {
			git.dispose();
		}
	});

	it('does not resolve a commit that GIT_ALTERNATE_OBJECT_DIRECTORIES in our environment lends', async () => {
		process.env.GIT_ALTERNATE_OBJECT_DIRECTORIES = path.join(other.root, '.git', 'objects');
		const git = await adapter();
		try {
			assert.equal(await git.commit(foreign), undefined);
			assert.equal((await git.commit(own))?.hash, own);
		} finally {
			git.dispose();
		}
		// The editor's adapter: the git extension's git inherits the variable and resolves the
		// commit; the check that follows must refuse it.
		const history = new OwnHistory(cli, repo.root);
		assert.equal(await history.contains(foreign), false);
		assert.equal(await history.contains(own), true);
	});

	it('still serves a shared clone\'s history, which its refs reach through alternates', async () => {
		other.git('clone', '-q', '--shared', other.root, path.join(other.parent, 'shared'));
		const git = await adapter(path.join(other.parent, 'shared'));
		try {
			assert.equal((await git.commit(foreign.slice(0, 8)))?.hash, foreign);
		} finally {
			git.dispose();
		}
	});

	it('answers git://<repo>/show/<short hash> of a lent commit as not found, headless', async () => {
		borrow();
		const log = new RecordingLogger();
		const { registry } = createHeadlessRegistry({ roots: [repo.root], log, watcher: new FakeWatcher() });
		const conn = await connectInMemory(registry, log);
		try {
			await assert.rejects(conn.client.readResource({ uri: `git://cloned/show/${foreign.slice(0, 7)}` }), /not found/i);
			const { contents } = await conn.client.readResource({ uri: `git://cloned/show/${own.slice(0, 7)}` });
			assert.match(JSON.stringify(contents[0]), /own work/);
		} finally {
			await conn.close();
			registry.dispose();
		}
	});
});
