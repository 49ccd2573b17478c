import * as assert from 'node:assert/strict';
import { LocalSearchBackend } from '../../../../src/core/search/localSearchBackend';
import { IndexReport } from '../../../../src/core/search/ports';
import { EraClient } from '../../../helpers/eraClients';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { HeldReads } from '../../../helpers/heldReads';
import { bothEras, createSearchServer, readSearch, SearchJson, SearchServer, textUri } from '../../../helpers/searchServer';
import { until } from '../../../helpers/until';

/**
 * A text search sent while the search index is still being built, through SDK clients of both
 * eras. The index's background work is held at its first read (nothing else reads through the
 * index's reader before a search), so the search meets files not indexed yet every time, with
 * no race against the clock: it must read and search them, not wait for the index nor skip them.
 */
describe('search://text sent before the search index is built', function () {
	this.timeout(30_000);
	let fx: Fixture;
	let reader: HeldReads;
	let server: SearchServer;
	let eras: { clients: EraClient[]; close(): Promise<void> };
	/** Where every file holding the word has it, as answers list them. */
	const expected: string[] = [];

	beforeEach(async () => {
		fx = createFixture();
		expected.length = 0;
		for (let i = 0; i < 12; i++) {
			const rel = `src/file${String(i).padStart(2, '0')}.ts`;
			// Two files in three hold the word, on a line of their own that varies.
			const lines = [`export const n${i} = ${i};`, 'const other = 1;', 'const more = 2;'];
			if (i % 3 !== 2) {
				lines[i % 3] = `const s${i} = 'pendingword';`;
				expected.push(`${rel}:${i % 3 + 1}`);
			}
			fx.write(rel, `${lines.join('\n')}\n`);
		}
		let reads = 0;
		reader = new HeldReads(() => reads++ === 0);
		server = createSearchServer([fx.root], { backend: new LocalSearchBackend(reader) });
		eras = await bothEras(server.registry);
	});
	afterEach(async () => {
		reader.release();
		await eras.close();
		server.dispose();
		fx.dispose();
	});

	const where = (answer: SearchJson) => answer.files.flatMap(f => f.matches.map(m => `${f.path}:${m.line}`));

	for (const era of ['modern', 'legacy'] as const) {
		it(`${era}: answers complete with every match, reading the files the index has not`, async () => {
			const client = eras.clients.find(c => c.era === era)!;
			const built = new Promise<IndexReport>(resolve => server.backend.onDidIndex!(resolve));
			// The files index is built, the list handed to the search index, and its first read waits.
			await until(reader.onDidHold, () => reader.held.length === 1, 'the search index\'s first read held');
			const before = await server.backend.progress();
			assert.equal(before.indexed, 0, 'no file indexed yet');
			const answer = await readSearch(client, textUri('pendingword'));
			assert.equal(server.log.infos.some(l => l.startsWith('search index:')), false, 'the index was still being built');
			// The budget (10 s) is far beyond what a dozen small files take: nothing cuts this answer short.
			assert.equal(answer.complete, true, answer.reason);
			assert.deepEqual(where(answer), expected);
			assert.equal(answer.matchCount, expected.length);
			reader.release();
			const report = await built;
			assert.deepEqual([report.indexed, report.total], [before.total, before.total], 'every file indexed once the read is let go');
			assert.deepEqual(where(await readSearch(client, textUri('pendingword'))), expected, 'the built index answers the same');
		});
	}
});
