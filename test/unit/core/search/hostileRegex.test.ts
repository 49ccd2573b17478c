import * as assert from 'node:assert/strict';
import { ThreadSearchBackend } from '../../../../src/node/threadSearchBackend';
import { NodeFileSystem } from '../../../../src/node/nodeFileSystem';
import { answeredWhile, EraClient } from '../../../helpers/eraClients';
import { createFixture, Fixture } from '../../../helpers/fixtureWorkspace';
import { RecordingLogger } from '../../../helpers/harness';
import { bothEras, createSearchServer, readSearch, SearchServer, textUri } from '../../../helpers/searchServer';

/** Patterns that hold a backtracking engine for minutes on these lines; RE2 reads each line once. */
const HOSTILE: [pattern: string, matchedLines: number][] = [['(a+)+$', 6], ['(a|aa)*[0-9]', 0], ['[a-z]{300}[0-9]', 0], ['(.*a){20}[0-9]', 0], ['(\\w+\\s*){50}!', 0]];

describe('hostile regexes run in linear time in the worker thread while clients are answered', function () {
	this.timeout(120_000);
	let fx: Fixture;
	let server: SearchServer;
	let log: RecordingLogger;
	let eras: { clients: EraClient[]; close(): Promise<void> };

	beforeEach(async () => {
		fx = createFixture();
		for (let i = 0; i < 6; i++) {
			fx.write(`long/line${i}.txt`, `${'a'.repeat(900_000)}\n`);
		}
		log = new RecordingLogger();
		server = createSearchServer([`${fx.root}/long`], { backend: new ThreadSearchBackend(new NodeFileSystem(), log) });
		eras = await bothEras(server.registry);
	});
	afterEach(async () => {
		await eras.close();
		server.dispose();
		fx.dispose();
	});

	it('answers every hostile pattern, and requests sent meanwhile before it', async () => {
		for (const c of eras.clients) {
			for (const [pattern, matchedLines] of HOSTILE) {
				const { result: answer, answeredFirst } = await answeredWhile(c, readSearch(c, textUri(pattern, { regex: true })));
				assert.equal(answer.matchCount, matchedLines, `${c.label} ${pattern}`);
				assert.equal(answer.complete, true, `${c.label} ${pattern}`);
				assert.ok(answeredFirst > 0, `${c.label} ${pattern}: a request sent meanwhile was answered before the search`);
			}
		}
		assert.deepEqual(log.warnings, [], 'the worker thread ran them (no fallback to the main thread)');
	});
});
