// The view model's status rows and held servers: what a server that fails, stops early or is
// not reachable shows, from a real (scripted) server over loopback HTTP.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { nullLogger } from '../../../src/common/logger';
import { FolderServer } from '../../../src/picker/folderServers';
import { GroupNode, ViewNode } from '../../../src/picker/pickerNodes';
import { PickerService } from '../../../src/picker/pickerService';
import { PickerViewModel } from '../../../src/picker/pickerViewModel';
import { SourceUnavailable } from '../../../src/client/connectionSource';
import { HostileBehaviour, HostileServer, someResources, startHostileServer } from './hostileServer';
import { until } from '../../helpers/until';

const SERVER_ID = 'config:Scripted';
const rows = (nodes: ViewNode[]) => nodes.map(n =>
	n.kind === 'status' ? `${n.status}: ${n.message}` : n.kind === 'resource' ? n.label : n.kind === 'group' ? `group ${n.group}` : n.kind);

describe('picker: view model status rows', () => {
	let hostile: HostileServer | undefined;
	let service: PickerService;
	let model: PickerViewModel;

	afterEach(async () => {
		model?.dispose();
		service?.dispose();
		await hostile?.close();
		hostile = undefined;
	});

	/** A picker with one configured server at `url`, its view shown. */
	function showServerAt(url: string): void {
		service = new PickerService({ log: nullLogger, backoffMs: [60_000] });
		model = new PickerViewModel(service);
		service.setConfiguredServers([{ kind: 'http', name: 'Scripted', url, headers: {} }]);
		model.setVisible(true);
	}

	async function showScripted(behaviour: HostileBehaviour): Promise<void> {
		hostile = await startHostileServer(behaviour);
		showServerAt(hostile.url);
	}

	const serverRows = () => rows(model.children(model.children().find(n => n.kind === 'server')!));

	it('shows a failed listing as a row to retry, and lists again at the next redraw', async () => {
		let failing = true;
		await showScripted({
			list: () => {
				if (failing) {
					throw new Error('the index is rebuilding');
				}
				return { resources: someResources('r', 0, 3) };
			},
		});
		const listing = service.server(SERVER_ID)!.resources;
		await until(model.onDidChange, () => listing.state.kind === 'error', 'the listing to fail');
		assert.equal(serverRows().length, 1);
		assert.match(serverRows()[0], /^error: .*the index is rebuilding — click to retry$/);
		failing = false;
		model.redrawing();
		await listing.load();
		assert.deepEqual(serverRows(), ['group files', 'group other']);
		model.redrawing();
		await listing.load();
		assert.equal(hostile!.calls.get('resources/list'), 2, 'a complete listing is not asked for again');
	});

	it('says why a list stopped early, under the groups and under filter matches', async () => {
		await showScripted({
			list: cursor => cursor === undefined ? { resources: someResources('e', 0, 3), nextCursor: 'c1' } : { resources: [], nextCursor: `c${Math.random()}` },
		});
		const listing = service.server(SERVER_ID)!.resources;
		await listing.load();
		const notice = serverRows().at(-1) ?? '';
		assert.match(notice, /^notice: .*empty page that promised more/);
		assert.deepEqual(serverRows(), ['group files', 'group other', notice]);
		model.setFilter('e');
		assert.deepEqual(serverRows().slice(-1), [notice]);
		assert.equal(serverRows().filter(r => r.startsWith('e')).length, 3);
		model.setFilter('nothing-like-it');
		assert.deepEqual(serverRows(), ['empty: No matches', notice]);
	});

	it('lists templates with a row saying why their list stopped early, each template keeping its node', async () => {
		let page = 0;
		await showScripted({
			list: () => ({ resources: someResources('r', 0, 2) }),
			templates: () => ({ resourceTemplates: [{ uriTemplate: `test://t/${page++}/{id}`, name: `t${page}` }], nextCursor: 'again' }),
		});
		const listing = service.server(SERVER_ID)!.resources;
		await listing.load();
		const templatesGroup = () => model.children(model.children()[0]).find((n): n is GroupNode => n.kind === 'group' && n.group === 'templates')!;
		const templates = model.children(templatesGroup());
		assert.deepEqual(templates.map(n => n.kind), ['template', 'template', 'status']);
		assert.match(rows(templates)[2], /^notice: .*same page cursor twice/);
		const again = model.children(templatesGroup());
		assert.equal(again[0], templates[0], 'the same template node');
	});

	it('shows an unreachable server as an error to retry, and an unavailable one as a reason', async () => {
		const closed = http.createServer();
		await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise<void>(resolve => closed.close(() => resolve()));
		showServerAt(`http://127.0.0.1:${port}/mcp`);
		await until(model.onDidChange, () => service.server(SERVER_ID)!.connection.state.kind === 'error', 'the connection to fail');
		assert.match(serverRows()[0], /^error: .* — click to retry$/);
		model.dispose();
		service.dispose();

		service = new PickerService({ log: nullLogger, workspace: { resolve: async () => { throw new SourceUnavailable('This window\'s server is stopped.'); } } });
		model = new PickerViewModel(service);
		model.setVisible(true);
		await until(model.onDidChange, () => service.servers()[0].connection.state.kind === 'unavailable', 'the source to say unavailable');
		assert.deepEqual(serverRows(), ['info: This window\'s server is stopped.']);
	});

	it('shows held folder servers after the servers, a node per entry until its consent changes', () => {
		service = new PickerService({ log: nullLogger });
		model = new PickerViewModel(service);
		const held: FolderServer = { config: { kind: 'http', name: 'Folder docs', url: 'http://127.0.0.1:9/mcp', headers: {} }, folderId: 'f', folderLabel: 'the folder', key: 'k1', consent: undefined };
		service.setConfiguredServers([], [held]);
		const [row] = model.children();
		assert.ok(row.kind === 'held');
		assert.equal(row.key, 'held|k1');
		assert.equal(row.held, held);
		assert.deepEqual(model.children(row), []);
		assert.equal(model.children()[0], row, 'the same node while the entry is the same');
		service.setConfiguredServers([], [{ ...held, consent: 'declined' }]);
		const [declined] = model.children();
		assert.ok(declined.kind === 'held' && declined.held.consent === 'declined');
		assert.equal(declined.key, row.key);
	});
});
