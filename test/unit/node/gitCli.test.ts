import * as assert from 'node:assert/strict';
import { nullLogger } from '../../../src/common/logger';
import { GitCliRepository } from '../../../src/node/git/gitCliRepository';
import { GitCliSource } from '../../../src/node/git/gitCliSource';
import { locateRepository } from '../../../src/node/git/gitLocation';
import { parseStatus } from '../../../src/node/git/gitOutput';
import { GitCli, GitCommandError } from '../../../src/node/git/gitProcess';
import { repositoryFilterOverrides } from '../../../src/node/git/repositoryFilters';
import { StaticFolders } from '../../../src/node/staticSources';
import { TestRepo } from '../../helpers/gitRepo';
import * as fs from 'node:fs';
import * as path from 'node:path';

describe('git CLI adapter (real repositories)', () => {
	let repo: TestRepo;
	let git: GitCliRepository;
	const cli = new GitCli();

	beforeEach(async () => {
		repo = new TestRepo();
		const location = await locateRepository(cli, repo.root);
		assert.ok(location, 'found the repository');
		git = new GitCliRepository(location, cli, nullLogger);
	});
	afterEach(() => {
		git.dispose();
		repo.dispose();
	});

	it('reads an empty repository without failing', async () => {
		const status = await git.status();
		assert.equal(status.branch, 'main');
		assert.equal(status.commit, undefined);
		assert.deepEqual(await git.log(50), []);
		assert.equal((await git.diff(true, 1000)).text, '');
		assert.equal(await git.commit('HEAD'), undefined);
		assert.equal(await git.headCommit(), undefined);
	});

	it('reports modified, staged, renamed, deleted and untracked paths', async () => {
		repo.write('a.txt', 'one\n');
		repo.write('b.txt', 'bee\n');
		repo.write('dir/c.txt', 'sea\n');
		repo.commitAll('first');
		repo.write('a.txt', 'one changed\n');
		repo.write('new file.txt', 'untracked\n');
		repo.git('mv', 'b.txt', 'b2.txt');
		repo.git('rm', '-q', 'dir/c.txt');
		const status = await git.status();
		assert.deepEqual(status.unstaged, [{ path: 'a.txt', status: 'modified' }]);
		assert.deepEqual(status.staged, [{ path: 'b2.txt', status: 'renamed', originalPath: 'b.txt' }, { path: 'dir/c.txt', status: 'deleted' }]);
		assert.deepEqual(status.untracked, [{ path: 'new file.txt', status: 'untracked' }]);
		assert.match(status.commit ?? '', /^[0-9a-f]{40}$/);
	});

	it('diffs the working tree, the index and one path against HEAD', async () => {
		repo.write('a.txt', 'one\n');
		repo.commitAll('first');
		repo.write('a.txt', 'one\ntwo\n');
		assert.match((await git.diff(false, 100_000)).text, /^diff --git a\/a\.txt b\/a\.txt[\s\S]*\+two$/m);
		assert.equal((await git.diff(true, 100_000)).text, '');
		repo.git('add', 'a.txt');
		repo.write('a.txt', 'one\ntwo\nthree\n');
		assert.match((await git.diff(true, 100_000)).text, /\+two/);
		const both = (await git.diffPath('a.txt', 100_000)).text;
		assert.match(both, /\+two\n\+three/);
	});

	it('runs no command a repository\'s own config names for status and diffs (core.fsmonitor)', async () => {
		repo.write('a.txt', 'one\n');
		repo.commitAll('first');
		repo.write('a.txt', 'one changed\n');
		// Outside the work tree (the repository's parent is the test's own temporary folder).
		const marker = path.join(repo.parent, 'fsmonitor-ran');
		const hook = path.join(repo.parent, 'fsmonitor.sh');
		fs.writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
		repo.git('config', 'core.fsmonitor', hook);
		assert.deepEqual((await git.status()).unstaged, [{ path: 'a.txt', status: 'modified' }]);
		assert.match((await git.diff(false, 100_000)).text, /\+one changed/);
		assert.match((await git.diffPath('a.txt', 100_000)).text, /\+one changed/);
		assert.equal(fs.existsSync(marker), false, 'the fsmonitor hook ran');
	});

	it('runs no content filter a repository\'s own config names, and still runs the user\'s own', async () => {
		// A filter script that leaves a marker and passes the content through, as git-lfs's would.
		const filter = (name: string) => {
			const script = path.join(repo.parent, `${name}.sh`);
			fs.writeFileSync(script, `#!/bin/sh\ntouch '${path.join(repo.parent, `${name}-ran`)}'\ncat\n`, { mode: 0o755 });
			return script;
		};
		repo.write('.gitattributes', '*.txt filter=evil\n*.md filter=included\n*.dat filter=mine\n');
		repo.write('a.txt', 'one\n');
		repo.write('b.md', 'one\n');
		repo.write('c.dat', 'one\n');
		repo.commitAll('first');
		repo.git('config', 'filter.evil.clean', filter('evil'));
		repo.git('config', 'filter.evil.required', 'true');
		fs.writeFileSync(path.join(repo.root, '.git', 'more.cfg'), `[filter "included"]\n\tclean = ${filter('included')}\n`);
		repo.git('config', 'include.path', 'more.cfg');
		const userConfig = path.join(repo.parent, 'user.gitconfig');
		fs.writeFileSync(userConfig, `[filter "mine"]\n\tclean = ${filter('mine')}\n`);
		// Same sizes: git must read the files (through their filters) to tell they changed.
		repo.write('a.txt', 'two\n');
		repo.write('b.md', 'two\n');
		repo.write('c.dat', 'two\n');
		const before = process.env.GIT_CONFIG_GLOBAL;
		process.env.GIT_CONFIG_GLOBAL = userConfig;
		try {
			assert.deepEqual((await git.status()).unstaged.map(c => c.path), ['a.txt', 'b.md', 'c.dat']);
			assert.match((await git.diff(false, 100_000)).text, /\+two[\s\S]*\+two[\s\S]*\+two/);
			assert.match((await git.diffPath('a.txt', 100_000)).text, /-one\n\+two/);
		} finally {
			if (before === undefined) {
				delete process.env.GIT_CONFIG_GLOBAL;
			} else {
				process.env.GIT_CONFIG_GLOBAL = before;
			}
		}
		assert.equal(fs.existsSync(path.join(repo.parent, 'evil-ran')), false, 'the repository\'s filter ran');
		assert.equal(fs.existsSync(path.join(repo.parent, 'included-ran')), false, 'a filter from a file the repository\'s config includes ran');
		assert.equal(fs.existsSync(path.join(repo.parent, 'mine-ran')), true, 'the user\'s own filter did not run');
	});

	it('finds the repository\'s own content filters with a git older than --show-scope (2.26) too', async () => {
		repo.git('config', 'filter.evil.clean', 'false');
		class OldGit extends GitCli {
			override run(cwd: string, args: readonly string[], maxBytes?: number) {
				return args.includes('--show-scope') ? Promise.reject(new GitCommandError(args, 129, 'error: unknown option `show-scope\'')) : super.run(cwd, args, maxBytes);
			}
		}
		const expected = ['-c', 'filter.evil.clean=', '-c', 'filter.evil.smudge=', '-c', 'filter.evil.process=', '-c', 'filter.evil.required=false'];
		assert.deepEqual(await repositoryFilterOverrides(new OldGit(), repo.root), expected);
		assert.deepEqual(await repositoryFilterOverrides(cli, repo.root), expected);
	});

	it('runs nothing a submodule\'s own config names: a submodule shows a moved commit, not its working tree', async () => {
		const inner = new TestRepo('inner', repo.parent);
		inner.write('s.txt', 'one\n');
		inner.commitAll('inner');
		repo.write('a.txt', 'one\n');
		repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner.root, 'sub');
		repo.commitAll('with a submodule');
		const script = path.join(repo.parent, 'sub-filter.sh');
		fs.writeFileSync(script, `#!/bin/sh\ntouch '${path.join(repo.parent, 'sub-filter-ran')}'\ncat\n`, { mode: 0o755 });
		repo.git('-C', 'sub', 'config', 'filter.evil.clean', script);
		repo.write('sub/.gitattributes', '* filter=evil\n');
		repo.write('sub/s.txt', 'two\n'); // the same size: git would read it, through the filter, to tell
		repo.write('a.txt', 'two\n');
		assert.deepEqual((await git.status()).unstaged.map(c => c.path), ['a.txt']);
		const diff = (await git.diff(false, 100_000)).text;
		assert.match(diff, /\+two/);
		assert.doesNotMatch(diff, /sub/);
		assert.doesNotMatch((await git.diffPath('sub', 100_000)).text, /dirty/);
		assert.equal(fs.existsSync(path.join(repo.parent, 'sub-filter-ran')), false, 'the submodule\'s filter ran');
	});

	it('cuts long output at the byte budget and says so', async () => {
		repo.write('big.txt', 'x\n');
		repo.commitAll('first');
		repo.write('big.txt', 'y'.repeat(50_000) + '\n');
		const result = await git.diff(false, 1000);
		assert.equal(result.truncated, true);
		assert.ok(Buffer.byteLength(result.text) <= 1000);
	});

	it('names the paths two commits differ in, a rename as both its names, within a cap', async () => {
		repo.write('a.txt', 'one\n');
		repo.write('b.txt', 'bee\n');
		repo.write('dir/c d.txt', 'sea\n');
		const first = repo.commitAll('first');
		repo.write('a.txt', 'one changed\n');
		repo.git('mv', 'b.txt', 'moved.txt');
		repo.git('rm', '-q', 'dir/c d.txt');
		const second = repo.commitAll('second');
		assert.equal(await git.headCommit(), second);
		const changed = [...(await git.pathsChangedBetween(first, second, 10)) ?? []].sort((x, y) => x.path < y.path ? -1 : 1);
		assert.deepEqual(changed, [
			{ path: 'a.txt', status: 'modified' }, { path: 'b.txt', status: 'deleted' },
			{ path: 'dir/c d.txt', status: 'deleted' }, { path: 'moved.txt', status: 'added' },
		]);
		assert.equal(await git.pathsChangedBetween(first, second, 3), undefined, 'more than the cap');
		await assert.rejects(git.pathsChangedBetween('--output=x', second, 10), /commit hashes/);
	});

	it('reads a commit message with a long run of blank lines in linear time', async () => {
		// A cloned repository's history is an outsider's text. Its trailing line breaks were cut with
		// /\n+$/, which reads a long run that misses the end again from each of its characters.
		const message = `subject\n${'\n'.repeat(400_000)}end`;
		repo.write('a.txt', 'one\n');
		repo.git('add', '-A');
		fs.writeFileSync(path.join(repo.root, '.git', 'MSG'), `${message}\n\n`);
		repo.git('commit', '-q', '--cleanup=verbatim', '-F', path.join(repo.root, '.git', 'MSG'));
		const [commit] = await git.log(50);
		assert.equal(commit.message, message);
	});

	it('reads the log, refs, a commit by name and its patch', async () => {
		repo.write('a.txt', 'one\n');
		const first = repo.commitAll('first commit\n\nwith a body');
		repo.write('a.txt', 'one\ntwo\n');
		const second = repo.commitAll('second');
		repo.git('tag', 'v1', first);
		repo.git('branch', 'feature');
		const log = await git.log(50);
		assert.deepEqual(log.map(c => c.hash), [second, first]);
		assert.equal(log[1].message, 'first commit\n\nwith a body');
		assert.equal(log[0].authorName, 'Test User');
		assert.deepEqual(log[0].parents, [first]);
		const refs = await git.refs();
		assert.deepEqual(refs.map(r => `${r.kind}:${r.name}`).sort(), ['branch:feature', 'branch:main', 'tag:v1']);
		assert.equal((await git.commit('v1'))?.hash, first);
		assert.equal(await git.commit('no-such-ref'), undefined);
		assert.equal(await git.commit('--output=/tmp/x'), undefined);
		assert.match((await git.commitPatch((await git.commit('HEAD'))!, 100_000)).text, /\+two/);
		assert.match((await git.commitPatch((await git.commit(first))!, 100_000)).text, /new file mode[\s\S]*\+one/, 'root commit patch');
	});

	it('fires changes when HEAD, the index or refs change (history only for HEAD and refs)', async function () {
		repo.write('a.txt', 'one\n');
		repo.commitAll('first');
		git.startWatching();
		const next = () => new Promise<boolean>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error('no change event')), 5000);
			const sub = git.onDidChange(change => {
				clearTimeout(timer);
				sub.dispose();
				resolve(change.history);
			});
		});
		let change = next();
		repo.write('a.txt', 'two\n');
		repo.git('add', 'a.txt');
		assert.equal(await change, false, 'staging is not history');
		change = next();
		repo.git('commit', '-q', '-m', 'second');
		assert.equal(await change, true, 'a commit is history');
		change = next();
		repo.git('branch', 'other');
		assert.equal(await change, true, 'a new branch is history');
	});

	it('parses porcelain v2 with conflicts and paths with spaces', () => {
		const out = ['# branch.oid abc', '# branch.head feat', '# branch.upstream origin/feat', '# branch.ab +2 -1',
			'1 .M N... 100644 100644 100644 h1 h2 dir/a b.txt', 'u UU N... 100644 100644 100644 100644 h1 h2 h3 c.txt', '? new.txt', ''].join('\0');
		const status = parseStatus(out);
		assert.deepEqual([status.branch, status.upstream, status.ahead, status.behind], ['feat', 'origin/feat', 2, 1]);
		assert.deepEqual(status.unstaged, [{ path: 'dir/a b.txt', status: 'modified' }]);
		assert.deepEqual(status.conflicts, [{ path: 'c.txt', status: 'conflicted' }]);
	});

	it('finds no repository when git is missing or the folder is not a repository', async () => {
		const plain = fs.mkdtempSync(path.join(repo.parent, 'plain-'));
		const missing = new GitCliSource({ folders: new StaticFolders([repo.root]), log: nullLogger, gitPath: '/nonexistent/git', watch: false });
		await missing.ready();
		assert.deepEqual(missing.repositories(), []);
		const none = new GitCliSource({ folders: new StaticFolders([plain]), log: nullLogger, watch: false });
		await none.ready();
		// A temp folder might sit inside some repository; it must never be this one.
		assert.ok(none.repositories().every(r => r.root !== repo.root));
		missing.dispose();
		none.dispose();
	});
});
