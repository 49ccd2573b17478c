import * as assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { RELEVANT_URI } from '../../../src/common/wellKnownUris';
import { ProviderRegistry } from '../../../src/core/registry';
import { createHeadlessRegistry } from '../../../src/node/headless';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { ConnectedClient, connectInMemory, RecordingLogger } from '../../helpers/harness';
import { readJson } from '../../helpers/readJson';

/**
 * Headless, files written on disk are a relevance signal, from the host's own directory watcher.
 * Only files count: a new directory is nothing to read, and a new secret directory (`.aws/`)
 * must not be named at all.
 */
describe('headless relevance from the file watcher', () => {
	let fx: Fixture;
	let registry: ProviderRegistry;
	let conn: ConnectedClient;

	beforeEach(async () => {
		fx = createFixture();
		const log = new RecordingLogger();
		({ registry } = createHeadlessRegistry({ roots: [fx.root], log, trackerOptions: { debounceMs: 5, maxDelayMs: 20, listChangedIntervalMs: 0 } }));
		conn = await connectInMemory(registry, log);
		await conn.client.listResources(); // the index is built and the watcher started
	});
	afterEach(async () => {
		await conn.close();
		registry.dispose();
		fx.dispose();
	});

	const rankedFiles = async (): Promise<string[]> => (await readJson(conn, RELEVANT_URI) as { files: { file: string }[] }).files.map(f => f.file);

	it('ranks a file written on disk, and no directory created beside it (secret or not)', async () => {
		mkdirSync(fx.file('.aws'));
		mkdirSync(fx.file('drafts'));
		fx.write('notes.txt', 'written\n');
		const deadline = Date.now() + 10_000;
		let ranked = await rankedFiles();
		while (!ranked.includes('notes.txt')) {
			assert.ok(Date.now() < deadline, `notes.txt never ranked: ${ranked.join(', ')}`);
			await new Promise(resolve => setTimeout(resolve, 20)); // the next look at a condition, not a wait standing in for it
			ranked = await rankedFiles();
		}
		assert.deepEqual(ranked, ['notes.txt']);
	});

	it('stops ranking a written file once it is deleted or renamed away: its URI reads nothing', async () => {
		await conn.client.subscribeResource({ uri: RELEVANT_URI });
		fx.write('notes.txt', 'written\n');
		fx.write('src/plan.txt', 'written\n');
		await untilRanked(ranked => ranked.includes('notes.txt') && ranked.includes('src/plan.txt'));
		renameSync(fx.file('notes.txt'), fx.file('renamed.txt'));
		rmSync(fx.file('src'), { recursive: true });
		await untilRanked(ranked => ranked.includes('renamed.txt'));
		await conn.waitForUpdate(RELEVANT_URI);
		assert.deepEqual(await rankedFiles(), ['renamed.txt']);
	});

	/** Reads the ranking until `done` holds of it (the watcher's events take a moment). */
	async function untilRanked(done: (ranked: string[]) => boolean): Promise<void> {
		const deadline = Date.now() + 10_000;
		let ranked = await rankedFiles();
		while (!done(ranked)) {
			assert.ok(Date.now() < deadline, `not ranked as expected: ${ranked.join(', ')}`);
			await new Promise(resolve => setTimeout(resolve, 20)); // the next look at a condition, not a wait standing in for it
			ranked = await rankedFiles();
		}
	}
});
