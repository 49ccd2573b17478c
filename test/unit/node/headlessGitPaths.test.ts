import * as assert from 'node:assert/strict';
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
});
