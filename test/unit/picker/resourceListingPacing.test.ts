import * as assert from 'node:assert/strict';
import { toDisposable } from '../../../src/common/lifecycle';
import { fileUri } from '../../../src/core/uriGuard';
import { ServerConnection } from '../../../src/picker/serverConnection';
import { LIST_CHANGED_GAP_FACTOR, ResourceListing } from '../../../src/picker/resourceListing';
import { Fixture } from '../../helpers/fixtureWorkspace';
import { TestServer } from '../../helpers/harness';
import { ListedServer, startListedServer } from './pickerHelpers';
import { until } from '../../helpers/until';

/** What each page request costs on the listing's clock (driven by hand, never the wall clock). */
const PAGE_MS = 100;

// A branch switch sends list_changed for many seconds; a picker that reloaded back to back would
// list a large workspace over and over in the extension host the server shares.
describe('picker: reloads for list_changed are paced by the last reload\'s length', () => {
	let fx: Fixture;
	let server: TestServer;
	let listed: ListedServer;
	let connection: ServerConnection;
	let resources: ResourceListing;
	let clock: number;
	let pages: number;
	let listChanged: number;
	let held: Promise<void> | undefined;
	let deferred: { fn: () => void; ms: number; cancelled: boolean }[];

	beforeEach(async () => {
		listed = await startListedServer();
		({ fx, server, connection } = listed);
		clock = 1000;
		pages = 0;
		listChanged = 0;
		held = undefined;
		deferred = [];
		const listPage = connection.listPage.bind(connection);
		connection.listPage = async cursor => {
			pages++;
			clock += PAGE_MS;
			await held;
			return listPage(cursor);
		};
		connection.onDidChangeList(() => listChanged++);
		resources = new ResourceListing(connection, {
			now: () => clock,
			defer: (fn, ms) => {
				const entry = { fn, ms, cancelled: false };
				deferred.push(entry);
				return toDisposable(() => { entry.cancelled = true; });
			},
		});
		await resources.load();
		await connection.connect();
	});

	afterEach(async () => {
		resources.dispose();
		await listed.dispose();
	});

	const createFile = (name: string) => {
		const file = fx.write(`many/${name}`, 'new\n');
		server.watcher.fire({ kind: 'created', path: file });
		return file;
	};
	const complete = () => resources.state.kind === 'complete';

	it('waits twice the last reload\'s length after it ended, then reloads once and shows the change', async () => {
		const loadMs = pages * PAGE_MS;
		const pagesAfterLoad = pages;
		const added = createFile('paced.txt');
		await until(connection.onDidChangeList, () => listChanged >= 1, 'list_changed');
		assert.equal(pages, pagesAfterLoad, 'no listing right after the last one ended');
		assert.deepEqual(deferred.map(d => d.ms), [LIST_CHANGED_GAP_FACTOR * loadMs]);

		clock += deferred[0].ms;
		deferred[0].fn();
		await until(resources.onDidChange, () => resources.resource(fileUri(added)) !== undefined && complete(), 'the new file in the tree');
		assert.equal(pages, 2 * pagesAfterLoad, 'one reload');
		assert.equal(deferred.length, 1, 'nothing more waits');
	});

	it('a list_changed during a reload starts no second listing until the gap after it has passed', async () => {
		let release!: () => void;
		held = new Promise(resolve => { release = resolve; });
		const pagesBefore = pages;
		const reloaded = resources.requestReload(); // an explicit reload (Refresh) is not paced
		assert.equal(pages, pagesBefore + 1, 'Refresh lists at once');
		const added = createFile('during.txt');
		await until(connection.onDidChangeList, () => listChanged >= 1, 'list_changed');
		assert.equal(deferred.length, 0, 'nothing scheduled while the reload runs');
		held = undefined;
		release();
		await reloaded;
		const reloadMs = (pages - pagesBefore) * PAGE_MS;
		assert.ok(complete());
		assert.deepEqual(deferred.map(d => d.ms), [LIST_CHANGED_GAP_FACTOR * reloadMs], 'the follow-up waits for the gap');
		const pagesAfterReload = pages;

		clock += deferred[0].ms;
		deferred[0].fn();
		await until(resources.onDidChange, () => pages > pagesAfterReload && complete() && resources.resource(fileUri(added)) !== undefined, 'the follow-up reload');
	});

	it('an explicit reload while a paced one waits makes the waiting one unnecessary', async () => {
		createFile('explicit.txt');
		await until(connection.onDidChangeList, () => listChanged >= 1, 'list_changed');
		assert.equal(deferred.length, 1);
		await resources.requestReload();
		const pagesAfterRefresh = pages;
		clock += deferred[0].ms;
		deferred[0].fn();
		assert.equal(pages, pagesAfterRefresh, 'the Refresh already saw the change');
		assert.ok(complete());
	});

	// A hidden picker that listed once would otherwise list a large workspace again on every
	// list_changed of a branch switch, beside the server, for a view nobody looks at.
	it('while deferred (nothing shows the listing) list_changed lists nothing; resuming reloads once, paced, and shows the change', async () => {
		const loadMs = pages * PAGE_MS;
		const pagesAfterLoad = pages;
		resources.setDeferred(true);
		const added = createFile('hidden.txt');
		await until(connection.onDidChangeList, () => listChanged >= 1, 'list_changed');
		assert.equal(pages, pagesAfterLoad, 'no listing');
		assert.equal(deferred.length, 0, 'no reload scheduled');

		resources.setDeferred(false);
		assert.deepEqual(deferred.map(d => d.ms), [LIST_CHANGED_GAP_FACTOR * loadMs], 'the catch-up reload is paced as any other');
		clock += deferred[0].ms;
		deferred[0].fn();
		await until(resources.onDidChange, () => resources.resource(fileUri(added)) !== undefined && complete(), 'the new file in the tree');
		assert.equal(pages, 2 * pagesAfterLoad, 'one reload');
	});

	it('load() while deferred lists a changed listing again at once, so whoever asks (a QuickPick) gets the current list', async () => {
		const pagesAfterLoad = pages;
		resources.setDeferred(true);
		await resources.load();
		assert.equal(pages, pagesAfterLoad, 'an unchanged listing is not listed again');
		const added = createFile('asked.txt');
		await until(connection.onDidChangeList, () => listChanged >= 1, 'list_changed');
		await resources.load();
		assert.ok(resources.resource(fileUri(added)), 'the new file in the tree');
		assert.ok(complete());
		assert.equal(pages, 2 * pagesAfterLoad, 'one reload');
		assert.equal(deferred.length, 0, 'nothing paced');
	});
});
