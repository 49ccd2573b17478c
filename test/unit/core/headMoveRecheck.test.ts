import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HeadMoveRecheck, PathRecheck } from '../../../src/core/git/headMoveRecheck';
import { fileUri } from '../../../src/core/uriGuard';
import { FakeGitRepository, FakeGitSource } from '../../fakes/fakeGit';
import { createTestServer, listedFileUris, RecordingLogger, TestServer } from '../../helpers/harness';
import { until } from '../../helpers/until';

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);

class RecordingRecheck implements PathRecheck {
	readonly calls: (readonly string[])[] = [];
	recheck(absPaths: readonly string[]): void {
		this.calls.push(absPaths);
	}
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
		repo.changedPaths.set(`${OLD}..${NEW}`, ['a.txt', 'dir/b.txt']);
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
		assert.deepEqual(target.calls, [[path.join('/ws/repo', 'a.txt'), path.join('/ws/repo', 'dir/b.txt')]]);
	});

	it('does nothing for changes that leave HEAD where it was', async () => {
		await openAndRemember();
		repo.change(false);
		repo.change(true); // refs moved, HEAD did not
		await recheck.settled();
		assert.deepEqual(target.calls, []);
	});

	it('leaves a move across more paths than the cap to the watcher, and says so', async () => {
		repo.changedPaths.set(`${OLD}..${NEW}`, ['1', '2', '3', '4']);
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
		repo.changedPaths.set(`${NEW}..${OLD}`, ['back.txt']);
		repo.head = OLD;
		repo.change(true);
		await recheck.settled();
		assert.deepEqual(target.calls, [[path.join('/ws/repo', 'back.txt')]]);
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
	async function switchUnreported(roots: string[], switchOnDisk: () => void, changed: string[], expected: string[]): Promise<void> {
		server = createTestServer(roots.map(r => path.join(parent, r)));
		const source = new FakeGitSource();
		const repo = new FakeGitRepository(parent);
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
		}, ['a/old.txt', 'a/new.txt', 'b/deep/added.txt', 'b/.env.production', 'outside-new.txt'], ['a/new.txt', 'b/deep/added.txt', 'b/stays.txt']);
	});

	it("takes git's real paths into a folder opened through a symbolic link", async () => {
		symlinkSync(path.join(parent, 'a'), path.join(parent, 'link-to-a'));
		await switchUnreported(['link-to-a'], () => writeFileSync(path.join(parent, 'a/new.txt'), 'new\n'), ['a/new.txt'],
			['link-to-a/old.txt', 'link-to-a/new.txt']);
	});
});
