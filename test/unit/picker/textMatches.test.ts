// The picker's text matches in plain Node: the query read as search://text through the picker's
// real MCP client from the real headless host (dist/cli.js), and from foreign SDK servers.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nullLogger } from '../../../src/common/logger';
import { SEARCH_TEXT_TEMPLATE } from '../../../src/common/wellKnownUris';
import { fileUri } from '../../../src/core/uriGuard';
import { PickerService, ServerEntry, WORKSPACE_SERVER_ID } from '../../../src/picker/pickerService';
import { FILTER_PAGE, PickerViewModel } from '../../../src/picker/pickerViewModel';
import { ViewNode } from '../../../src/picker/pickerNodes';
import { ReadContent } from '../../../src/picker/contextBundle';
import { selectedLine, TextMatches, textMatchesMessage, TextMatchesState, textSearchUri } from '../../../src/picker/textMatches';
import { Emitter } from '../../../src/common/event';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { CLI, Host, startHost } from '../../helpers/headlessHost';
import { until } from '../../helpers/until';
import { HostileServer, startHostileServer } from './hostileServer';

describe('picker: text matches through a real client and the headless host', function () {
	this.timeout(30_000);
	let fx: Fixture;
	let home: string;
	let hosts: Host[];
	let hostile: HostileServer | undefined;
	let service: PickerService;
	let workspace: ServerEntry;
	let matches: TextMatches;
	let seen: TextMatchesState[];

	before(() => assert.ok(existsSync(CLI), 'run npm run build first'));
	beforeEach(async () => {
		fx = createFixture();
		fx.write('src/alpha.ts', 'export function zebraCrossing() {\n\treturn 1;\n}\n');
		fx.write('docs/notes.md', 'A zebraCrossing in prose.\n');
		fx.write('notes/$(check)mark.md', '  zebra: $(zap) **bold** [link](https://example.com) <img src=x onerror=alert(1)>\u202e  \n');
		fx.write('many.txt', Array.from({ length: 5 }, (_, i) => `quokka ${i}`).join('\n'));
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-textmatches-home-'));
		hosts = [await startHost(fx.root, home)];
		hostile = undefined;
		service = new PickerService({ log: nullLogger, workspace: { resolve: async () => ({ kind: 'http', url: hosts[0].url, headers: { Authorization: `Bearer ${hosts[0].token}` } }) } });
		workspace = service.server(WORKSPACE_SERVER_ID)!;
		await service.loadAll();
		seen = [];
	});
	afterEach(async () => {
		matches?.dispose();
		service.dispose();
		await hostile?.close();
		await Promise.all(hosts.map(h => h.stop()));
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	function follow(options: { debounceMs?: number; max?: number } = {}): TextMatches {
		matches = new TextMatches(service, { log: nullLogger, debounceMs: 0, ...options });
		matches.onDidChange(() => seen.push(matches.state));
		return matches;
	}
	const answered = (query: string) => until(matches.onDidChange, () => matches.state.query === query && !matches.state.searching, `the answer for "${query}"`, 15_000);

	interface ReadRecord {
		uris: string[];
		signals: (AbortSignal | undefined)[];
		settled: Promise<unknown>[];
		/** Search reads answered (or failed) so far. */
		done: number;
		/** A search read was answered or failed. */
		onDidSettle: Emitter<void>['event'];
	}

	/** Counts search reads per server and keeps each one's signal. */
	function recordReads(server: ServerEntry): ReadRecord {
		const settle = new Emitter<void>();
		const record: ReadRecord = { uris: [], signals: [], settled: [], done: 0, onDidSettle: settle.event };
		const read = server.connection.read.bind(server.connection);
		server.connection.read = (uri: string, signal?: AbortSignal): Promise<ReadContent[]> => {
			const pending = read(uri, signal);
			if (uri.startsWith('search://')) {
				record.uris.push(uri);
				record.signals.push(signal);
				record.settled.push(pending.catch(() => undefined).finally(() => {
					record.done++;
					settle.fire();
				}));
			}
			return pending;
		};
		return record;
	}

	/** Waits until `n` search reads of `reads` were answered. */
	const readsDone = (reads: ReadRecord, n: number) => until(reads.onDidSettle, () => reads.done >= n, `${n} search reads answered`, 15_000);

	/** Makes the workspace server one that a 2025-only client reaches (the host answers both eras). */
	async function speak2025(): Promise<void> {
		// The host as a 2025-only client sees it: server/discover is not found, so the client falls back to initialize.
		const legacyOnly: typeof fetch = async (input, init) => {
			const body = typeof init?.body === 'string' ? JSON.parse(init.body) as { method?: string; id?: unknown } : undefined;
			if (body?.method === 'server/discover') {
				return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } }), { status: 404, headers: { 'content-type': 'application/json' } });
			}
			return fetch(input, init);
		};
		service.dispose();
		service = new PickerService({ log: nullLogger, workspace: { resolve: async () => ({ kind: 'http', url: hosts[0].url, headers: { Authorization: `Bearer ${hosts[0].token}` }, fetch: legacyOnly }) } });
		workspace = service.server(WORKSPACE_SERVER_ID)!;
		await service.loadAll();
		assert.equal(workspace.connection.era, 'legacy');
	}

	/** Writes `rel` whole in one step (a rename), so the host never reads it half written. */
	function replace(rel: string, content: string): void {
		const staged = path.join(fx.base, `staged-${path.basename(rel)}`);
		writeFileSync(staged, content);
		renameSync(staged, fx.file(rel));
	}

	const labels = () => matches.state.matches.map(m => m.label).sort();
	const searchesSubscribed = () => workspace.connection.subscribedUris.filter(u => u.startsWith('search://'));

	/**
	 * Follows the workspace's reads, types `query`, and waits until its rows show and the server
	 * holds the search live: the first read, and the one read again once the subscription was taken.
	 */
	async function showLive(query: string, options: { max?: number } = {}): Promise<ReadRecord> {
		const reads = recordReads(workspace);
		follow(options).setQuery(query);
		await answered(query);
		assert.equal(await workspace.connection.whenSubscribed(textSearchUri(query, options.max)), true, 'the server took the subscription');
		await readsDone(reads, 2);
		return reads;
	}

	/**
	 * Follows the workspace's reads, types "zebraCrossing", and types "prose" while its request is on
	 * its way; resolves once every request settled, with what was read.
	 */
	async function supersede(): Promise<ReturnType<typeof recordReads>> {
		const reads = recordReads(workspace);
		follow();
		const started = until(matches.onDidChange, () => reads.uris.length === 1, 'the first query sent');
		matches.setQuery('zebraCrossing');
		await started;
		// The next key, while the first request is on its way.
		matches.setQuery('prose');
		await answered('prose');
		await Promise.all(reads.settled);
		return reads;
	}

	it('lists each matched line as path:line with its trimmed text, and the row selects just that line', async () => {
		follow().setQuery('zebraCrossing');
		await answered('zebraCrossing');
		const state = matches.state;
		assert.deepEqual(state.matches.map(m => m.label).sort(), ['docs/notes.md:1', 'src/alpha.ts:1']);
		const alpha = state.matches.find(m => m.path === 'src/alpha.ts')!;
		assert.equal(alpha.detail, 'export function zebraCrossing() {');
		assert.equal(alpha.uri, `${fileUri(fx.file('src/alpha.ts'))}?lines=1`);
		assert.equal(alpha.serverId, WORKSPACE_SERVER_ID);
		assert.equal(textMatchesMessage(state), '2 matches in 2 files');
		assert.ok(seen.some(s => s.searching && textMatchesMessage(s) === 'Searching…'), 'it said it was searching first');

		service.selection.update([selectedLine(alpha)]);
		assert.deepEqual(service.selection.list().map(i => [i.resource.uri, i.resource.name]), [[alpha.uri, 'src/alpha.ts:1']]);
		const [entry] = await service.readForBundle([{ serverId: WORKSPACE_SERVER_ID, uri: alpha.uri }]);
		assert.equal(entry.error, undefined);
		assert.match(String(entry.contents?.[0].text), /^export function zebraCrossing\(\) \{\n?$/, 'the selection reads the line, not the file');
	});

	it('asks once per typing pause, for the last query', async () => {
		const reads = recordReads(workspace);
		follow({ debounceMs: 200 });
		for (const typed of ['ze', 'zeb', 'zebr', 'zebraCrossing']) {
			matches.setQuery(typed);
		}
		await answered('zebraCrossing');
		assert.deepEqual(reads.uris, ['search://text?q=zebraCrossing&max=100']);
		assert.ok(seen.every(s => s.query === 'zebraCrossing' || s.matches.length === 0), 'no answer for an earlier query was shown');
		matches.setQuery('z');
		assert.equal(matches.state.query, undefined, 'one character searches names only');
		assert.equal(textMatchesMessage(matches.state), undefined);
	});

	it('aborts the request of a query typed past, never shows its answer, and keeps the connection', async () => {
		const states: string[] = [];
		workspace.connection.onDidChangeState(state => states.push(state.kind));
		const reads = await supersede();
		assert.equal(reads.signals[0]?.aborted, true, 'the superseded request was aborted');
		assert.deepEqual(matches.state.matches.map(m => m.label), ['docs/notes.md:1']);
		assert.equal(textMatchesMessage(matches.state), '1 match in 1 file', 'the aborted request counts for nothing, not even as a partial answer');
		assert.ok(seen.every(s => s.query !== 'zebraCrossing' || s.matches.length === 0), 'the superseded answer never showed');
		assert.ok(seen.every(s => s.complete && (s.searching || s.matches.length > 0)), 'no state counted the aborted request, as partial or as answered');
		assert.deepEqual(states, [], 'an abort is no connection failure: no reconnect');
		matches.setQuery('return');
		await answered('return');
		assert.deepEqual(matches.state.matches.map(m => m.label), ['src/alpha.ts:2']);
	});

	it('works the same in the 2025 era: the lines, and an abort that drops no session', async () => {
		await speak2025();
		const states: string[] = [];
		workspace.connection.onDidChangeState(state => states.push(state.kind));
		const reads = await supersede();
		assert.equal(reads.signals[0]?.aborted, true);
		assert.equal(textMatchesMessage(matches.state), '1 match in 1 file');
		assert.deepEqual(matches.state.matches.map(m => m.label), ['docs/notes.md:1']);
		assert.deepEqual(states, [], 'the session stays');
	});

	for (const era of ['2026-07-28', '2025'] as const) {
		describe(`live, in the ${era} era`, () => {
			beforeEach(async () => {
				if (era === '2025') {
					await speak2025();
				} else {
					assert.equal(workspace.connection.era, 'modern');
				}
			});

			it('a line written after the rows show joins them, with its count, without typing', async () => {
				await showLive('zebraCrossing');
				assert.deepEqual(labels(), ['docs/notes.md:1', 'src/alpha.ts:1']);
				const before = seen.length;
				fx.write('src/beta.ts', 'const x = 1;\nconst zebraCrossing = 2;\n');
				await until(matches.onDidChange, () => labels().includes('src/beta.ts:2'), 'the new line among the rows', 15_000);
				assert.deepEqual(labels(), ['docs/notes.md:1', 'src/alpha.ts:1', 'src/beta.ts:2']);
				assert.equal(textMatchesMessage(matches.state), '3 matches in 3 files');
				assert.ok(seen.slice(before).every(s => !s.searching && s.query === 'zebraCrossing'), 'no "Searching…" between the rows and the new ones');
				// And a line that stops matching leaves.
				fx.write('docs/notes.md', 'A crossing in prose.\n');
				await until(matches.onDidChange, () => !labels().includes('docs/notes.md:1'), 'the line gone from the rows', 15_000);
				assert.equal(textMatchesMessage(matches.state), '2 matches in 2 files');
			});

			it('an update that brings the same lines fires no change, and the rows stay the same objects', async () => {
				const reads = await showLive('zebraCrossing');
				const rows = matches.state.matches;
				const before = seen.length;
				// The server's answer changes (the column and the untrimmed text), the lines shown do not.
				replace('docs/notes.md', '    A zebraCrossing in prose.\n');
				await readsDone(reads, 3);
				assert.equal(seen.length, before, 'no change fired');
				assert.equal(matches.state.matches, rows);
				// A change that is shown still comes through, and keeps the rows it shares.
				fx.write('src/beta.ts', 'zebraCrossing\n');
				await until(matches.onDidChange, () => labels().includes('src/beta.ts:1'), 'the new line among the rows', 15_000);
				assert.equal(seen.length, before + 1, 'one change for one new line');
				for (const row of rows) {
					assert.ok(matches.state.matches.includes(row), `${row.label} kept its object`);
				}
			});

			it('a new query, an emptied one, or closing releases the old search\'s subscription', async () => {
				await showLive('zebraCrossing');
				assert.deepEqual(searchesSubscribed(), [textSearchUri('zebraCrossing')]);
				for (const typed of ['prose', 'return', 'quokka']) {
					matches.setQuery(typed);
					assert.deepEqual(searchesSubscribed(), [], 'the old search went with its query');
					await answered(typed);
					assert.deepEqual(searchesSubscribed(), [textSearchUri(typed)], 'only the query shown is live');
				}
				matches.setQuery('');
				assert.deepEqual(searchesSubscribed(), [], 'an emptied query holds nothing');
				matches.setQuery('prose');
				await answered('prose');
				matches.dispose();
				assert.deepEqual(searchesSubscribed(), [], 'closing the QuickPick holds nothing');
				// The tree's filter: cleared, it holds nothing either.
				const model = new PickerViewModel(service, { textDebounceMs: 0 });
				try {
					model.setFilter('zebraCrossing');
					await until(model.onDidChange, () => model.textMessage === '2 matches in 2 files', 'the text matches counted');
					assert.deepEqual(searchesSubscribed(), [textSearchUri('zebraCrossing', FILTER_PAGE)]);
					model.setFilter(undefined);
					assert.deepEqual(searchesSubscribed(), []);
				} finally {
					model.dispose();
				}
			});
		});
	}

	it('shows the lines of every server that offers the template, in server order; a foreign server without it is never asked', async () => {
		const other = createFixture();
		try {
			other.write('lib/zebra.txt', 'zebraCrossing elsewhere\n');
			hosts.push(await startHost(other.root, home));
			hostile = await startHostileServer({ list: () => ({ resources: [{ uri: 'test://zebraCrossing', name: 'zebraCrossing' }] }) });
			service.setConfiguredServers([
				{ kind: 'http', name: 'Foreign', url: hostile.url, headers: {} },
				{ kind: 'http', name: 'Other', url: hosts[1].url, headers: { Authorization: `Bearer ${hosts[1].token}` } },
			]);
			await service.loadAll();
			follow().setQuery('zebraCrossing');
			await answered('zebraCrossing');
			const state = matches.state;
			assert.deepEqual(state.matches.map(m => m.serverId), [WORKSPACE_SERVER_ID, WORKSPACE_SERVER_ID, 'config:Other']);
			assert.equal(state.matches[2].label, 'lib/zebra.txt:1');
			assert.equal(state.servers, 2);
			assert.equal(hostile.calls.get('resources/read'), undefined, 'no search sent to the server without the template');
			assert.equal(textMatchesMessage(state), '3 matches in 3 files');
		} finally {
			other.dispose();
		}
	});

	it('shows a file\'s markdown, HTML and icon syntax as plain text, in its line and its path', async () => {
		follow().setQuery('zebra:');
		await answered('zebra:');
		const [hit] = matches.state.matches;
		assert.equal(hit.label, 'notes/\\$(check)mark.md:1');
		assert.equal(hit.detail, 'zebra: \\$(zap) **bold** [link](https://example.com) <img src=x onerror=alert(1)>');
	});

	it('keeps the well-formed lines of a foreign server\'s answer, one line each, and says why it is partial', async () => {
		hostile = await startHostileServer({
			templates: () => ({ resourceTemplates: [{ uriTemplate: SEARCH_TEXT_TEMPLATE, name: 'search' }] }),
			read: uri => ({
				contents: [{
					uri, mimeType: 'application/json', text: JSON.stringify({
						files: [
							{ uri: 'file:///x/a.md', path: 'a.md', matches: [{ line: 3, column: 1, text: 'one\nzebra\u2028two', uri: 'file:///x/a.md?lines=3' }, { line: 'x', text: 'bad', uri: 'u' }, { line: 0, text: 'bad', uri: 'u' }] },
							{ uri: 'file:///x/b.md', matches: [{ line: 1, text: 'no path', uri: 'file:///x/b.md?lines=1' }] },
							'junk',
						],
						complete: false, reason: 'Stopped at max=1 $(error) [x](y)',
					}),
				}],
			}),
		});
		service.setConfiguredServers([{ kind: 'http', name: 'Foreign', url: hostile.url, headers: {} }]);
		await service.loadAll();
		follow().setQuery('zebra');
		await answered('zebra');
		assert.equal(await service.server('config:Foreign')!.connection.whenSubscribed(textSearchUri('zebra')), false, 'the server takes no subscriptions');
		assert.equal(hostile.calls.get('resources/read'), 1, 'so it is searched once');
		const foreign = matches.state.matches.filter(m => m.serverId === 'config:Foreign');
		assert.deepEqual(foreign.map(m => [m.label, m.detail, m.uri]), [['a.md:3', 'one zebra two', 'file:///x/a.md?lines=3']]);
		assert.equal(matches.state.complete, false);
		assert.match(textMatchesMessage(matches.state)!, /^\d+ matches? in \d+ files? \(partial: Foreign: Stopped at max=1 \\\$\(error\) \[x\]\(y\)\)$/);
	});

	it('the filtered tree shows a server\'s matched lines under "Text matches", and the view\'s message counts them', async () => {
		const model = new PickerViewModel(service, { textDebounceMs: 0 });
		try {
			model.setVisible(true);
			const serverNode = model.children().find(n => n.kind === 'server' && n.serverId === WORKSPACE_SERVER_ID)!;
			const rows = (node?: ViewNode) => model.children(node).map(n => n.kind === 'resource' ? n.label : n.kind === 'line' ? n.match.label : n.kind === 'status' ? n.message : n.kind);
			model.setFilter('zebraCrossing');
			assert.equal(model.textMessage, 'Searching…');
			const group = () => model.children(serverNode).find(n => n.kind === 'textMatches')!;
			assert.deepEqual(rows(serverNode), ['No name matches', 'textMatches'], 'no name holds it; the group is there while searching');
			assert.deepEqual(rows(group()), ['Searching…']);
			await until(model.onDidChange, () => model.textMessage === '2 matches in 2 files', 'the text matches counted');
			assert.deepEqual(rows(group()).sort(), ['docs/notes.md:1', 'src/alpha.ts:1']);
			const line = model.children(group()).find(n => n.kind === 'line' && n.match.path === 'src/alpha.ts');
			assert.ok(line?.kind === 'line' && line.match.uri.endsWith('/src/alpha.ts?lines=1'));
			assert.equal(model.children(group())[0], model.children(group())[0], 'a line keeps its node across refreshes');
			// A name match and text matches together; then a query too short for contents; then none.
			model.setFilter('alpha');
			await until(model.onDidChange, () => model.textMessage !== undefined && !model.textMessage.startsWith('Searching'), 'the answer for "alpha"');
			assert.deepEqual(rows(serverNode), ['alpha.ts', 'textMatches']);
			assert.deepEqual(rows(group()), ['No text matches']);
			assert.equal(model.textMessage, '0 matches in 0 files');
			model.setFilter('a');
			assert.equal(model.children(serverNode).some(n => n.kind === 'textMatches'), false);
			assert.equal(model.textMessage, undefined);
			model.setFilter(undefined);
			assert.equal(model.textMessage, undefined);
		} finally {
			model.dispose();
		}
	});

	it('says the answer is partial when the server stopped at max', async () => {
		follow({ max: 2 }).setQuery('quokka');
		await answered('quokka');
		assert.equal(matches.state.matchCount, 2);
		assert.match(textMatchesMessage(matches.state)!, /^2 matches in 1 file \(partial: This workspace: Stopped at max=2 matching lines/);
	});
});
