import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { RELEVANT_URI } from '../../../src/common/wellKnownUris';
import { ProviderRegistry } from '../../../src/core/registry';
import { createHeadlessRegistry } from '../../../src/node/headless';
import { TestRepo } from '../../helpers/gitRepo';
import { ConnectedClient, connectInMemory, RecordingLogger } from '../../helpers/harness';
import { readJson } from '../../helpers/readJson';

/**
 * The paths headless git state names, through a client: each is a file the files provider lists
 * (or a deletion of one), so a client can read what status and the ranking point at.
 */
describe('headless git state names only files a client can read', () => {
	let repo: TestRepo;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;

	beforeEach(() => {
		repo = new TestRepo('proj');
		repo.write('top.txt', 'committed\n');
		repo.commitAll('initial');
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
		repo.dispose();
	});

	async function serve(): Promise<void> {
		const log = new RecordingLogger();
		({ registry } = createHeadlessRegistry({ roots: [repo.root], log, trackerOptions: { debounceMs: 5, maxDelayMs: 20, listChangedIntervalMs: 0 } }));
		conn = await connectInMemory(registry, log);
		await conn.client.listResources();
	}

	const listedFiles = async (): Promise<string[]> =>
		(await conn.client.listResources()).resources.filter(r => r.uri.startsWith('file:')).map(r => r.name).sort();
	const untracked = async (): Promise<string[]> =>
		(await readJson(conn, 'git://proj/status')).untracked.map((c: { path: string }) => c.path);
	const ranked = async (): Promise<[string, string[]][]> =>
		(await readJson(conn, RELEVANT_URI)).files.map((f: { file: string; reasons: string[] }) => [f.file, f.reasons]);

	it('lists each untracked file of a new folder on its own, and ranks it as untracked', async () => {
		repo.write('real/r.txt', 'new\n');
		repo.write('real/deeper/s.txt', 'new\n');
		await serve();
		assert.deepEqual(await listedFiles(), ['real/deeper/s.txt', 'real/r.txt', 'top.txt']);
		assert.deepEqual(await untracked(), ['real/deeper/s.txt', 'real/r.txt']);
		assert.deepEqual(await ranked(), [
			['real/deeper/s.txt', ['new, untracked (git)']],
			['real/r.txt', ['new, untracked (git)']],
		]);
	});

	it('names no link to a folder, no link that leads nowhere or in a loop, in status or the ranking', async () => {
		repo.write('real/r.txt', 'new\n');
		repo.write('gone.txt', 'tracked\n');
		repo.commitAll('second');
		rmSync(path.join(repo.root, 'gone.txt'));
		symlinkSync('nowhere', path.join(repo.root, 'dangling.txt'));
		symlinkSync('real', path.join(repo.root, 'linkdir'));
		symlinkSync('loop-b', path.join(repo.root, 'loop-a'));
		symlinkSync('loop-a', path.join(repo.root, 'loop-b'));
		symlinkSync('top.txt', path.join(repo.root, 'to-top.txt'));
		mkdirSync(path.join(repo.root, 'nested'));
		new TestRepo('nested', repo.root).write('inner.txt', 'a repository of its own: git names it `nested/`\n');
		await serve();
		assert.deepEqual(await listedFiles(), ['nested/inner.txt', 'real/r.txt', 'to-top.txt', 'top.txt']);
		const status = await readJson(conn, 'git://proj/status');
		assert.deepEqual(status.untracked.map((c: { path: string }) => c.path), ['to-top.txt']);
		assert.deepEqual(status.unstaged, [{ path: 'gone.txt', status: 'deleted' }], 'a deletion is still named, by its name');
		assert.equal(status.hidden, 5);
		assert.deepEqual(await ranked(), [
			['gone.txt', ['changed in the working tree (git)']],
			['to-top.txt', ['new, untracked (git)']],
		]);
	});
});

describe('headless git names repositories as the roots are named', () => {
	it('with two roots named `proj`, `git://proj-2/` is the repository of the files named `proj-2/…`', async () => {
		// The second root's path sorts first: names follow the roots' order, not their paths.
		const later = new TestRepo('proj');
		const earlier = new TestRepo('proj');
		const [first, second] = later.parent > earlier.parent ? [later, earlier] : [earlier, later];
		first.write('first.txt', 'new\n');
		second.write('second.txt', 'new\n');
		const { registry } = createHeadlessRegistry({ roots: [first.root, second.root], log: new RecordingLogger() });
		const conn = await connectInMemory(registry);
		try {
			const files = (await conn.client.listResources()).resources.filter(r => r.uri.startsWith('file:')).map(r => r.name).sort();
			assert.deepEqual(files, ['proj-2/second.txt', 'proj/first.txt']);
			const untracked = async (name: string) => (await readJson(conn, `git://${name}/status`)).untracked.map((c: { path: string }) => c.path);
			assert.deepEqual(await untracked('proj'), ['first.txt']);
			assert.deepEqual(await untracked('proj-2'), ['second.txt']);
		} finally {
			await conn.close();
			registry.dispose();
			first.dispose();
			second.dispose();
		}
	});
});
