import * as assert from 'node:assert/strict';
import { fileUri } from '../../../src/core/uriGuard';
import { ServerConnection } from '../../../src/picker/serverConnection';
import { FolderNode, groupOf } from '../../../src/picker/pickerNodes';
import { ResourceListing } from '../../../src/picker/resourceListing';
import { filePathOf } from '../../../src/picker/resourceTree';
import { Fixture } from '../../helpers/fixtureWorkspace';
import { TestServer } from '../../helpers/harness';
import { ListedServer, rowLabels as labels, startListedServer } from './pickerHelpers';
import { until } from '../../helpers/until';

describe('picker: resource listing over a real server', () => {
	let fx: Fixture;
	let server: TestServer;
	let listed: ListedServer;
	let connection: ServerConnection;
	let resources: ResourceListing;
	let pages: number;

	beforeEach(async () => {
		listed = await startListedServer();
		({ fx, server, connection } = listed);
		pages = 0;
		const listPage = connection.listPage.bind(connection);
		connection.listPage = cursor => {
			pages++;
			return listPage(cursor);
		};
		resources = new ResourceListing(connection);
	});

	afterEach(async () => {
		resources.dispose();
		await listed.dispose();
	});

	it('loads page by page, following nextCursor, and builds the folder tree from names', async () => {
		let changes = 0;
		resources.onDidChange(() => changes++);
		await resources.load();
		const total = resources.size;
		assert.ok(total >= 30, `listed ${total}`);
		assert.equal(pages, Math.ceil(total / 7), 'one request per page of 7');
		assert.ok(changes >= pages, 'the tree heard of every page');
		assert.equal(resources.state.kind, 'complete');

		const root = resources.filesRoot;
		assert.equal(root.count, total);
		const top = labels(resources.children(root));
		assert.deepEqual(top.filter(l => l.endsWith('/')), [...top.filter(l => l.endsWith('/'))].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())), 'folders sorted');
		assert.ok(top.includes('many/') && top.includes('src/') && top.includes('README.md'), top.join(','));
		assert.ok(top.indexOf('src/') < top.indexOf('README.md'), 'folders before files');

		const src = resources.children(root).find(n => n.kind === 'folder' && n.name === 'src') as FolderNode;
		const deep = resources.children(src).find(n => n.kind === 'folder' && n.name === 'deep') as FolderNode;
		const er = resources.children(deep)[0] as FolderNode;
		const x = resources.children(er)[0];
		assert.equal(x.kind, 'resource');
		assert.equal(x.kind === 'resource' && x.resource.uri, fileUri(fx.file('src/deep/er/x.ts')));
		assert.equal(x.kind === 'resource' && x.path, 'src/deep/er/x.ts');
		assert.ok(x.kind === 'resource' && x.resource.size === 2 && x.resource.mimeType === 'text/x-typescript');
	});

	it('reloads on list_changed and keeps the old tree until the new one is complete', async () => {
		await resources.load();
		const before = resources.size;
		await connection.connect();
		const added = fx.write('many/new-file.txt', 'new\n');
		server.watcher.fire({ kind: 'created', path: added });
		await until(resources.onDidChange, () => resources.resource(fileUri(added)) !== undefined && resources.state.kind === 'complete', 'the new file in the tree');
		assert.equal(resources.size, before + 1);
		assert.equal(resources.folder('t|d|many')!.count, 26);
	});

	it('searches what it has loaded', async () => {
		await resources.load();
		const { matches, total } = resources.search('f1', 5);
		assert.ok(total >= 10);
		assert.equal(matches.length, 5);
		assert.ok(matches.every(m => m.path.startsWith('many/f1')), matches.map(m => m.path).join(','));
	});
});

describe('picker: resource tree helpers', () => {
	it('groups by URI scheme', () => {
		assert.equal(groupOf('file:///a'), 'files');
		assert.equal(groupOf('diagnostics://workspace'), 'problems');
		assert.equal(groupOf('git://repo/status'), 'git');
		assert.equal(groupOf('editor://active'), 'editor');
		assert.equal(groupOf('test://static/1'), 'other');
	});

	it('takes the path from a relative name, else from the URI', () => {
		assert.equal(filePathOf({ uri: 'file:///ws/a/b.ts', name: 'a/b.ts' }), 'a/b.ts');
		assert.equal(filePathOf({ uri: 'file:///ws/a%20b/c.ts', name: '/ws/a b/c.ts' }), 'ws/a b/c.ts');
		assert.equal(filePathOf({ uri: 'file:///x/y.md', name: 'file:///x/y.md' }), 'x/y.md');
	});
});
