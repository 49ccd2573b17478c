import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Emitter } from '../../../src/common/event';
import { nullLogger } from '../../../src/common/logger';
import { FileChangeEvent } from '../../../src/core/ports';
import { GitCliRepository } from '../../../src/node/git/gitCliRepository';
import { GitCliSource } from '../../../src/node/git/gitCliSource';
import { StaticFolders } from '../../../src/node/staticSources';
import { TestRepo } from '../../helpers/gitRepo';
import { scopeOver } from '../../helpers/workspaceScope';

/**
 * Headless, the workspace's file events tell a repository its working tree changed. Status and
 * diffs leave out secrets and ignored files, so a write to one must not count: it would notify
 * git://{repo}/status and /diff, telling a subscriber that a secret was written.
 */
describe('headless git: which file events change the working tree', () => {
	let repo: TestRepo;
	let source: GitCliSource;
	let events: Emitter<readonly FileChangeEvent[]>;
	let dispose: () => void;
	let notified: number;

	beforeEach(async () => {
		repo = new TestRepo('proj');
		repo.write('.gitignore', '*.log\nbuild/\n');
		repo.write('a.txt', 'one\n');
		repo.commitAll('initial');
		const folders = new StaticFolders([repo.root]);
		const { scope, files } = scopeOver(folders);
		await scope.ready();
		events = new Emitter();
		source = new GitCliSource({ folders, log: nullLogger, watch: false, fileEvents: events.event, isServedNow: (p, isDirectory) => files.isServedNow(p, isDirectory) });
		await source.ready();
		const [found] = source.repositories() as GitCliRepository[];
		notified = 0;
		found.notifyWorkingTreeChanged = () => notified++;
		dispose = () => {
			source.dispose();
			scope.dispose();
		};
	});
	afterEach(() => {
		dispose();
		repo.dispose();
	});

	const at = (rel: string, kind: FileChangeEvent['kind'] = 'changed'): FileChangeEvent => ({ kind, path: path.join(repo.root, ...rel.split('/')) });

	it('does not count writes to secrets (any letter case) or ignored files', () => {
		events.fire([at('.env'), at('.ENV', 'created'), at('id_rsa'), at('ID_RSA.pub'), at('keys/server.pem', 'deleted'), at('debug.log')]);
		assert.equal(notified, 0);
	});

	it('does not count a folder\'s own event: an ignored one (`build/`), or a served one, whose files tell', () => {
		repo.write('build/out.js', 'built\n');
		repo.write('src/a.ts', 'served\n');
		events.fire([at('build', 'created'), at('build', 'changed'), at('src', 'created'), at('src', 'changed')]);
		assert.equal(notified, 0);
		events.fire([at('src/a.ts', 'created')]);
		assert.equal(notified, 1);
	});

	it('does not count an ignored or secret folder deleted, and counts a served one', () => {
		events.fire([at('build', 'deleted'), at('.ssh', 'deleted')]);
		assert.equal(notified, 0);
		events.fire([at('src', 'deleted')]);
		assert.equal(notified, 1);
	});

	it('counts a batch that touches a served file, written or deleted', () => {
		events.fire([at('.env'), at('a.txt')]);
		assert.equal(notified, 1);
		events.fire([at('a.txt', 'deleted')]);
		assert.equal(notified, 2);
	});
});
