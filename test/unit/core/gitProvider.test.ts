import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { nullLogger } from '../../../src/common/logger';
import { FilesProvider } from '../../../src/core/files/filesProvider';
import { GitProvider } from '../../../src/core/git/gitProvider';
import { ProviderRegistry } from '../../../src/core/registry';
import { GitCliSource } from '../../../src/node/git/gitCliSource';
import { StaticFolders } from '../../../src/node/staticSources';
import { FakeGitRepository, FakeGitSource } from '../../fakes/fakeGit';
import { FakeSettings } from '../../fakes/fakeSettings';
import { TestRepo } from '../../helpers/gitRepo';
import { connectInMemory, ConnectedClient, errorOf, fastTracker } from '../../helpers/harness';
import { scopeOver } from '../../helpers/workspaceScope';

const text = (r: { contents: unknown[] }) => (r.contents[0] as { text: string }).text;

describe('git provider through an MCP client (real repositories)', () => {
	let repo: TestRepo;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;
	let source: GitCliSource;
	let settings: FakeSettings;
	let files: FilesProvider;

	beforeEach(async () => {
		repo = new TestRepo('proj');
		repo.write('.gitignore', 'build/\n');
		repo.write('src/a.ts', 'export const a = 1;\n');
		repo.write('.env', 'SECRET=committed-by-mistake\n');
		repo.commitAll('initial');
		const folders = new StaticFolders([repo.root]);
		settings = new FakeSettings();
		source = new GitCliSource({ folders, log: nullLogger });
		const served = scopeOver(folders, settings);
		files = served.files;
		const provider = new GitProvider({ source, scope: served.scope, settings, log: nullLogger });
		registry = new ProviderRegistry([provider], fastTracker);
		conn = await connectInMemory(registry);
		// Let discovery's own list_changed pass before any test subscribes.
		await conn.client.listResources();
		registry.flushChanges();
		await conn.client.ping();
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
		repo.dispose();
	});

	it('lists status, diff, staged diff, log and branches per repository, sorted', async () => {
		const { resources } = await conn.client.listResources();
		assert.deepEqual(resources.map(r => r.uri), [
			'git://proj/branches', 'git://proj/diff', 'git://proj/diff/staged', 'git://proj/log', 'git://proj/status',
		]);
		const { resourceTemplates } = await conn.client.listResourceTemplates();
		assert.deepEqual(resourceTemplates.map(t => t.uriTemplate), ['git://{repo}/diff/{+path}', 'git://{repo}/show/{ref}']);
	});

	it('serves status and diffs without secrets, and notifies a subscriber when a file changes', async () => {
		await conn.client.subscribeResource({ uri: 'git://proj/status' });
		await conn.client.subscribeResource({ uri: 'git://proj/diff' });
		const initial = JSON.parse(text(await conn.client.readResource({ uri: 'git://proj/status' })));
		assert.equal(initial.branch, 'main');
		assert.deepEqual(initial.unstaged, []);

		repo.write('src/a.ts', 'export const a = 2;\n');
		repo.write('.env', 'SECRET=changed\n');
		// Headless, working-tree edits arrive through the workspace watcher; staging moves .git/index.
		repo.git('add', '.env');
		await conn.waitForUpdate('git://proj/status');
		await conn.waitForUpdate('git://proj/diff');
		const status = JSON.parse(text(await conn.client.readResource({ uri: 'git://proj/status' })));
		assert.deepEqual(status.unstaged, [{ path: 'src/a.ts', status: 'modified' }]);
		assert.deepEqual(status.staged, [], '.env is staged but not served');
		assert.equal(status.hidden, 1);
		const diff = text(await conn.client.readResource({ uri: 'git://proj/diff' }));
		assert.match(diff, /\+export const a = 2;/);
		const staged = text(await conn.client.readResource({ uri: 'git://proj/diff/staged' }));
		assert.ok(!staged.includes('SECRET'), 'no secret hunk');
		assert.match(staged, /1 file not shown/);
	});

	it('names each untracked file of a new folder, and none of a secret folder', async () => {
		repo.write('.ssh/config', 'Host *\n');
		repo.write('vault/key.txt', 'the user calls this secret\n');
		repo.write('notes/todo.txt', 'served\n');
		settings.set({ secrets: ['vault/'] });
		const status = JSON.parse(text(await conn.client.readResource({ uri: 'git://proj/status' })));
		assert.deepEqual(status.untracked, [{ path: 'notes/todo.txt', status: 'untracked' }]);
		assert.equal(status.hidden, 2);
	});

	it('stops notifying a per-path diff once its file is no longer served', async () => {
		repo.write('src/a.ts', 'export const a = 2;\n');
		await conn.client.subscribeResource({ uri: 'git://proj/diff/src/a.ts' });
		await conn.client.subscribeResource({ uri: 'git://proj/status' });
		const rulesApplied = new Promise<void>(resolve => {
			const listener = files.onDidChangeRules(() => {
				listener.dispose();
				resolve();
			});
		});
		settings.set({ exclude: ['src/a.ts'] });
		await rulesApplied;
		registry.flushChanges();
		await conn.client.ping(); // what the rule change itself notified has arrived
		const since = conn.updates.length;
		repo.write('src/b.ts', 'export const b = 1;\n');
		repo.git('add', 'src/b.ts'); // moves .git/index: the repository changed
		const deadline = Date.now() + 10_000;
		while (!conn.updates.slice(since).includes('git://proj/status')) {
			assert.ok(Date.now() < deadline, 'the repository change was never notified');
			await new Promise(resolve => setTimeout(resolve, 20)); // the next look at a condition, not a wait standing in for it
		}
		registry.flushChanges();
		await conn.client.ping();
		assert.deepEqual(conn.updates.slice(since).filter(u => u.startsWith('git://proj/diff/')), []);
		assert.equal((await errorOf(conn.client.readResource({ uri: 'git://proj/diff/src/a.ts' }))).code, -32602);
	});

	it('serves per-path diffs and refuses secret, outside and traversal paths', async () => {
		repo.write('src/a.ts', 'export const a = 3;\n');
		const one = text(await conn.client.readResource({ uri: 'git://proj/diff/src/a.ts' }));
		assert.match(one, /\+export const a = 3;/);
		for (const uri of ['git://proj/diff/.env', 'git://proj/diff/src/../../x', 'git://proj/diff/%2e%2e/x', 'git://nope/status', 'git://proj/other']) {
			const err = await errorOf(conn.client.readResource({ uri }));
			assert.equal(err.code, -32602, uri);
		}
		assert.equal((await errorOf(conn.client.subscribeResource({ uri: 'git://proj/diff/.env' }))).code, -32602);
	});

	it('shows a commit by ref, refuses unknown refs and rejects malformed ones', async () => {
		const hash = repo.git('rev-parse', 'HEAD').trim();
		const shown = text(await conn.client.readResource({ uri: `git://proj/show/${hash.slice(0, 10)}` }));
		assert.match(shown, new RegExp(`^commit ${hash}\\nAuthor: Test User <test@example.invalid>`));
		assert.match(shown, /\+export const a = 1;/);
		assert.ok(!shown.includes('SECRET'), 'the secret file of the commit is left out');
		assert.equal((await errorOf(conn.client.readResource({ uri: 'git://proj/show/nope' }))).code, -32602);
		for (const bad of ['--output=x', 'HEAD:.env', 'a..b']) {
			assert.equal((await errorOf(conn.client.readResource({ uri: `git://proj/show/${encodeURIComponent(bad)}` }))).code, -32602, bad);
		}
	});

	it('a commit shows in /log and notifies its subscribers', async () => {
		await conn.client.subscribeResource({ uri: 'git://proj/log' });
		JSON.parse(text(await conn.client.readResource({ uri: 'git://proj/log' })));
		repo.write('src/b.ts', 'export const b = 1;\n');
		const hash = repo.commitAll('add b');
		await conn.waitForUpdate('git://proj/log');
		const log = JSON.parse(text(await conn.client.readResource({ uri: 'git://proj/log' })));
		assert.equal(log.commits[0].hash, hash);
		assert.equal(log.commits[0].subject, 'add b');
		assert.equal(log.commits.length, 2);
		const branches = JSON.parse(text(await conn.client.readResource({ uri: 'git://proj/branches' })));
		assert.equal(branches.current, 'main');
		assert.deepEqual(branches.branches.map((b: { name: string }) => b.name), ['main']);
	});

	it('completes repositories, changed paths and refs', async () => {
		repo.write('src/a.ts', 'changed\n');
		repo.write('.env', 'changed\n');
		repo.git('tag', 'v1.0');
		const complete = (uri: string, name: string, value: string, context?: Record<string, string>) =>
			conn.client.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) });
		assert.deepEqual((await complete('git://{repo}/diff/{+path}', 'repo', 'p')).completion.values, ['proj']);
		assert.deepEqual((await complete('git://{repo}/diff/{+path}', 'path', '', { repo: 'proj' })).completion.values, ['src/a.ts']);
		const refs = (await complete('git://{repo}/show/{ref}', 'ref', 'v', { repo: 'proj' })).completion.values;
		assert.deepEqual(refs, ['v1.0']);
		// A branch with a slash reads as the template spells it ({ref} escapes the slash) and as written.
		repo.git('branch', 'feature/slash');
		assert.deepEqual((await complete('git://{repo}/show/{ref}', 'ref', 'feat', { repo: 'proj' })).completion.values, ['feature/slash']);
		const head = repo.git('rev-parse', 'HEAD').trim();
		for (const uri of ['git://proj/show/feature%2Fslash', 'git://proj/show/feature/slash']) {
			assert.match(text(await conn.client.readResource({ uri })), new RegExp(`^commit ${head}\\n`), uri);
		}
		assert.equal((await errorOf(complete('git://{repo}/show/{ref}', 'nope', ''))).code, -32602);
	});

	it('offers no HEAD in a repository without a commit, where it would not read', async () => {
		const empty = new TestRepo('fresh');
		const folders = new StaticFolders([empty.root]);
		const served = scopeOver(folders, new FakeSettings());
		const provider = new GitProvider({ source: new GitCliSource({ folders, log: nullLogger }), scope: served.scope, settings: new FakeSettings(), log: nullLogger });
		const freshRegistry = new ProviderRegistry([provider], fastTracker);
		const client = await connectInMemory(freshRegistry);
		try {
			await client.client.listResources();
			const { completion } = await client.client.complete({ ref: { type: 'ref/resource', uri: 'git://{repo}/show/{ref}' }, argument: { name: 'ref', value: '' }, context: { arguments: { repo: 'fresh' } } });
			assert.deepEqual(completion.values, []);
		} finally {
			await client.close();
			freshRegistry.dispose();
			empty.dispose();
		}
	});

	// POSIX, as the suite's machines are: on Windows a backslash separates, and no name holds one.
	it('diffs a file whose name holds a backslash, where a backslash is a name\'s own character', async () => {
		repo.write('src/back\\slash.ts', 'one\n');
		repo.commitAll('a name with a backslash');
		repo.write('src/back\\slash.ts', 'two\n');
		const diff = text(await conn.client.readResource({ uri: 'git://proj/diff/src/back%5Cslash.ts' }));
		assert.match(diff, /^-one$/m);
		assert.match(diff, /^\+two$/m);
		assert.equal((await conn.client.complete({ ref: { type: 'ref/resource', uri: 'git://{repo}/diff/{+path}' }, argument: { name: 'path', value: 'src/b' }, context: { arguments: { repo: 'proj' } } })).completion.values[0], 'src/back\\slash.ts');
	});
});

describe('git provider following repositories (fakes)', () => {
	let source: FakeGitSource;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;

	beforeEach(async () => {
		source = new FakeGitSource();
		const folders = new StaticFolders(['/w']);
		const settings = new FakeSettings({ ...new FakeSettings().get(), maxFileSize: 2048 });
		const provider = new GitProvider({ source, scope: scopeOver(folders, settings).scope, settings, log: nullLogger });
		registry = new ProviderRegistry([provider], fastTracker);
		conn = await connectInMemory(registry);
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
	});

	it('lists nothing without repositories, then follows repositories opening and closing with unique names', async () => {
		assert.deepEqual((await conn.client.listResources()).resources, []);
		const a = new FakeGitRepository('/w/app');
		const b = new FakeGitRepository('/w/libs/app');
		let changed = conn.waitForListChanged();
		source.open(a);
		source.open(b);
		await changed;
		const uris = (await conn.client.listResources()).resources.map(r => r.uri);
		assert.ok(uris.includes('git://app/status') && uris.includes('git://app-2/status'), uris.join());
		changed = conn.waitForListChanged();
		source.close(a);
		await changed;
		const after = (await conn.client.listResources()).resources.map(r => r.uri);
		assert.ok(after.includes('git://app/status') && !after.some(u => u.startsWith('git://app-2/')), after.join());
		assert.equal(after.length, 5);
	});

	it('tells two repositories of one name apart in the workspace folders\' order, as the folders are named', async () => {
		const folders = new StaticFolders(['/z/app', '/a/app', '/m/lib']);
		const settings = new FakeSettings();
		const twoApps = new FakeGitSource();
		const provider = new GitProvider({ source: twoApps, scope: scopeOver(folders, settings).scope, settings, log: nullLogger });
		try {
			// Opened in path order; each says which it is by its branch.
			for (const root of ['/a/app', '/m/lib/app', '/z/app']) {
				const repo = new FakeGitRepository(root);
				repo.statusValue = { branch: root, staged: [], unstaged: [], untracked: [], conflicts: [] };
				twoApps.open(repo);
			}
			const named: Record<string, string> = {};
			for (const name of ['app', 'app-2', 'app-3']) {
				named[name] = (JSON.parse(text({ contents: await provider.read(`git://${name}/status`) })) as { branch: string }).branch;
			}
			assert.deepEqual(named, { 'app': '/z/app', 'app-2': '/a/app', 'app-3': '/m/lib/app' });
		} finally {
			provider.dispose();
		}
	});

	it('caches reads until the repository changes, and keeps the log across working-tree changes', async () => {
		const repo = new FakeGitRepository('/w/app');
		source.open(repo);
		// Let the opening's own notifications pass before subscribing.
		registry.flushChanges();
		await conn.client.ping();
		repo.diffText = 'diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n';
		await conn.client.readResource({ uri: 'git://app/diff' });
		await conn.client.readResource({ uri: 'git://app/diff' });
		assert.equal(repo.diffCalls, 1, 'second read from cache');
		await conn.client.subscribeResource({ uri: 'git://app/diff' });
		await conn.client.subscribeResource({ uri: 'git://app/log' });
		repo.change(false);
		await conn.waitForUpdate('git://app/diff');
		await conn.client.readResource({ uri: 'git://app/diff' });
		assert.equal(repo.diffCalls, 2, 'recomputed after a change');
		registry.flushChanges();
		assert.ok(!conn.updates.includes('git://app/log'), 'log not notified for a working-tree change');
		repo.change(true);
		await conn.waitForUpdate('git://app/log');
	});

	it('notifies and recomputes only what a change can alter: working tree, index, history', async () => {
		const repo = new FakeGitRepository('/w/app');
		source.open(repo);
		registry.flushChanges();
		await conn.client.ping();
		const all = ['status', 'diff', 'diff/staged', 'log', 'branches'];
		for (const suffix of all) {
			await conn.client.readResource({ uri: `git://app/${suffix}` });
			await conn.client.subscribeResource({ uri: `git://app/${suffix}` });
		}
		const notifiedBy = async (kinds: Parameters<FakeGitRepository['changeOnly']>[0]) => {
			const from = conn.updates.length;
			repo.changeOnly(kinds);
			registry.flushChanges();
			await conn.client.ping();
			return all.filter(suffix => conn.updates.slice(from).includes(`git://app/${suffix}`));
		};
		assert.deepEqual(await notifiedBy({ workingTree: true }), ['status', 'diff']);
		const diffCalls = repo.diffCalls;
		await conn.client.readResource({ uri: 'git://app/diff/staged' });
		assert.equal(repo.diffCalls, diffCalls, 'the staged diff still cached after a working-tree change');
		assert.deepEqual(await notifiedBy({ index: true }), ['status', 'diff', 'diff/staged']);
		assert.deepEqual(await notifiedBy({ history: true }), ['status', 'diff/staged', 'log', 'branches']);
	});

	it('notifies, and reads afresh, a resource spelled otherwise than listed (the repository\'s name escaped) when it changes', async () => {
		const repo = new FakeGitRepository('/w/app');
		source.open(repo);
		repo.statusValue = { branch: 'main', staged: [], unstaged: [], untracked: [], conflicts: [] };
		const spelled = 'git://%61pp/status';
		assert.equal(JSON.parse(text(await conn.client.readResource({ uri: spelled }))).branch, 'main');
		repo.statusValue = { branch: 'topic', staged: [], unstaged: [], untracked: [], conflicts: [] };
		await conn.client.subscribeResource({ uri: spelled });
		repo.change(true);
		registry.flushChanges();
		await conn.client.ping();
		assert.deepEqual(conn.updates, [spelled], 'the subscriber is notified by the spelling it used');
		assert.equal(JSON.parse(text(await conn.client.readResource({ uri: spelled }))).branch, 'topic');
	});

	it('truncates a large diff at the size cap with a clear note', async () => {
		const repo = new FakeGitRepository('/w/app');
		source.open(repo);
		repo.diffText = 'diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n' + '+line\n'.repeat(2000);
		const out = text(await conn.client.readResource({ uri: 'git://app/diff' }));
		assert.match(out, /# diff truncated at 2 KB \(the mcpResources\.maxFileSize limit\)/);
		assert.ok(Buffer.byteLength(out) < 2048 + 300);
	});

	it('hides status paths outside the workspace folders', async () => {
		const repo = new FakeGitRepository(path.dirname('/w'));
		repo.statusValue = { branch: 'main', staged: [], unstaged: [{ path: 'w/in.ts', status: 'modified' }, { path: 'other/out.ts', status: 'modified' }], untracked: [], conflicts: [] };
		source.open(repo);
		const name = (await conn.client.listResources()).resources[0].uri.split('/')[2];
		const status = JSON.parse(text(await conn.client.readResource({ uri: `git://${name}/status` })));
		assert.deepEqual(status.unstaged, [{ path: 'w/in.ts', status: 'modified' }]);
		assert.equal(status.hidden, 1);
	});
});

describe('git provider memory bounds (fakes)', () => {
	const hash = 'a'.repeat(40);
	const patch = 'diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n' + '+b\n'.repeat(30_000);
	let source: FakeGitSource;
	let repo: FakeGitRepository;
	let provider: GitProvider;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;

	beforeEach(async () => {
		source = new FakeGitSource();
		repo = new FakeGitRepository('/w/app');
		repo.commits = [{ hash, parents: [], message: 'one\n' }];
		repo.patchText = patch;
		source.repos = [repo];
		const folders = new StaticFolders(['/w']);
		const settings = new FakeSettings({ ...new FakeSettings().get(), maxFileSize: 1024 * 1024 });
		provider = new GitProvider({ source, scope: scopeOver(folders, settings).scope, settings, log: nullLogger, cacheBytes: 1024 * 1024 });
		registry = new ProviderRegistry([provider], fastTracker);
		conn = await connectInMemory(registry);
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
	});

	it('600 spellings of one commit share one cache entry, each answered under its own URI', async () => {
		const spellings = Array.from({ length: 600 }, (_, i) => 'HEAD' + '^0~0'.repeat(i % 40) + '^0'.repeat(Math.floor(i / 40)));
		assert.equal(new Set(spellings).size, 600);
		spellings.forEach(s => repo.aliases.set(s, hash));
		let first: string | undefined;
		for (const spelling of spellings) {
			const uri = `git://app/show/${encodeURIComponent(spelling)}`;
			const read = await conn.client.readResource({ uri });
			assert.equal(read.contents[0].uri, uri);
			first ??= text(read);
			assert.equal(text(read), first);
		}
		assert.match(first!, new RegExp(`^commit ${hash}\\n`));
		assert.equal(repo.patchCalls, 1, 'the patch was made once, for the commit id');
		assert.ok(provider.cacheBytes < 2 * Buffer.byteLength(first!) + 4096, `cache holds ${provider.cacheBytes} bytes`);
	});

	it('keeps a spelled subscription notified however many commits another client reads or subscribes to, and lets theirs go when they leave', async () => {
		const other = await connectInMemory(registry);
		try {
			const spelled = 'git://%61pp/status';
			await conn.client.subscribeResource({ uri: spelled });
			// More than the 500 such URIs the provider once kept for every client together.
			const uris = Array.from({ length: 600 }, (_, i) => 'HEAD' + '^0~0'.repeat(i % 40) + '^0'.repeat(Math.floor(i / 40)))
				.map(ref => (repo.aliases.set(ref, hash), `git://app/show/${encodeURIComponent(ref)}`));
			const told = async (after: string) => {
				conn.updates.length = 0;
				repo.change(true);
				registry.flushChanges();
				await conn.client.ping();
				assert.deepEqual(conn.updates, [spelled], `the first subscriber is still told, by its spelling, after ${after}`);
			};
			for (const uri of uris) {
				await other.client.readResource({ uri });
			}
			await told('another client read 600 commits');
			assert.equal(provider.watchedCount, 1, 'a read holds nothing');
			for (const uri of uris) {
				await other.client.subscribeResource({ uri });
			}
			await told('another client subscribed to them');
			assert.equal(provider.watchedCount, 601);
			await other.client.unsubscribeResource({ uri: uris[0] });
			assert.equal(provider.watchedCount, 600, 'an unsubscribed URI is let go');
		} finally {
			await other.close();
		}
		assert.equal(provider.watchedCount, 1, 'a closed session\'s URIs are let go');
	});

	it('keeps the cache under its byte bound however many distinct answers are read, least recently read going first', async () => {
		const commits = Array.from({ length: 40 }, (_, i) => ({ hash: i.toString(16).padStart(40, '0'), parents: [], message: `c${i}\n` }));
		repo.commits = commits;
		const each = Buffer.byteLength(patch) * 2; // UTF-16: ~180 KB per answer against a 1 MB bound
		for (const c of commits) {
			await conn.client.readResource({ uri: `git://app/show/${c.hash}` });
			assert.ok(provider.cacheBytes <= 1024 * 1024, `cache holds ${provider.cacheBytes} bytes`);
		}
		assert.equal(repo.patchCalls, 40);
		assert.ok(provider.cacheBytes >= each, 'recent answers are kept');
		// The newest is still cached; the oldest was dropped and is made again.
		await conn.client.readResource({ uri: `git://app/show/${commits[39].hash}` });
		assert.equal(repo.patchCalls, 40);
		await conn.client.readResource({ uri: `git://app/show/${commits[0].hash}` });
		assert.equal(repo.patchCalls, 41);
	});

	it('answers a commit named by its full id from the cache, with no git call to resolve it', async () => {
		const uri = `git://app/show/${hash}`;
		const first = text(await conn.client.readResource({ uri }));
		const calls = repo.commitCalls;
		assert.equal(text(await conn.client.readResource({ uri })), first);
		assert.equal(text(await conn.client.readResource({ uri: `git://app/show/${hash.toUpperCase()}` })), first);
		assert.equal(repo.commitCalls, calls, 'a commit id never moves: nothing to resolve');
		assert.equal(repo.patchCalls, 1);
	});

	it('resolves a moving ref on every read: a branch that moves shows its new commit', async () => {
		const second = 'b'.repeat(40);
		repo.commits = [{ hash, parents: [], message: 'one\n' }, { hash: second, parents: [hash], message: 'two\n' }];
		repo.aliases.set('main', hash);
		assert.match(text(await conn.client.readResource({ uri: 'git://app/show/main' })), /^commit a{40}\n/);
		repo.aliases.set('main', second);
		assert.match(text(await conn.client.readResource({ uri: 'git://app/show/main' })), /^commit b{40}\n/);
	});
});
