import * as assert from 'node:assert/strict';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { McpSubscription } from '@modelcontextprotocol/client';
import { fileUri } from '../../../src/core/uriGuard';
import { EraClient, outcomeOf } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { CLI } from '../../helpers/headlessHost';
import { headlessTransports, HeadlessTransports } from '../../helpers/headlessTransports';
import { FilesJson, SearchJson, textUri } from '../../helpers/searchServer';
import { until } from '../../helpers/until';

/** Lines of `caps/many.txt`, each a match of `zqhit`: more than the largest `max`. */
const MANY = 5_100;

/** A search's JSON answer, read past the client's cache. */
async function answer<T = SearchJson>(c: EraClient, uri: string): Promise<T> {
	const { contents } = await c.client.readResource({ uri }, { cacheMode: 'bypass' });
	return JSON.parse((contents[0] as { text: string }).text) as T;
}

const where = (a: SearchJson) => a.files.flatMap(f => f.matches.map(m => `${f.path}:${m.line}:${m.column}`));

describe('search over the headless host: HTTP, serve --stdio and the bridge, both eras', function () {
	this.timeout(120_000);
	let fx: Fixture;
	let hosts: HeadlessTransports;

	before(async () => {
		assert.ok(existsSync(CLI), 'run npm run build first');
		fx = createFixture();
		fx.write('src/alpha.ts', 'export function activate() {\n\treturn Activate;\n}\n// activated later\n');
		fx.write('src/beta.ts', 'import { activate } from "./alpha";\nactivate();\n');
		fx.write('docs/guide.md', 'Call ACTIVATE first.\nThen deactivate.\n');
		fx.write('caps/many.txt', Array.from({ length: MANY }, (_, i) => `zqhit ${i}`).join('\n'));
		fx.write('live/one.ts', 'const liveWord = 1;\n');
		fx.write('live/other.ts', 'nothing here\n');
		hosts = await headlessTransports(fx.root);
	});
	after(async () => {
		await hosts?.close();
		fx?.dispose();
	});

	/** Every client's answer, the same on each; that one answer. */
	async function ask<T = SearchJson>(uri: string): Promise<T> {
		const answers = await Promise.all(hosts.clients.map(c => answer<T>(c, uri)));
		answers.forEach((a, i) => assert.deepEqual(a, answers[0], `${hosts.clients[i].label} answers ${uri} as ${hosts.clients[0].label} does`));
		return answers[0];
	}

	it('answers every parameter (q, case, word, regex, glob, max) alike, files by path and matches by line and column', async () => {
		const cases: [string, string[]][] = [
			[textUri('activate'), ['docs/guide.md:1:6', 'docs/guide.md:2:8', 'src/alpha.ts:1:17', 'src/alpha.ts:2:9', 'src/alpha.ts:4:4', 'src/beta.ts:1:10', 'src/beta.ts:2:1']],
			[textUri('Activate', { case: true }), ['src/alpha.ts:2:9']],
			[textUri('activate', { word: true }), ['docs/guide.md:1:6', 'src/alpha.ts:1:17', 'src/alpha.ts:2:9', 'src/beta.ts:1:10', 'src/beta.ts:2:1']],
			[textUri('activate', { word: true, case: true }), ['src/alpha.ts:1:17', 'src/beta.ts:1:10', 'src/beta.ts:2:1']],
			[textUri('ACTIVATE\\(', { regex: true }), ['src/alpha.ts:1:17', 'src/beta.ts:2:1']],
			[textUri('ACTIVATE\\(', { regex: true, case: true }), []],
			[textUri('^\\w+ \\{ activate', { regex: true }), ['src/beta.ts:1:1']],
			[textUri('activate', { glob: 'src/b*.ts,*.md' }), ['docs/guide.md:1:6', 'docs/guide.md:2:8', 'src/beta.ts:1:10', 'src/beta.ts:2:1']],
			[textUri('activate', { glob: 'none/**' }), []],
			[textUri('activate', { max: 2 }), ['docs/guide.md:1:6', 'docs/guide.md:2:8']],
		];
		for (const [uri, expected] of cases) {
			const a = await ask(uri);
			assert.deepEqual(where(a), expected, uri);
			assert.equal(a.matchCount, expected.length, uri);
			assert.equal(a.complete, !uri.includes('max=2'), uri);
		}
		const first = (await ask(textUri('activate'))).files[1].matches[1];
		assert.deepEqual(first, { line: 2, column: 9, text: '\treturn Activate;', uri: `${fileUri(fx.file('src/alpha.ts'))}?lines=2` });
	});

	it('caps the matches at 200 by default and at most 5,000, saying so with complete:false and a reason', async () => {
		const byDefault = await ask(textUri('zqhit'));
		assert.deepEqual([byDefault.matchCount, byDefault.complete], [200, false]);
		assert.match(byDefault.reason!, /max=200/);
		const most = await ask(textUri('zqhit', { max: 5000 }));
		assert.deepEqual([most.matchCount, most.complete], [5000, false]);
		assert.match(most.reason!, /max=5000/);
		assert.deepEqual(most.files[0].matches.slice(0, 3).map(m => m.line), [1, 2, 3], 'in line order');
		const all = await ask(textUri('zqhit 51\\d\\d$', { regex: true, max: 5000 }));
		assert.deepEqual([all.matchCount, all.complete, all.reason], [0, true, undefined], `${MANY} lines, none past 5099`);
	});

	it('search://files: paths as Quick Open matches them, best first, capped by max', async () => {
		const best = await ask<FilesJson>('search://files?q=alpts');
		assert.deepEqual([best.files[0].path, best.files[0].uri, best.complete], ['src/alpha.ts', fileUri(fx.file('src/alpha.ts')), true]);
		const capped = await ask<FilesJson>('search://files?q=srcts&max=1');
		assert.deepEqual([capped.files.length, capped.complete], [1, false]);
		const scores = (await ask<FilesJson>('search://files?q=ts')).files.map(f => f.score);
		assert.deepEqual(scores, [...scores].sort((a, b) => b - a), 'best first');
	});

	it('answers bad input with -32602 and a reason to act on, and the next request as before', async () => {
		const bad: [string, RegExp][] = [
			['search://text', /non-empty q/],
			[textUri('(unclosed', { regex: true }), /Invalid regex/],
			[textUri('x', { max: 0 }), /whole number from 1 to 5,000/],
			[textUri('x', { max: 5001 }), /over the limit of 5,000/],
			[textUri('x', { case: 'yes' }), /case=true or case=false/],
			[`${textUri('x')}&colour=red`, /Unknown parameter "colour"/],
			['search://files?q=a&max=1001', /over the limit of 1,000/],
		];
		for (const c of hosts.clients) {
			for (const [uri, reason] of bad) {
				const outcome = await outcomeOf(c.client.readResource({ uri }, { cacheMode: 'bypass' }));
				assert.ok(!outcome.ok && outcome.code === -32602, `${c.label} ${uri}: ${JSON.stringify(outcome)}`);
				assert.match(outcome.message, reason, `${c.label} ${uri}`);
				assert.doesNotMatch(outcome.message, /\/tmp|at .*\.js/, `${c.label} ${uri}: no path or stack`);
			}
			assert.equal((await answer(c, textUri('activate'))).matchCount, 7, `${c.label}: still answering`);
		}
	});

	// Last: what it writes ranks its files first (headless relevance) for any test after it.
	it('a subscribed search hears `updated` on a write that changes its answer, a delete and a rename, and not on one that does not', async () => {
		const live = textUri('liveWord');
		// A second search the "irrelevant" writes do change: once it is heard, the server has
		// answered both searches again after that write, so a wrong `updated` of `live` came first.
		const barrier = textUri('barrierWord');
		const listens: McpSubscription[] = [];
		const count = (c: EraClient, uri: string) => c.updates.filter(u => u === uri).length;
		const heard = (uri: string, n: number) => Promise.all(hosts.clients.map(c =>
			until(c.onDidUpdate, () => count(c, uri) >= n, `${c.label}: ${n} updates of ${uri}`, 30_000)));
		/** Waits, on each client, until an update brings the answer `done` accepts. */
		const settles = (done: (paths: string[]) => boolean, what: string) => Promise.all(hosts.clients.map(async c => {
			for (;;) {
				const seen = count(c, live);
				if (done((await answer(c, live)).files.map(f => f.path).sort())) {
					return;
				}
				await until(c.onDidUpdate, () => count(c, live) > seen, `${c.label}: ${what}`, 30_000);
			}
		}));
		try {
			for (const c of hosts.clients) {
				assert.deepEqual((await answer(c, live)).files.map(f => f.path), ['live/one.ts'], c.label);
				if (c.era === 'legacy') {
					await c.client.subscribeResource({ uri: live });
					await c.client.subscribeResource({ uri: barrier });
				} else {
					const listen = await c.client.listen({ resourceSubscriptions: [live, barrier] });
					listens.push(listen);
					assert.deepEqual(listen.honoredFilter.resourceSubscriptions, [live, barrier], c.label);
				}
			}

			fx.write('live/other.ts', 'barrierWord 1\n');
			await heard(barrier, 1);
			const before = hosts.clients.map(c => c.updates.length);
			fx.write('live/added.ts', 'liveWord added\n');
			await heard(live, 1);
			fx.write('live/other.ts', 'barrierWord 1\nbarrierWord 2\n');
			await heard(barrier, 2);
			hosts.clients.forEach((c, i) => {
				assert.ok(!c.updates.slice(0, before[i]).includes(live), `${c.label}: no update of ${live} for a write outside its answer: ${JSON.stringify(c.updates)}`);
				assert.equal(count(c, live), 1, `${c.label}: one update for the write that changed the answer, none for the others: ${JSON.stringify(c.updates)}`);
			});
			await settles(paths => paths.join() === 'live/added.ts,live/one.ts', 'the added file');

			for (const [act, paths, what] of [
				[() => rmSync(fx.file('live/added.ts')), 'live/one.ts', 'a delete'],
				[() => renameSync(fx.file('live/one.ts'), fx.file('live/renamed.ts')), 'live/renamed.ts', 'a rename'],
			] as const) {
				const seen = hosts.clients.map(c => count(c, live));
				act();
				await Promise.all(hosts.clients.map((c, i) => until(c.onDidUpdate, () => count(c, live) > seen[i], `${c.label}: updated on ${what}`, 30_000)));
				await settles(now => now.join() === paths, what);
			}
		} finally {
			await Promise.all(listens.map(l => l.close()));
		}
	});
});
