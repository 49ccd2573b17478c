import * as assert from 'node:assert/strict';
import { BASE_PRIORITY, FileSignals, priorityFor, rank, TimelessRanks, WEIGHTS } from '../../../src/core/relevance/ranking';
import { RELEVANT_URI } from '../../../src/common/wellKnownUris';
import { RelevanceProvider } from '../../../src/core/relevance/relevanceProvider';
import { ProviderRegistry } from '../../../src/core/registry';
import { fileUri } from '../../../src/core/uriGuard';
import { WorkspaceScope } from '../../../src/core/workspaceScope';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { StaticFolders } from '../../../src/node/staticSources';
import { FakeDiagnostics, problem } from '../../fakes/fakeDiagnostics';
import { FakeGitRepository, FakeGitSource } from '../../fakes/fakeGit';
import { FakeRelevanceSignals } from '../../fakes/fakeRelevanceSignals';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { connectInMemory, ConnectedClient, createTestServer, TestServer } from '../../helpers/harness';
import { readJson } from '../../helpers/readJson';

const NOW = 1_800_000_000_000;
const MIN = 60_000;

describe('relevance ranking', () => {
	it('puts what the user looks at first: active, then visible, then a tab', () => {
		assert.deepEqual(rank({ active: true, visible: true, openInTab: true }, NOW), { score: WEIGHTS.active, reasons: ['active editor'] });
		assert.ok(rank({ visible: true }, NOW).score > rank({ openInTab: true }, NOW).score);
		assert.deepEqual(rank({}, NOW), { score: 0, reasons: [] });
	});

	it('decays edits, saves and writes with a half-life, and lets a later save cover an edit', () => {
		const fresh = rank({ edited: NOW }, NOW);
		assert.deepEqual(fresh.reasons, ['edited (unsaved) 0 s ago']);
		assert.equal(fresh.score, WEIGHTS.edited);
		assert.equal(rank({ edited: NOW - WEIGHTS.recencyHalfLifeMinutes * MIN }, NOW).score, WEIGHTS.edited / 2);
		assert.deepEqual(rank({ edited: NOW - 2 * MIN, saved: NOW - MIN }, NOW).reasons, ['saved 1 min ago']);
		assert.deepEqual(rank({ written: NOW - 90 * MIN }, NOW).reasons, ['written 2 h ago']);
	});

	it('raises files with errors over warnings, and git conflicts over other changes', () => {
		assert.ok(rank({ errors: 1 }, NOW).score > rank({ warnings: 5 }, NOW).score);
		assert.deepEqual(rank({ errors: 2, warnings: 3 }, NOW).reasons, ['2 errors'], 'warnings count only without errors');
		assert.ok(rank({ git: 'conflicted' }, NOW).score > rank({ git: 'staged' }, NOW).score);
		assert.ok(rank({ git: 'modified' }, NOW).score > rank({ git: 'untracked' }, NOW).score);
		assert.deepEqual(rank({ active: true, errors: 1, git: 'modified' }, NOW).reasons, ['active editor', '1 error', 'changed in the working tree (git)'], 'strongest reason first');
	});

	it('maps scores to priorities from the base towards 1, in order', () => {
		assert.equal(priorityFor(0), BASE_PRIORITY);
		const scores = [0.2, 0.5, 1, 2, 4];
		const priorities = scores.map(priorityFor);
		assert.deepEqual([...priorities].sort(), priorities, 'monotone');
		assert.ok(priorities.every(p => p > BASE_PRIORITY && p < 1));
		assert.ok(priorityFor(WEIGHTS.active) > 0.65 && priorityFor(WEIGHTS.active) < 0.75);
	});

	it('remembers the rankings of time-free signal sets only, each as rank gives it', () => {
		const memo = new TimelessRanks();
		const timeless: FileSignals[] = [{ git: 'modified' }, { git: 'untracked' }, { active: true, errors: 2 }, { visible: true, warnings: 1, git: 'staged' }, { openInTab: true }];
		for (const later of [0, 90 * MIN]) {
			for (const s of timeless) {
				assert.deepEqual(memo.rank(s, NOW + later), rank(s, NOW), JSON.stringify(s));
			}
		}
		for (const s of [{ edited: NOW }, { saved: NOW, git: 'modified' as const }, { written: NOW, active: true }]) {
			assert.deepEqual(memo.rank(s, NOW), rank(s, NOW));
			assert.deepEqual(memo.rank(s, NOW + 30 * MIN), rank(s, NOW + 30 * MIN), 'a time in the set: ranked at each now');
			assert.notDeepEqual(rank(s, NOW + 30 * MIN), rank(s, NOW));
		}
	});
});

describe('relevance provider through an MCP client', () => {
	let fx: Fixture;
	let server: TestServer;
	let signals: FakeRelevanceSignals;
	let diagnostics: FakeDiagnostics;
	let git: FakeGitSource;
	let repo: FakeGitRepository;
	let registry: ProviderRegistry;
	let relevance: RelevanceProvider;
	let conn: ConnectedClient;
	let now: number;

	beforeEach(async () => {
		fx = createFixture();
		for (let i = 0; i < 12; i++) {
			fx.write(`many/f${String(i).padStart(2, '0')}.txt`, `${i}\n`);
		}
		server = createTestServer([fx.root]);
		signals = new FakeRelevanceSignals();
		diagnostics = new FakeDiagnostics();
		git = new FakeGitSource();
		repo = new FakeGitRepository(fx.root);
		git.open(repo);
		now = NOW;
		const scope = new WorkspaceScope(new StaticFolders([fx.root]), server.files, new NodeFileSystem());
		relevance = new RelevanceProvider({ scope, editor: signals, touches: signals.onDidTouch, diagnostics, git, now: () => now }, { throttleMs: 20, gitThrottleMs: 10 });
		registry = new ProviderRegistry([relevance, server.files], { debounceMs: 5, maxDelayMs: 20, listChangedIntervalMs: 0 });
		conn = await connectInMemory(registry);
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
		fx.dispose();
	});

	interface Body { files: { file: string; uri: string; priority: number; reasons: string[] }[]; note?: string }
	const relevant = async () => await readJson(conn, RELEVANT_URI) as Body;

	it('answers with a note when nothing stands out, then ranks the active file first with its reason', async () => {
		assert.deepEqual(await relevant(), { files: [], note: 'Nothing stands out: no file is open, edited, broken or changed in git.' });
		signals.show(fx.file('src/index.ts'), [fx.file('src/index.ts'), fx.file('README.md')], [fx.file('src/index.ts'), fx.file('README.md'), fx.file('pkg/lib.ts')]);
		const body = await relevant();
		assert.deepEqual(body.files.map(f => [f.file, f.reasons]), [
			['src/index.ts', ['active editor']],
			['README.md', ['visible editor']],
			['pkg/lib.ts', ['open in a tab']],
		]);
		assert.equal(body.files[0].uri, fileUri(fx.file('src/index.ts')));
	});

	it('puts a file typed into at the top and notifies subscribers once the order changes', async () => {
		signals.show(fx.file('README.md'));
		await conn.client.subscribeResource({ uri: RELEVANT_URI });
		assert.equal((await relevant()).files[0].file, 'README.md');
		registry.flushChanges();
		await conn.client.ping(); // what the start-up ranking notified has arrived
		const before = conn.updates.length;
		for (let i = 0; i < 4; i++) {
			signals.touch(fx.file('src/index.ts'), 'edited');
		}
		await waitUntil(async () => conn.updates.length > before);
		assert.deepEqual((await relevant()).files.map(f => f.file), ['README.md', 'src/index.ts'], 'an edit (0.9) does not beat the active editor (1.0) alone');
		const mid = conn.updates.length;
		diagnostics.set(fx.file('src/index.ts'), [problem('error', 0, 'broken')]);
		await waitUntil(async () => conn.updates.length > mid);
		assert.equal((await relevant()).files[0].file, 'src/index.ts');
		assert.deepEqual((await relevant()).files[0].reasons, ['edited (unsaved) 0 s ago', '1 error']);
		registry.flushChanges();
		await conn.client.ping();
		const notified = conn.updates.slice(before).filter(u => u === RELEVANT_URI).length;
		assert.equal(notified, 2, 'one notification per change of order: 4 keystrokes and one error change it twice');
	});

	it('notifies when a file already first gains a reason (it becomes the active editor)', async () => {
		signals.touch(fx.file('src/index.ts'), 'edited');
		await conn.client.subscribeResource({ uri: RELEVANT_URI });
		await waitUntil(async () => (await relevant()).files[0]?.file === 'src/index.ts');
		registry.flushChanges();
		await conn.client.ping();
		const before = conn.updates.filter(u => u === RELEVANT_URI).length;
		signals.show(fx.file('src/index.ts'));
		await waitUntil(async () => conn.updates.filter(u => u === RELEVANT_URI).length > before);
		assert.deepEqual((await relevant()).files[0].reasons, ['active editor', 'edited (unsaved) 0 s ago']);
	});

	it('raises a file with a TypeScript-style error and files git sees changed', async () => {
		repo.statusValue = { staged: [{ path: 'pkg/lib.ts', status: 'modified' }], unstaged: [], untracked: [{ path: 'many/f03.txt', status: 'untracked' }], conflicts: [] };
		repo.change();
		diagnostics.set(fx.file('many/f07.txt'), [problem('error', 1, 'Type error'), problem('warning', 2, 'unused')]);
		await waitUntil(async () => (await relevant()).files.length === 3);
		assert.deepEqual((await relevant()).files.map(f => [f.file, f.reasons]), [
			['many/f07.txt', ['1 error']],
			['pkg/lib.ts', ['staged (git)']],
			['many/f03.txt', ['new, untracked (git)']],
		]);
	});

	it('reads git on a turn of its own, never inside the repository\'s change event (the git extension fires it at the end of a long model update)', async () => {
		await relevant(); // git is started and read once
		const before = repo.statusCalls;
		await new Promise(resolve => setTimeout(resolve, 20)); // the git throttle's interval is over: a change reads at once
		repo.statusValue = { staged: [], unstaged: [{ path: 'pkg/lib.ts', status: 'modified' }], untracked: [], conflicts: [] };
		repo.change();
		assert.equal(repo.statusCalls, before, 'not read while the event is delivered');
		await waitUntil(async () => (await relevant()).files.length === 1);
		assert.equal(repo.statusCalls, before + 1);
	});

	it('drops a file git sees changed from the ranking the moment a setting stops serving it', async () => {
		repo.statusValue = { staged: [{ path: 'pkg/lib.ts', status: 'modified' }], unstaged: [], untracked: [{ path: 'many/f03.txt', status: 'untracked' }], conflicts: [] };
		repo.change();
		await waitUntil(async () => (await relevant()).files.length === 2);
		const lib = fileUri(fx.file('pkg/lib.ts'));
		const priorityOfLib = () => {
			const entries = [{ uri: lib, name: 'lib.ts' }];
			relevance.annotate(entries);
			return (entries[0] as { annotations?: { priority?: number } }).annotations?.priority;
		};
		assert.equal(priorityOfLib(), priorityFor(WEIGHTS.git.staged));
		// Git's files were located when git was read: the new rule must decide at once, not at the next read.
		const atRuleChange = new Promise<number | undefined>(resolve => {
			const listener = server.files.onDidChangeRules(() => {
				listener.dispose();
				resolve(priorityOfLib());
			});
		});
		server.settings.set({ exclude: ['pkg/**'] });
		assert.equal(await atRuleChange, BASE_PRIORITY);
		await waitUntil(async () => (await relevant()).files.length === 1);
		assert.deepEqual((await relevant()).files.map(f => f.file), ['many/f03.txt']);
	});

	it('never names, ranks or prioritises a file the rule does not serve (secrets, ignored, outside)', async () => {
		for (const p of [fx.file('.env'), fx.file('build/out.js'), `${fx.outside}/passwd`]) {
			signals.touch(p, 'edited');
			diagnostics.set(p, [problem('error', 0, 'x')]);
		}
		signals.show(fx.file('.env'));
		repo.statusValue = { staged: [], unstaged: [{ path: '.env', status: 'modified' }], untracked: [], conflicts: [] };
		repo.change();
		signals.touch(fx.file('README.md'), 'saved');
		await waitUntil(async () => (await relevant()).files.length === 1);
		const text = JSON.stringify(await relevant());
		assert.ok(!/\.env|out\.js|passwd|outside/.test(text), text);
	});

	it('forgets what was touched at or below a path that went, but not what the same batch touched after it went', async () => {
		for (const f of ['a/one.txt', 'a/b/two.txt', 'a/four.txt', 'ab/five.txt', 'c/three.txt', 'c/six.txt']) {
			fx.write(f, 'x\n');
		}
		signals.touchAll(['a/one.txt', 'a/b/two.txt', 'ab/five.txt', 'c/three.txt'].map(f => ({ path: fx.file(f), kind: 'saved' as const })));
		await waitUntil(async () => (await relevant()).files.length === 4);
		// One batch, as a watcher delivers a branch switch: c/six.txt written and then c gone;
		// a gone and then a/four.txt written again; ab (a sibling whose name starts with a) stays.
		signals.touchAll([
			{ path: fx.file('c/six.txt'), kind: 'written' },
			{ path: fx.file('c'), kind: 'gone' },
			{ path: fx.file('a'), kind: 'gone' },
			{ path: fx.file('a/four.txt'), kind: 'written' },
		]);
		await waitUntil(async () => (await relevant()).files.length === 2);
		assert.deepEqual((await relevant()).files.map(f => f.file).sort(), ['a/four.txt', 'ab/five.txt']);
		signals.touchAll([{ path: fx.file('ab/five.txt'), kind: 'gone' }]);
		await waitUntil(async () => (await relevant()).files.length === 1);
		assert.deepEqual((await relevant()).files.map(f => f.file), ['a/four.txt']);
	});

	it('ranks no untracked directory git names as one `dir/` entry: it is no file to read, and `.ssh/` is a secret', async () => {
		fx.write('.ssh/config', 'Host *\n');
		fx.write('drafts/new.txt', 'draft\n');
		repo.statusValue = { staged: [], unstaged: [], untracked: [{ path: '.ssh/', status: 'untracked' }, { path: 'drafts/', status: 'untracked' }, { path: 'many/f03.txt', status: 'untracked' }], conflicts: [] };
		repo.change();
		signals.touch(fx.file('README.md'), 'saved');
		await waitUntil(async () => (await relevant()).files.length >= 2);
		assert.deepEqual((await relevant()).files.map(f => f.file), ['README.md', 'many/f03.txt']);
	});

	it('sets each listed file\'s priority from the ranking, and a ranking change between pages never breaks the cursor', async () => {
		signals.show(fx.file('many/f05.txt'));
		const first = await conn.client.request({ method: 'resources/list', params: {} }, (await import('@modelcontextprotocol/sdk/types.js')).ListResourcesResultSchema);
		const all = [...first.resources];
		const f05 = all.find(r => r.uri === fileUri(fx.file('many/f05.txt')));
		const readme = all.find(r => r.uri === fileUri(fx.file('README.md')));
		assert.ok(f05 && readme);
		assert.equal(f05.annotations?.priority, priorityFor(WEIGHTS.active));
		assert.equal(readme.annotations?.priority, BASE_PRIORITY);
		// For the user and the assistant alike: what a client reads when no audience is given.
		assert.equal(readme.annotations?.audience, undefined);
		assert.equal(all[0].uri, RELEVANT_URI);
		assert.equal(all[0].annotations?.priority, 1);

		// Only ranked URIs are looked up by value: files whose URIs are as long as f05's are not
		// ranked for that, and ranked files of another length are still found.
		for (const entry of all.filter(r => /\/many\/f\d\d\.txt$/.test(r.uri) && r !== f05)) {
			assert.equal(entry.uri.length, f05.uri.length);
			assert.equal(entry.annotations?.priority, BASE_PRIORITY, entry.uri);
		}
		signals.show(fx.file('pkg/lib.ts'));
		const lib = (await conn.client.listResources()).resources.find(r => r.uri === fileUri(fx.file('pkg/lib.ts')));
		assert.notEqual(lib?.uri.length, f05.uri.length);
		assert.equal(lib?.annotations?.priority, priorityFor(WEIGHTS.active));

		// Page by page with a small page, the ranking changing after every page.
		const small = await connectInMemory(registry, undefined, 4);
		try {
			const seen: string[] = [];
			let cursor: string | undefined;
			let i = 0;
			do {
				const page = await small.client.listResources(cursor ? { cursor } : {});
				seen.push(...page.resources.map(r => r.uri));
				cursor = page.nextCursor;
				signals.show(fx.file(`many/f${String(i++ % 12).padStart(2, '0')}.txt`));
				signals.touch(fx.file(`many/f${String((i * 5) % 12).padStart(2, '0')}.txt`), 'edited');
			} while (cursor);
			assert.deepEqual(seen, all.map(r => r.uri), 'the same entries, once each, in the same order');
		} finally {
			await small.close();
		}
	});
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) {
			throw new Error('timed out');
		}
		await new Promise(resolve => setImmediate(resolve));
	}
}
