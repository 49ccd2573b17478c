import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HeadMoveRecheck, MovedPath, PathRecheck } from '../../../src/core/git/headMoveRecheck';
import { GitFileChange } from '../../../src/core/git/ports';
import { ResourceChange } from '../../../src/core/resource';
import { fileUri } from '../../../src/core/uriGuard';
import { FakeGitRepository, FakeGitSource } from '../../fakes/fakeGit';
import { createTestServer, listedFileUris, RecordingLogger, TestServer } from '../../helpers/harness';
import { until } from '../../helpers/until';

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);

class RecordingRecheck implements PathRecheck {
	readonly calls: (readonly MovedPath[])[] = [];
	recheck(paths: readonly MovedPath[]): void {
		this.calls.push(paths);
	}
}

/** Changes as git names them: `-path` deleted, `+path` added, else modified. */
function changes(...names: string[]): GitFileChange[] {
	return names.map(name => name.startsWith('-') ? { path: name.slice(1), status: 'deleted' }
		: name.startsWith('+') ? { path: name.slice(1), status: 'added' } : { path: name, status: 'modified' });
}

describe('HeadMoveRecheck', () => {
	let source: FakeGitSource;
	let repo: FakeGitRepository;
	let target: RecordingRecheck;
	let log: RecordingLogger;
	let recheck: HeadMoveRecheck;

	beforeEach(() => {
		source = new FakeGitSource();
		repo = new FakeGitRepository('/ws/repo');
		repo.head = OLD;
		repo.changedPaths.set(`${OLD}..${NEW}`, changes('a.txt', '-dir/b.txt'));
		target = new RecordingRecheck();
		log = new RecordingLogger();
		recheck = new HeadMoveRecheck(source, target, log, 3);
	});
	afterEach(() => recheck.dispose());

	async function openAndRemember(): Promise<void> {
		source.open(repo);
		await recheck.settled();
	}

	it('rechecks, under the repository root, the paths that differ between the old and the new HEAD', async () => {
		await openAndRemember();
		assert.deepEqual(target.calls, [], 'the first sighting only remembers HEAD');
		repo.head = NEW;
		repo.change(true);
		await recheck.settled();
		assert.deepEqual(target.calls, [[{ absPath: path.join('/ws/repo', 'a.txt'), deleted: false }, { absPath: path.join('/ws/repo', 'dir/b.txt'), deleted: true }]]);
	});

	it('does nothing for changes that leave HEAD where it was', async () => {
		await openAndRemember();
		repo.change(false);
		repo.change(true); // refs moved, HEAD did not
		await recheck.settled();
		assert.deepEqual(target.calls, []);
	});

	it('leaves a move across more paths than the cap to the watcher, and says so', async () => {
		repo.changedPaths.set(`${OLD}..${NEW}`, changes('1', '2', '3', '4'));
		await openAndRemember();
		repo.head = NEW;
		repo.change(true);
		await recheck.settled();
		assert.deepEqual(target.calls, []);
		assert.ok(log.infos.some(m => /more than 3 paths/.test(m)), log.infos.join('\n'));
	});

	it("logs a failed diff by the repository's folder name alone, and follows the next move", async () => {
		await openAndRemember();
		const failing = repo.pathsChangedBetween.bind(repo);
		repo.pathsChangedBetween = () => Promise.reject(new Error('bad object'));
		repo.head = NEW;
		repo.change(true);
		await recheck.settled();
		assert.deepEqual(log.warnings, ['git: could not list the paths HEAD\'s move changed in repo: bad object']);
		repo.pathsChangedBetween = failing;
		repo.changedPaths.set(`${NEW}..${OLD}`, changes('+back.txt'));
		repo.head = OLD;
		repo.change(true);
		await recheck.settled();
		assert.deepEqual(target.calls, [[{ absPath: path.join('/ws/repo', 'back.txt'), deleted: false }]]);
	});

	it('stops following a closed repository', async () => {
		await openAndRemember();
		source.close(repo);
		repo.head = NEW;
		repo.change(true);
		await recheck.settled();
		assert.deepEqual(target.calls, []);
	});
});

describe('HeadMoveRecheck into the file index', () => {
	let parent: string;
	let server: TestServer | undefined;
	let recheck: HeadMoveRecheck | undefined;
	beforeEach(() => {
		parent = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwr-recheck-')));
		for (const rel of ['a/old.txt', 'b/stays.txt', 'b/.env.local', 'outside.txt']) {
			mkdirSync(path.dirname(path.join(parent, rel)), { recursive: true });
			writeFileSync(path.join(parent, rel), 'x\n');
		}
	});
	afterEach(() => {
		recheck?.dispose();
		server?.dispose();
		rmSync(parent, { recursive: true, force: true });
	});

	/**
	 * Indexes `roots`, moves the HEAD of a repository at `parent` after `switchOnDisk` changed the
	 * files (with no watcher event), git naming `changed`; resolves when the listing is `expected`.
	 */
	let repo: FakeGitRepository;

	async function switchUnreported(roots: string[], switchOnDisk: () => void, changed: GitFileChange[], expected: string[]): Promise<void> {
		server = createTestServer(roots.map(r => path.join(parent, r)));
		const source = new FakeGitSource();
		repo = new FakeGitRepository(parent);
		recheck = new HeadMoveRecheck(source, server.files, server.log);
		await server.files.ready();
		repo.head = OLD;
		source.open(repo);
		await recheck.settled();
		switchOnDisk();
		repo.changedPaths.set(`${OLD}..${NEW}`, changed);
		repo.head = NEW;
		repo.change(true);
		const files = server.files;
		const want = JSON.stringify(expected.map(rel => fileUri(path.join(parent, rel))).sort());
		await until(files.onDidChange, () => JSON.stringify(listedFileUris(files)) === want, 'the switched listing', 5000,
			() => JSON.stringify(listedFileUris(files)));
	}

	it('maps paths to the folder that holds them (multi-root) and ignores secrets and paths outside every folder', async () => {
		await switchUnreported(['a', 'b'], () => {
			unlinkSync(path.join(parent, 'a/old.txt'));
			writeFileSync(path.join(parent, 'a/new.txt'), 'new\n');
			mkdirSync(path.join(parent, 'b/deep'));
			writeFileSync(path.join(parent, 'b/deep/added.txt'), 'new\n');
			writeFileSync(path.join(parent, 'b/.env.production'), 'SECRET=1\n');
			writeFileSync(path.join(parent, 'outside-new.txt'), 'new\n');
		}, changes('-a/old.txt', '+a/new.txt', '+b/deep/added.txt', '+b/.env.production', '+outside-new.txt'), ['a/new.txt', 'b/deep/added.txt', 'b/stays.txt']);
	});

	it("takes git's real paths into a folder opened through a symbolic link", async () => {
		symlinkSync(path.join(parent, 'a'), path.join(parent, 'link-to-a'));
		await switchUnreported(['link-to-a'], () => writeFileSync(path.join(parent, 'a/new.txt'), 'new\n'), changes('+a/new.txt'),
			['link-to-a/old.txt', 'link-to-a/new.txt']);
	});

	it('leaves alone the paths the index already shows as the new commit has them', async () => {
		// A first move: a/old.txt deleted, b/stays.txt rewritten (listed all along), a secret added.
		await switchUnreported(['a', 'b'], () => unlinkSync(path.join(parent, 'a/old.txt')), changes('-a/old.txt', 'b/stays.txt', '+b/.env.local'), ['b/stays.txt']);
		const files = server!.files;
		const updated: string[] = [];
		const sub = files.onDidChange(change => updated.push(...change.updated));
		try {
			repo.changedPaths.set(`${NEW}..${OLD}`, changes('+a/old.txt', 'b/stays.txt'));
			// HEAD goes back while the disk stays: the index agrees with `b/stays.txt` only.
			writeFileSync(path.join(parent, 'a/old.txt'), 'x\n');
			repo.head = OLD;
			repo.change(true);
			await recheck!.settled();
			await until(files.onDidChange, () => updated.includes(fileUri(path.join(parent, 'a/old.txt'))), 'a/old.txt rechecked');
			// A watcher batch queued after the recheck: once it is applied, the recheck's is too.
			writeFileSync(path.join(parent, 'b/new-by-watcher.txt'), 'x\n');
			server!.watcher.fire({ kind: 'changed', path: path.join(parent, 'b/new-by-watcher.txt') });
			await until(files.onDidChange, () => updated.includes(fileUri(path.join(parent, 'b/new-by-watcher.txt'))), 'the watcher batch');
			assert.deepEqual(updated.filter(u => u.includes('/b/stays.txt')), [], 'a listed file the index agrees on is not checked again');
		} finally {
			sub.dispose();
		}
	});

	it('tells of a listed file the move rewrote, its event dropped, what its change event tells: an update alone', async () => {
		await switchUnreported(['a', 'b'], () => undefined, [], ['a/old.txt', 'b/stays.txt']);
		const files = server!.files;
		const stays = path.join(parent, 'b/stays.txt');
		const heard: ResourceChange[] = [];
		const sub = files.onDidChange(change => heard.push(change));
		try {
			writeFileSync(stays, 'rewritten by the move\n');
			writeFileSync(path.join(parent, 'b/.env.local'), 'SECRET=2\n');
			repo.changedPaths.set(`${NEW}..${OLD}`, changes('b/stays.txt', 'b/.env.local'));
			repo.head = OLD;
			repo.change(true);
			await until(files.onDidChange, () => heard.length === 1, 'the rewritten file');
			writeFileSync(stays, 'rewritten again, with its event\n');
			server!.watcher.fire({ kind: 'changed', path: stays });
			await until(files.onDidChange, () => heard.length === 2, 'the watcher event');
			assert.deepEqual(heard, [{ updated: [fileUri(stays)], listChanged: false }, { updated: [fileUri(stays)], listChanged: false }]);
		} finally {
			sub.dispose();
		}
	});
});
