import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as fc from 'fast-check';
import { fileUri } from '../../../src/core/uriGuard';
import { HttpHost } from '../../../src/mcp/http/httpHost';
import { EraClient, httpEraClients, listPage, outcomeOf } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, listedFileUris, TestServer } from '../../helpers/harness';
import { until } from '../../helpers/until';

const SEED = 20261125;
const PAGE = 4;
/** Names files come and go by: plain, non-ASCII, percent and space, so URI order is not name order. */
const POOL = Array.from({ length: 12 }, (_, i) => [`gen/f${i}.txt`, `gen/ä${i}.md`, `gen/%${i} x.txt`][i % 3]);

type Page = { resources: { uri: string }[]; nextCursor?: string };

/**
 * What a cursor says, read independently of the server: `c1.` then base64url JSON
 * `{ s: section, a: last URI }`. Anything else is not a cursor (-32602).
 */
function cursorState(cursor: string): { s: string; a: string } | undefined {
	if (!cursor.startsWith('c1.') || cursor.length > 8192) {
		return undefined;
	}
	try {
		const state = JSON.parse(Buffer.from(cursor.slice(3), 'base64url').toString('utf8')) as { s?: unknown; a?: unknown } | null;
		return state && typeof state.s === 'string' && typeof state.a === 'string' ? { s: state.s, a: state.a } : undefined;
	} catch {
		return undefined;
	}
}

describe('invariant: cursors page a changing list like a model, and a bad cursor is -32602 (both eras, HTTP)', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let server: TestServer;
	let host: HttpHost;
	let clients: EraClient[];

	beforeEach(async () => {
		fx = createFixture();
		fx.write('gen/seed.txt', 'the folder the pool comes and goes in\n');
		server = createTestServer([fx.root]);
		await server.files.ready();
		host = new HttpHost({ registry: server.registry, log: server.log, pageSize: PAGE });
		const { url, token } = await host.start();
		clients = await httpEraClients(url, token);
	});
	afterEach(async () => {
		await Promise.all(clients.map(c => c.close()));
		await host.stop();
		host.dispose();
		server.dispose();
		fx.dispose();
	});

	/** The served files' URIs now, once the index has caught up with `expected`. */
	async function settle(expected: ReadonlySet<string>): Promise<string[]> {
		const same = () => {
			const now = listedFileUris(server.files);
			return now.length === expected.size && now.every(u => expected.has(u));
		};
		await until(server.registry.onDidChange, same, 'the index to show the files written', 10_000);
		return listedFileUris(server.files).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
	}

	/** The model's page after `after`: the next PAGE URIs in order, and whether more follow. */
	function modelPage(all: readonly string[], after: string | undefined): { uris: string[]; more: boolean } {
		const rest = after === undefined ? [...all] : all.filter(u => u > after);
		return { uris: rest.slice(0, PAGE), more: rest.length > PAGE };
	}

	it('walks in step with a model while files come and go between pages, in both eras', async () => {
		const steps = fc.array(fc.record({ add: fc.subarray(POOL), remove: fc.subarray(POOL) }), { minLength: 1, maxLength: 6 });
		await fc.assert(fc.asyncProperty(steps, async changes => {
			const present = new Set(await settle(new Set(listedFileUris(server.files))));
			const walks = clients.map(c => ({ c, cursor: undefined as string | undefined, last: undefined as string | undefined, seen: [] as string[], done: false, firstCursor: undefined as string | undefined, firstLast: undefined as string | undefined }));
			for (const change of [...changes, ...Array.from({ length: 20 }, () => ({ add: [], remove: [] }))]) {
				for (const walk of walks.filter(w => !w.done)) {
					const page = await listPage(walk.c, walk.cursor) as Page;
					const expected = modelPage([...present].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), walk.last);
					assert.deepEqual(page.resources.map(r => r.uri), expected.uris, `${walk.c.label} page after ${walk.last}`);
					assert.equal(page.nextCursor !== undefined, expected.more, `${walk.c.label}: a cursor exactly when more follow`);
					walk.seen.push(...expected.uris);
					walk.last = expected.uris.at(-1) ?? walk.last;
					walk.cursor = page.nextCursor;
					walk.done = page.nextCursor === undefined;
					if (walk.firstCursor === undefined && !walk.done) {
						walk.firstCursor = page.nextCursor;
						walk.firstLast = walk.last;
					}
				}
				for (const rel of change.add) {
					writeFileSync(fx.file(rel), rel);
					present.add(fileUri(fx.file(rel)));
					server.watcher.fire({ kind: 'created', path: fx.file(rel) });
				}
				for (const rel of change.remove.filter(r => !change.add.includes(r))) {
					rmSync(fx.file(rel), { force: true });
					present.delete(fileUri(fx.file(rel)));
					server.watcher.fire({ kind: 'deleted', path: fx.file(rel) });
				}
				await settle(present);
			}
			for (const walk of walks) {
				assert.ok(walk.done, `${walk.c.label} reached the end`);
				assert.equal(new Set(walk.seen).size, walk.seen.length, `${walk.c.label}: no URI twice in one walk`);
				// Replayed after the changes, in the other era too, a cursor resumes after the URI it names.
				for (const c of clients) {
					const replay = await listPage(c, walk.firstCursor) as Page;
					const expected = modelPage([...present].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), walk.firstLast);
					assert.deepEqual(replay.resources.map(r => r.uri), expected.uris, `${c.label} replays ${walk.c.label}'s first cursor`);
				}
			}
		}), { seed: SEED, numRuns: 15 });
	});

	it('answers a tampered, truncated, forged or other-era cursor with -32602 or with exactly the page it names', async () => {
		const firstPages = await Promise.all(clients.map(c => listPage(c) as Promise<Page>));
		const real = firstPages.map(p => p.nextCursor!);
		const all = listedFileUris(server.files).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
		const forged = fc.record({ s: fc.constantFrom('files', 'git', 'FILES', ''), a: fc.oneof(fc.constantFrom(...all), fc.string(), fc.constant('file:///')) })
			.map(state => 'c1.' + Buffer.from(JSON.stringify(state)).toString('base64url'));
		const tampered = fc.record({ base: fc.constantFrom(...real), at: fc.nat(), ch: fc.constantFrom('A', '_', '-', '=', '.', '%', ' ', 'é') })
			.chain(({ base, at, ch }) => fc.constantFrom(
				base.slice(0, at % base.length), base.slice(0, at % base.length) + ch + base.slice(at % base.length + 1),
				base + ch, ch + base, base.toUpperCase(), base.repeat(40), 'c1.' + Buffer.from('[1]').toString('base64url'),
				'c1.' + Buffer.from('{"s":1,"a":"x"}').toString('base64url'), 'c1.', '', base));
		await fc.assert(fc.asyncProperty(fc.oneof(forged, tampered), fc.constantFrom(...clients), async (cursor, c) => {
			const answer = await outcomeOf(listPage(c, cursor));
			const state = cursorState(cursor);
			if (state?.s !== 'files') {
				assert.ok(!answer.ok, `${c.label} refuses ${JSON.stringify(cursor)}`);
				assert.deepEqual([answer.code, answer.message], [-32602, 'Invalid cursor']);
			} else {
				assert.ok(answer.ok, `${c.label} pages after ${JSON.stringify(state.a)}: ${JSON.stringify(answer)}`);
				const page = answer.value as Page;
				const expected = modelPage(all, state.a);
				assert.deepEqual(page.resources.map(r => r.uri), expected.uris);
				assert.equal(page.nextCursor !== undefined, expected.more);
			}
			assert.ok((await listPage(c)).resources.length > 0, 'and the next request is served');
		}), { seed: SEED, numRuns: 150 });
		assert.deepEqual(server.log.errors, [], 'a client mistake logs no error');
	});
});
