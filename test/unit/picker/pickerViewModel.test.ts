// The picker's view model in plain Node: the rows the sidebar shows, read through the picker's
// real MCP client from a real server over loopback HTTP. Only the editor is missing.
import * as assert from 'node:assert/strict';
import { nullLogger } from '../../../src/common/logger';
import { fileUri } from '../../../src/core/uriGuard';
import { HttpHost } from '../../../src/mcp/http/httpHost';
import { FolderNode, GroupNode, MoreNode, ViewNode } from '../../../src/picker/pickerNodes';
import { PickerService, ServerEntry, WORKSPACE_SERVER_ID } from '../../../src/picker/pickerService';
import { PickerViewModel, RowsChange } from '../../../src/picker/pickerViewModel';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, TestServer } from '../../helpers/harness';
import { rowLabels as labels, writeTreeFiles } from './pickerHelpers';
import { until } from '../../helpers/until';

describe('picker: view model over a real server', () => {
	let fx: Fixture;
	let server: TestServer;
	let host: HttpHost;
	let service: PickerService;
	let model: PickerViewModel;
	let workspace: ServerEntry;
	let pages: number;
	let changes: RowsChange[];

	beforeEach(async () => {
		fx = createFixture();
		writeTreeFiles(fx);
		for (let i = 0; i < 60; i++) {
			fx.write(`lots/item-${String(i).padStart(2, '0')}.txt`, `item ${i}\n`);
		}
		server = createTestServer([fx.root]);
		host = new HttpHost({ registry: server.registry, log: server.log, pageSize: 7 });
		const info = await host.start();
		service = new PickerService({ log: nullLogger, workspace: { resolve: async () => ({ kind: 'http', url: info.url, headers: { Authorization: `Bearer ${info.token}` } }) } });
		workspace = service.server(WORKSPACE_SERVER_ID)!;
		pages = 0;
		const listPage = workspace.connection.listPage.bind(workspace.connection);
		workspace.connection.listPage = cursor => {
			pages++;
			return listPage(cursor);
		};
		model = new PickerViewModel(service, { childPage: 10 });
		changes = [];
		model.onDidChange(change => changes.push(change));
	});

	afterEach(async () => {
		model.dispose();
		service.dispose();
		await host.stop();
		host.dispose();
		server.dispose();
		fx.dispose();
	});

	const serverNode = () => model.children().find(n => n.kind === 'server' && n.serverId === WORKSPACE_SERVER_ID)!;
	const filesGroup = () => model.children(serverNode()).find((n): n is GroupNode => n.kind === 'group' && n.group === 'files')!;

	it('starts listing when the view shows, not when rows are asked for, and lists each server once', async () => {
		assert.deepEqual(model.children(serverNode()).map(n => n.kind === 'status' ? n.message : n.kind), ['Connecting…']);
		assert.equal(workspace.resources.state.kind, 'idle', 'asking for rows lists nothing');
		model.setVisible(true);
		assert.equal(workspace.resources.state.kind, 'loading');
		await workspace.resources.load();
		const listed = pages;
		assert.equal(listed, Math.ceil(workspace.resources.size / 7), 'one request per page of 7');
		model.redrawing();
		model.setVisible(false);
		model.setVisible(true);
		model.children(serverNode());
		await workspace.resources.load();
		assert.equal(pages, listed, 'redraws and showing the view again list nothing more');
	});

	it('lists no hidden server, and one shown again at the next redraw', async () => {
		model.setHidden([WORKSPACE_SERVER_ID]);
		assert.deepEqual(changes, ['data']);
		assert.deepEqual(model.children(), [], 'a hidden server has no row');
		model.setVisible(true);
		assert.equal(workspace.resources.state.kind, 'idle');
		model.setHidden([]);
		assert.equal(workspace.resources.state.kind, 'idle', 'listing waits for the redraw');
		model.redrawing();
		assert.equal(workspace.resources.state.kind, 'loading');
		await workspace.resources.load();
		assert.equal(model.children(serverNode()).some(n => n.kind === 'group' && n.group === 'files'), true);
	});

	it('caps the children of a folder and shows more on request', async () => {
		await workspace.resources.load();
		changes.length = 0;
		const many = workspace.resources.folder('workspace|d|many')!;
		assert.equal(many.count, 25);
		let kids = model.children(many);
		assert.deepEqual(labels(kids), [...Array.from({ length: 10 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`), 'more(15)']);
		const more = kids[10];
		assert.ok(more.kind === 'more');
		assert.equal(more.list, 'children');
		model.showMore(more);
		assert.equal(changes.at(-1), 'paging');
		kids = model.children(many);
		assert.equal(kids.length, 21);
		assert.equal(labels(kids)[20], 'more(5)');
	});

	it('shows the first page before the rest have arrived', async () => {
		let firstPageRoot: string[] | undefined;
		workspace.resources.onDidChange(() => {
			if (!firstPageRoot && workspace.resources.state.kind === 'loading' && workspace.resources.size > 0) {
				firstPageRoot = labels(model.children(workspace.resources.filesRoot));
			}
		});
		await workspace.resources.load();
		assert.ok(firstPageRoot, 'the tree had children while loading');
		assert.equal(firstPageRoot.at(-1), 'status', 'with a loading line at the end');
		assert.ok(firstPageRoot.length - 1 <= 7, 'from one page only');
		assert.ok(!labels(model.children(workspace.resources.filesRoot)).includes('status'), 'no loading line once complete');
	});

	it('filters each server to 50 matches at a time, with a "More matches…" row, and back', async () => {
		await workspace.resources.load();
		changes.length = 0;
		const rows = () => model.children(serverNode());
		model.setFilter('  item-  ');
		assert.equal(model.filter, 'item-', 'the query is trimmed');
		assert.deepEqual(changes, ['filter']);
		assert.equal(rows().filter(n => n.kind === 'resource').length, 50);
		const more = rows().find((n): n is MoreNode => n.kind === 'more');
		assert.equal(more?.list, 'matches');
		assert.equal(more.remaining, 10);
		model.showMore(more);
		assert.equal(rows().filter(n => n.kind === 'resource').length, 60);
		assert.ok(!rows().some(n => n.kind === 'more'), 'every match shown');

		model.setFilter('item-');
		assert.deepEqual(changes, ['filter', 'paging'], 'the same query changes nothing');
		model.setFilter('deep/er/x.ts');
		assert.equal(labels(rows())[0], 'x.ts', 'best first');
		assert.ok(!rows().some(n => n.kind === 'more'));
		model.setFilter('item-');
		assert.equal(rows().filter(n => n.kind === 'resource').length, 50, 'a new query starts at one page');
		model.setFilter('no-such-name-anywhere');
		assert.deepEqual(rows().map(n => n.kind === 'status' ? n.message : n.kind), ['No matches']);
		model.setFilter('   ');
		assert.equal(model.filter, undefined);
		assert.ok(rows().length > 0 && rows().every(n => n.kind === 'group'), 'the groups again');
	});

	it('keeps each row\'s node (and key) across refreshes, every key unique', async () => {
		model.setVisible(true);
		await workspace.resources.load();
		const walk = (nodes: ViewNode[]): ViewNode[] => nodes.flatMap(n => [n, ...(n.kind === 'server' || n.kind === 'group' || n.kind === 'folder' ? walk(model.children(n)) : [])]);
		const before = walk(model.children());
		service.selection.update([{ serverId: WORKSPACE_SERVER_ID, resource: workspace.resources.resource(fileUri(fx.file('README.md')))!.resource }]);
		assert.equal(changes.at(-1), 'data', 'the selection changed the rows');
		const after = walk(model.children());
		assert.equal(after.length, before.length);
		after.forEach((node, i) => {
			assert.equal(node.key, before[i].key);
			if (node.kind !== 'more' && node.kind !== 'status') {
				assert.equal(node, before[i], `the same node for ${node.key}`);
			}
		});
		assert.equal(new Set(after.map(n => n.key)).size, after.length, 'keys are unique');
	});

	it('follows the server live: a new file shows after list_changed, in its folder and in the count', async () => {
		model.setVisible(true);
		await workspace.resources.load();
		await workspace.connection.connect();
		const many = () => model.children(filesGroup()).find((n): n is FolderNode => n.kind === 'folder' && n.name === 'many')!;
		assert.equal(many().count, 25);
		const added = fx.write('many/new-file.txt', 'new\n');
		server.watcher.fire({ kind: 'created', path: added });
		await until(model.onDidChange, () => workspace.resources.state.kind === 'complete' && many().count === 26, 'the new file in many/');
		assert.equal(labels(model.children(many())).at(-1), 'more(16)');
		model.setFilter('new-file');
		assert.deepEqual(labels(model.children(serverNode())), ['new-file.txt']);
	});

	it('lists nothing for list_changed while the view is hidden; showing it again, or a QuickPick opening, lists once', async () => {
		let listChanged = 0;
		workspace.connection.onDidChangeList(() => listChanged++);
		model.setVisible(true);
		await workspace.resources.load();
		await workspace.connection.connect();
		const many = () => model.children(filesGroup()).find((n): n is FolderNode => n.kind === 'folder' && n.name === 'many')!;
		const hiddenChange = async (name: string) => {
			const seen = listChanged;
			const pagesBefore = pages;
			server.watcher.fire({ kind: 'created', path: fx.write(`many/${name}`, 'new\n') });
			await until(workspace.connection.onDidChangeList, () => listChanged > seen, 'list_changed');
			assert.equal(pages, pagesBefore, 'no listing while nothing shows the tree');
		};

		assert.equal(service.deferReloads, false, 'the view is on screen');
		model.setVisible(false);
		assert.equal(service.deferReloads, true, 'nothing shows the listings');
		await hiddenChange('while-hidden.txt');
		model.setVisible(true);
		assert.equal(service.deferReloads, false);
		await until(model.onDidChange, () => workspace.resources.state.kind === 'complete' && many().count === 26, 'the file added while hidden');

		model.setVisible(false);
		await hiddenChange('before-quickpick.txt');
		const quickPick = service.showing();
		assert.equal(service.deferReloads, false, 'the QuickPick shows them');
		await until(model.onDidChange, () => workspace.resources.state.kind === 'complete' && many().count === 27, 'the file added before the QuickPick opened');
		quickPick.dispose();
		quickPick.dispose();
		assert.equal(service.deferReloads, true, 'closed (disposing twice counts once)');
	});
});
