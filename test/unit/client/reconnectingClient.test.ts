import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Emitter } from '../../../src/common/event';
import { fileUri } from '../../../src/core/uriGuard';
import { ServerRunner } from '../../../src/mcp/serverRunner';
import { ConnectionSource, ConnectionTarget } from '../../../src/client/connectionSource';
import { ReconnectingClient } from '../../../src/client/reconnectingClient';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, RecordingLogger, TestServer, windowRunner } from '../../helpers/harness';
import { LegacyWindow, startLegacyWindow } from '../../helpers/legacyWindow';
import { ModernWindow, startModernWindow } from '../../helpers/modernWindow';
import { until } from '../../helpers/until';

const RESOURCES = new Map([
	['test://a', 'alpha'], ['test://b', 'beta'], ['test://c', 'gamma'], ['test://d', 'delta'], ['test://e', 'epsilon'],
]);

/** A source that follows whichever window is current, like the bridge's lock files (no change event). */
class MovableSource implements ConnectionSource {
	resolves = 0;
	constructor(public target: ConnectionTarget) {}
	async resolve(): Promise<ConnectionTarget> {
		this.resolves++;
		return this.target;
	}
}

const legacyTarget = (w: LegacyWindow): ConnectionTarget => ({ kind: 'http', url: w.url, headers: { Authorization: `Bearer ${w.token}` } });
const httpTarget = (w: ModernWindow): ConnectionTarget => ({ kind: 'http', url: w.url, headers: { Authorization: `Bearer ${w.token}` } });

/** Collects `updated` URIs and list_changed counts from a client. */
function record(client: ReconnectingClient) {
	const updates: string[] = [];
	let listChanged = 0;
	client.onDidUpdateResource(uri => updates.push(uri));
	client.onDidChangeList(() => listChanged++);
	const events = new Emitter<void>();
	client.onDidUpdateResource(() => events.fire());
	client.onDidChangeList(() => events.fire());
	return { updates, listChanged: () => listChanged, onEvent: events.event };
}

describe('client layer: 2026-07-28 server (SDK v2 createMcpHandler)', () => {
	let window: ModernWindow;
	let client: ReconnectingClient;
	let source: MovableSource;
	let log: RecordingLogger;

	beforeEach(async () => {
		window = await startModernWindow({ resources: RESOURCES, refused: ['test://e'] });
		source = new MovableSource(httpTarget(window));
		log = new RecordingLogger();
		client = new ReconnectingClient(source, { log, label: 'modern', logPrefix: 'test', clientName: 'test', backoffMs: [20, 50] });
	});
	afterEach(async () => {
		client.dispose();
		await window.close();
	});

	it('negotiates the 2026-07-28 era, with the bearer token on every request', async () => {
		await client.connect();
		assert.equal(client.era, 'modern');
		assert.equal(client.connected?.getDiscoverResult() !== undefined, true, 'server/discover answered');
		assert.deepEqual(window.methods.slice(0, 1), ['server/discover']);
		assert.ok(!window.methods.includes('initialize'));
	});

	it('fetches with the target\'s own fetch when it names one (the picker\'s own server: Node\'s, not the editor\'s)', async () => {
		const urls: string[] = [];
		source.target = { kind: 'http', url: window.url, headers: { Authorization: `Bearer ${window.token}` }, fetch: (url, init) => { urls.push(String(url)); return fetch(url, init); } };
		await client.connect();
		await client.listPage();
		assert.ok(urls.length >= 2, `discover and the page went through it (${urls.length})`);
		assert.ok(urls.every(url => url === window.url));
	});

	it('sends one request per page: the first page without walking the rest', async () => {
		const first = await client.listPage();
		assert.deepEqual(first.resources.map(r => r.uri), ['test://a', 'test://b']);
		assert.equal(first.nextCursor, '2');
		assert.equal(window.methods.filter(m => m === 'resources/list').length, 1, 'one request for the first page');
		const second = await client.listPage(first.nextCursor);
		assert.deepEqual(second.resources.map(r => r.uri), ['test://c', 'test://d']);
		assert.equal(window.methods.filter(m => m === 'resources/list').length, 2);
	});

	it('listens: honours what the server acknowledges, hears updates and list changes, and leaves out what it refuses', async () => {
		await client.connect();
		const events = record(client);
		const a = client.watch('test://a');
		const refused = client.watch('test://e');
		assert.deepEqual(await client.whenWatched('test://a'), { honoured: true });
		assert.deepEqual(await client.whenWatched('test://e'), { honoured: false });
		window.updated('test://a');
		window.updated('test://e');
		window.listChanged();
		await until(events.onEvent, () => events.updates.includes('test://a') && events.listChanged() > 0, 'update and list_changed');
		assert.ok(!events.updates.includes('test://e'), 'a refused URI is never notified');
		a.dispose();
		refused.dispose();
	});

	it('changes the filter by listening again with the new set', async () => {
		await client.connect();
		const events = record(client);
		const a = client.watch('test://a');
		await client.whenWatched('test://a');
		const b = client.watch('test://b');
		await client.whenWatched('test://b');
		assert.deepEqual(window.listens.at(-1)?.sort(), ['test://a', 'test://b']);
		a.dispose();
		await client.whenListening();
		assert.deepEqual(window.listens.at(-1), ['test://b']);
		window.updated('test://a');
		window.updated('test://b');
		await until(events.onEvent, () => events.updates.includes('test://b'), 'update for b');
		assert.ok(!events.updates.includes('test://a'), 'a released URI is not delivered');
		const listensBefore = window.methods.filter(m => m === 'subscriptions/listen').length;
		b.dispose();
		await client.whenListening();
		assert.equal(window.methods.filter(m => m === 'subscriptions/listen').length, listensBefore + 1, 'listened again for list changes alone');
		assert.deepEqual(window.listens.at(-1), ['test://b'], 'no URIs asked for since');
	});

	it('hears an update the server sent on the old listen stream just before the new one existed', async () => {
		await client.connect();
		const events = record(client);
		const a = client.watch('test://a');
		await client.whenWatched('test://a');
		// The server announces a change to a when the request for the new stream (a and b) arrives,
		// before that stream exists: only the old stream carries it, and it must not be closed unread.
		window.onListen = uris => {
			if (uris.includes('test://b')) {
				window.onListen = undefined;
				window.updated('test://a');
			}
		};
		const b = client.watch('test://b');
		await client.whenWatched('test://b');
		await until(events.onEvent, () => events.updates.includes('test://a'), 'the update sent on the old stream');
		a.dispose();
		b.dispose();
	});

	it('coalesces many watch changes at once into few listen requests', async () => {
		await client.connect();
		const handles = [...RESOURCES.keys()].map(uri => client.watch(uri));
		await Promise.all([...RESOURCES.keys()].map(uri => client.whenWatched(uri)));
		assert.ok(window.listens.length <= 3, `listened ${window.listens.length} times for 5 URIs added at once`);
		handles.forEach(h => h.dispose());
	});

	it('reconnects after the server restarts on a new port with a new token, and listens again for what it watched', async () => {
		await client.connect();
		const events = record(client);
		let connects = 0;
		client.onDidConnect(() => connects++);
		const watch = client.watch('test://c');
		assert.equal((await client.whenWatched('test://c')).honoured, true);
		await window.close();
		window = await startModernWindow({ resources: RESOURCES });
		source.target = httpTarget(window);
		await until(client.onDidConnect, () => connects > 0, 'connected to the new server', 10_000);
		assert.deepEqual(await client.whenWatched('test://c'), { honoured: true });
		assert.deepEqual(window.listens, [['test://c']], 'listened on the new server for what it watched');
		window.updated('test://c');
		await until(events.onEvent, () => events.updates.includes('test://c'), 'update from the new server');
		watch.dispose();
	});
});

describe('client layer: this project\'s server (both eras: the layer picks 2026-07-28)', () => {
	let fx: Fixture;
	let server: TestServer;
	let runner: ServerRunner;
	let home: string;
	let client: ReconnectingClient;
	let source: MovableSource;

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-layer-'));
		runner = windowRunner(server, () => [fx.root], home);
		await runner.start();
		const target = (): ConnectionTarget => ({ kind: 'http', url: runner.connectionInfo!.url, headers: { Authorization: `Bearer ${runner.connectionInfo!.token}` } });
		source = new MovableSource(target());
		source.resolve = async () => target();
		client = new ReconnectingClient(source, { log: new RecordingLogger(), label: 'legacy', logPrefix: 'test', clientName: 'test', backoffMs: [20, 50] });
	});
	afterEach(async () => {
		client.dispose();
		await runner.stop();
		runner.dispose();
		server.dispose();
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	it('negotiates 2026-07-28 with it and lists one page', async () => {
		await client.connect();
		assert.equal(client.era, 'modern');
		const page = await client.listPage();
		assert.ok(page.resources.some(r => r.uri === fileUri(fx.file('README.md'))));
	});

	it('listens: the server\'s acknowledgement decides, and updates arrive for what it honoured', async () => {
		await client.connect();
		const events = record(client);
		const readme = fileUri(fx.file('README.md'));
		const secret = fileUri(fx.file('.env'));
		const a = client.watch(readme);
		const b = client.watch(secret);
		assert.deepEqual(await client.whenWatched(readme), { honoured: true });
		assert.deepEqual(await client.whenWatched(secret), { honoured: false }, 'a secret is left out of the acknowledgement');
		fx.write('.env', 'TOKEN=changed\n');
		server.watcher.fire({ kind: 'changed', path: fx.file('.env') });
		fx.write('README.md', '# changed\n');
		server.watcher.fire({ kind: 'changed', path: fx.file('README.md') });
		await until(events.onEvent, () => events.updates.includes(readme), 'updated README');
		assert.ok(!events.updates.includes(secret));
		a.dispose();
		b.dispose();
	});

	it('reconnects after the server restarts with a new token and listens again', async () => {
		await client.connect();
		const events = record(client);
		let connects = 0;
		client.onDidConnect(() => connects++);
		const readme = fileUri(fx.file('README.md'));
		const watch = client.watch(readme);
		await client.whenWatched(readme);
		const before = runner.connectionInfo!;
		await runner.rotateToken();
		assert.notEqual(runner.connectionInfo!.token, before.token);
		await until(client.onDidConnect, () => connects > 0, 'reconnected', 10_000);
		assert.deepEqual(await client.whenWatched(readme), { honoured: true });
		fx.write('README.md', '# after the restart\n');
		server.watcher.fire({ kind: 'changed', path: fx.file('README.md') });
		await until(events.onEvent, () => events.updates.includes(readme), 'updated README after the restart');
		watch.dispose();
	});
});

describe('client layer: a 2025-only server (SDK v1)', () => {
	let window: LegacyWindow;
	let client: ReconnectingClient;
	let source: MovableSource;

	beforeEach(async () => {
		window = await startLegacyWindow({ resources: RESOURCES, refused: ['test://e'] });
		source = new MovableSource(legacyTarget(window));
		client = new ReconnectingClient(source, { log: new RecordingLogger(), label: 'legacy', logPrefix: 'test', clientName: 'test', backoffMs: [20, 50] });
	});
	afterEach(async () => {
		client.dispose();
		await window.close();
	});

	it('falls back to the 2025 handshake, and sends one request per page', async () => {
		await client.connect();
		assert.equal(client.era, 'legacy');
		assert.equal(client.connected?.getDiscoverResult(), undefined);
		assert.deepEqual(window.methods.slice(0, 2), ['server/discover', 'initialize'], 'asked for 2026-07-28 first');
		const first = await client.listPage();
		assert.deepEqual(first.resources.map(r => r.uri), ['test://a', 'test://b']);
		assert.equal(window.methods.filter(m => m === 'resources/list').length, 1, 'one request for the first page');
		await client.listPage(first.nextCursor);
		assert.equal(window.methods.filter(m => m === 'resources/list').length, 2);
	});

	it('subscribes: the server\'s answer decides, and updates arrive for what it accepted', async () => {
		await client.connect();
		const events = record(client);
		const a = client.watch('test://a');
		const e = client.watch('test://e');
		assert.deepEqual(await client.whenWatched('test://a'), { honoured: true });
		const refused = await client.whenWatched('test://e');
		assert.equal(refused.honoured, false);
		assert.deepEqual((refused.error as { data?: unknown }).data, { uri: 'test://e' }, 'the server\'s refusal is kept');
		window.updated('test://a');
		window.listChanged();
		await until(events.onEvent, () => events.updates.includes('test://a') && events.listChanged() > 0, 'update and list_changed');
		a.dispose();
		e.dispose();
	});

	it('runs 60 requests at once without a MaxListenersExceededWarning (the 2025 HTTP client shares one abort signal)', async () => {
		const warnings: string[] = [];
		const onWarning = (warning: Error) => warnings.push(warning.name);
		process.on('warning', onWarning);
		try {
			await client.connect();
			const uri = 'test://a';
			const reads = await Promise.all(Array.from({ length: 60 }, () => client.request(c => c.readResource({ uri }, { cacheMode: 'bypass' }))));
			assert.equal(reads.length, 60);
			await new Promise(resolve => setImmediate(resolve)); // warnings are emitted on the next tick
			assert.deepEqual(warnings.filter(name => name === 'MaxListenersExceededWarning'), []);
		} finally {
			process.off('warning', onWarning);
		}
	});

	it('reconnects after the server restarts on a new port with a new token, and subscribes again', async () => {
		await client.connect();
		const events = record(client);
		let connects = 0;
		client.onDidConnect(() => connects++);
		const watch = client.watch('test://c');
		await client.whenWatched('test://c');
		await window.close();
		window = await startLegacyWindow({ resources: RESOURCES });
		source.target = legacyTarget(window);
		await until(client.onDidConnect, () => connects > 0, 'reconnected', 10_000);
		assert.deepEqual(await client.whenWatched('test://c'), { honoured: true });
		assert.ok(window.subscribed.has('test://c'), 'subscribed on the new server');
		window.updated('test://c');
		await until(events.onEvent, () => events.updates.includes('test://c'), 'update from the new server');
		watch.dispose();
	});
});
