import * as assert from 'node:assert/strict';
import { statSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { HeadMoveRecheck } from '../../../src/core/git/headMoveRecheck';
import { fileUri } from '../../../src/core/uriGuard';
import { GitCliSource } from '../../../src/node/git/gitCliSource';
import { StaticFolders } from '../../../src/node/staticSources';
import { TestRepo } from '../../helpers/gitRepo';
import { createTestServer, listedFileUris, TestServer } from '../../helpers/harness';
import { until } from '../../helpers/until';

/**
 * A branch switch whose file events never arrive (the test's watcher reports nothing, as VS
 * Code's dropped a few of a real switch's): the listing still becomes the new branch's files,
 * learnt from git's list of the paths that differ between the two commits.
 */
describe('files after a HEAD move the watcher did not report (real git)', () => {
	let repo: TestRepo;
	let server: TestServer;
	let source: GitCliSource;
	let recheck: HeadMoveRecheck;

	beforeEach(async () => {
		repo = new TestRepo('switch');
		repo.write('.gitignore', 'build/\n');
		repo.write('a.txt', 'one\n');
		repo.write('gone.txt', 'only on main\n');
		repo.write('dir/keep.txt', 'kept, renamed on other\n');
		repo.write('olddir/deep/x.txt', 'a directory only on main\n');
		repo.write('same-size.txt', 'main\n');
		repo.write('deploy.pem', 'KEY\n');
		repo.commitAll('main');
		repo.git('checkout', '-q', '-b', 'other');
		repo.git('rm', '-q', '-r', 'gone.txt', 'olddir');
		repo.git('mv', 'dir/keep.txt', 'dir/renamed.txt');
		repo.write('a.txt', 'one, changed on other\n');
		repo.write('new.txt', 'only on other\n');
		repo.write('newdir/sub/n.txt', 'a new directory\n');
		repo.write('.env', 'SECRET=1\n');
		repo.write('build/out.js', 'ignored, yet tracked\n');
		repo.write('same-size.txt', 'othr\n');
		repo.write('deploy.pem', 'ANOTHER KEY\n');
		repo.git('add', '-A');
		repo.git('add', '-f', 'build/out.js');
		repo.git('commit', '-q', '-m', 'other');
		repo.git('checkout', '-q', 'main');
		// Indexed with a date no checkout can give it: only the size tells the other file apart.
		utimesSync(path.join(repo.root, 'same-size.txt'), new Date('2001-02-03T04:05:06.789Z'), new Date('2001-02-03T04:05:06.789Z'));

		server = createTestServer([repo.root]);
		await server.files.ready();
		source = new GitCliSource({ folders: new StaticFolders([repo.root]), log: server.log });
		recheck = new HeadMoveRecheck(source, server.files, server.log);
		await source.ready();
		await recheck.settled(); // HEAD remembered: the next move is diffed from it
	});

	afterEach(() => {
		recheck.dispose();
		source.dispose();
		server.dispose();
		repo.dispose();
	});

	const listed = () => listedFileUris(server.files);

	/** What the branch checked out tracks, less what the rules hide (secrets, `.gitignore`). */
	function trackedAndServed(): string[] {
		return repo.git('ls-files', '-z').split('\0').filter(p => p !== '' && p !== '.env' && p !== 'deploy.pem' && !p.startsWith('build/'))
			.map(p => fileUri(path.join(repo.root, p))).sort();
	}

	async function untilListed(expected: string[], what: string): Promise<void> {
		await until(server.files.onDidChange, () => JSON.stringify(listed()) === JSON.stringify(expected), what, 5000,
			() => `listed ${JSON.stringify(listed())}`);
	}

	it('lists the new branch exactly after a checkout: deleted gone, new present, ignored and secret still hidden', async () => {
		assert.deepEqual(listed(), trackedAndServed(), 'main before the switch');
		repo.git('checkout', '-q', 'other');
		const other = trackedAndServed();
		assert.ok(other.includes(fileUri(path.join(repo.root, 'newdir/sub/n.txt'))) && other.includes(fileUri(path.join(repo.root, 'dir/renamed.txt'))));
		await untilListed(other, 'the listing of branch other');
		assert.ok(!listed().some(u => u.endsWith('/.env') || u.includes('/build/')), 'secret and ignored files stay hidden');

		repo.git('checkout', '-q', 'main');
		await untilListed(trackedAndServed(), 'the listing of branch main again');
		assert.ok(listed().includes(fileUri(path.join(repo.root, 'olddir/deep/x.txt'))), 'a directory only main has is back');
	});

	it('follows a reset to another commit as it follows a checkout', async () => {
		const otherCommit = repo.git('rev-parse', 'other').trim();
		repo.git('reset', '-q', '--hard', otherCommit);
		await untilListed(trackedAndServed(), 'the listing after reset --hard');
		assert.ok(!listed().includes(fileUri(path.join(repo.root, 'gone.txt'))));
	});

	/** Whether the listing shows a file with the size and modification date it has on disk. */
	function listedAsOnDisk(rel: string): boolean {
		const uri = fileUri(path.join(repo.root, rel));
		const list = server.files.list();
		const entry = Array.from({ length: list.length }, (_, i) => list.at(i)!).find(e => e.uri === uri);
		const stat = statSync(path.join(repo.root, rel));
		// The date as the index writes it: `Stats.mtime` rounds the milliseconds, a `Date` of `mtimeMs` cuts them.
		return entry?.size === stat.size && entry.annotations?.lastModified === new Date(stat.mtimeMs).toISOString();
	}

	it("lists a rewritten file's size and date from disk though its change event never came, and never a secret", async () => {
		const rewritten = ['a.txt', 'same-size.txt'];
		assert.ok(rewritten.every(listedAsOnDisk), 'main as indexed');
		const sizeBefore = statSync(path.join(repo.root, 'same-size.txt')).size;
		const updated: string[] = [];
		const sub = server.files.onDidChange(change => updated.push(...change.updated));
		try {
			repo.git('checkout', '-q', 'other');
			assert.equal(statSync(path.join(repo.root, 'same-size.txt')).size, sizeBefore, 'the same size on both branches');
			await until(server.files.onDidChange, () => rewritten.every(listedAsOnDisk), 'the rewritten files listed as on disk', 5000,
				() => JSON.stringify(rewritten.filter(rel => !listedAsOnDisk(rel))));
			await untilListed(trackedAndServed(), 'the listing of branch other');
			for (const rel of rewritten) {
				assert.ok(updated.includes(fileUri(path.join(repo.root, rel))), `subscribers hear that ${rel} changed`);
			}
			assert.ok(!listed().some(u => u.endsWith('/deploy.pem')), 'the rewritten secret stays unlisted');
			assert.deepEqual(updated.filter(u => u.endsWith('/deploy.pem') || u.endsWith('/.env')), [], 'and is never notified');
		} finally {
			sub.dispose();
		}
	});
});
