import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { nullLogger } from '../../src/common/logger';
import { GitProvider } from '../../src/core/git/gitProvider';
import { ProviderRegistry } from '../../src/core/registry';
import { GitCliSource } from '../../src/node/git/gitCliSource';
import { StaticFolders } from '../../src/node/staticSources';
import { FakeGitRepository, FakeGitSource } from '../fakes/fakeGit';
import { FakeSettings } from '../fakes/fakeSettings';
import { TestRepo } from '../helpers/gitRepo';
import { connectInMemory, errorOf, fastTracker, RecordingLogger } from '../helpers/harness';
import { scopeOver } from '../helpers/workspaceScope';

class FailingRepository extends FakeGitRepository {
	override async status(): Promise<never> {
		throw Object.assign(new Error(`fatal: unable to read ${this.root}/.git/index: Input/output error`), { code: 'EIO' });
	}
	override async diff(): Promise<never> {
		throw new Error('git exited with 128');
	}
}

describe('git faults', function () {
	this.timeout(60_000);

	it('a busy repository (index.lock held by another git) is still read', async () => {
		const repo = new TestRepo('busy');
		repo.write('a.txt', 'one\n');
		repo.commitAll('initial');
		writeFileSync(path.join(repo.root, '.git', 'index.lock'), '');
		repo.write('a.txt', 'two\n');
		const folders = new StaticFolders([repo.root]);
		const settings = new FakeSettings();
		const source = new GitCliSource({ folders, log: nullLogger, watch: false });
		const registry = new ProviderRegistry([new GitProvider({ source, scope: scopeOver(folders, settings).scope, settings, log: nullLogger })], fastTracker);
		const conn = await connectInMemory(registry);
		try {
			const status = await conn.client.readResource({ uri: 'git://busy/status' });
			assert.match((status.contents[0] as { text: string }).text, /a\.txt/);
			const diff = await conn.client.readResource({ uri: 'git://busy/diff' });
			assert.match((diff.contents[0] as { text: string }).text, /\+two/);
		} finally {
			await conn.close();
			registry.dispose();
			repo.dispose();
		}
	});

	it('a failing git gives a clear error without paths, and the server keeps serving', async () => {
		const root = '/nonexistent/ws';
		const source = new FakeGitSource();
		source.open(new FailingRepository(root));
		const folders = new StaticFolders([root]);
		const settings = new FakeSettings();
		const log = new RecordingLogger();
		const registry = new ProviderRegistry([new GitProvider({ source, scope: scopeOver(folders, settings).scope, settings, log })], fastTracker);
		const conn = await connectInMemory(registry, log);
		try {
			const listed = (await conn.client.listResources()).resources.map(r => r.uri);
			assert.ok(listed.includes('git://ws/status'), listed.join());
			for (const uri of ['git://ws/status', 'git://ws/diff']) {
				const err = await errorOf(conn.client.readResource({ uri }));
				assert.equal(err.code, -32603, uri);
				assert.ok(!err.message.includes('/nonexistent') && !/\bat \w/.test(err.message), err.message);
			}
			const log2 = await conn.client.readResource({ uri: 'git://ws/log' });
			assert.equal(log2.contents.length, 1, 'other resources of the repository still read');
		} finally {
			await conn.close();
			registry.dispose();
		}
	});
});
