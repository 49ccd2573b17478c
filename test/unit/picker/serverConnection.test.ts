import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nullLogger } from '../../../src/common/logger';
import { fileUri } from '../../../src/core/uriGuard';
import { ServerRunner } from '../../../src/mcp/serverRunner';
import { PickerService, WORKSPACE_SERVER_ID } from '../../../src/picker/pickerService';
import { ServerConnection } from '../../../src/picker/serverConnection';
import { countTokens, estimateTokensFromSize } from '../../../src/picker/tokenCount';
import { RunnerSource } from '../../../src/picker/workspaceSource';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { createTestServer, RecordingLogger, TestServer, windowRunner } from '../../helpers/harness';
import { startModernWindow } from '../../helpers/modernWindow';
import { until } from '../../helpers/until';

describe('picker: connection to this window\'s server', () => {
	let fx: Fixture;
	let server: TestServer;
	let runner: ServerRunner;
	let home: string;
	let source: RunnerSource;
	let service: PickerService;
	let log: RecordingLogger;

	beforeEach(async () => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-picker-'));
		runner = windowRunner(server, () => [fx.root], home);
		source = new RunnerSource(runner);
		log = new RecordingLogger();
		service = new PickerService({ log, workspace: source, backoffMs: [20, 50] });
	});

	afterEach(async () => {
		service.dispose();
		source.dispose();
		await runner.stop();
		runner.dispose();
		server.dispose();
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	const workspace = () => service.server(WORKSPACE_SERVER_ID)!;

	it('waits while the server is stopped, then connects with its token once it runs', async () => {
		await workspace().connection.connect().catch(() => undefined);
		assert.equal(workspace().connection.state.kind, 'unavailable');
		await runner.start();
		await until(service.onDidChange, () => workspace().connection.state.kind === 'connected', 'connected after start');
		await workspace().resources.load();
		assert.ok(workspace().resources.resource(fileUri(fx.file('README.md'))), 'lists the workspace');
	});

	it('does not connect when the server starts until something asks (a view never shown costs the start-up nothing), then connects on the first request', async () => {
		await runner.start();
		// The source fires its change synchronously with the start; a reconnect would log at once.
		assert.ok(!log.infos.some(line => line.startsWith('picker: reconnecting to This workspace')), log.infos.join('\n'));
		assert.equal(workspace().connection.state.kind, 'idle');
		await workspace().resources.load();
		assert.equal(workspace().connection.state.kind, 'connected');
		assert.ok(workspace().resources.resource(fileUri(fx.file('README.md'))), 'lists the workspace');
	});

	const restarts: { name: string; restart: () => Promise<void>; sameToken: boolean }[] = [
		{ name: 'a restart at the same address and token', restart: () => runner.restart(), sameToken: true },
		{ name: 'Rotate Token, with the new token', restart: () => runner.rotateToken(), sameToken: false },
	];
	for (const { name, restart, sameToken } of restarts) {
		it(`reconnects after ${name}, and reloads the tree`, async () => {
			await runner.start();
			await workspace().resources.load();
			const first = runner.connectionInfo!;
			await restart();
			assert.equal(runner.connectionInfo!.token === first.token, sameToken);
			const added = fx.write('after-restart.txt', 'x\n');
			server.watcher.fire({ kind: 'created', path: added });
			await until(service.onDidChange, () => workspace().connection.state.kind === 'connected' && workspace().resources.resource(fileUri(added)) !== undefined,
				'the tree reloaded through a new session');
			const text = await workspace().connection.read(fileUri(fx.file('README.md')));
			assert.equal(text[0].text, '# Fixture\n');
		});
	}

	it('logs each connection, and a server whose listing fails, so the log says what the tree shows', async () => {
		await runner.start();
		await workspace().resources.load();
		assert.ok(log.infos.includes('picker: connected to This workspace'), log.infos.join('\n'));
		service.setConfiguredServers([{ kind: 'http', name: 'Wrong token', url: runner.connectionInfo!.url, headers: { Authorization: 'Bearer nope' } }]);
		const configured = service.server('config:Wrong token')!;
		await configured.resources.load();
		assert.equal(configured.resources.state.kind, 'error');
		assert.ok(log.warnings.some(w => /^picker: listing Wrong token failed: .*unauthorized/i.test(w)), log.warnings.join('\n'));
	});

	it('keeps the selection current: selected resources are subscribed and marked when they change', async () => {
		await runner.start();
		await workspace().resources.load();
		const uri = fileUri(fx.file('src/index.ts'));
		const node = workspace().resources.resource(uri)!;
		service.selection.update([{ serverId: WORKSPACE_SERVER_ID, resource: node.resource }]);
		assert.equal(service.selection.estimatedTokens, estimateTokensFromSize(node.resource.size), 'estimated from the size until read');
		assert.ok(workspace().connection.subscribedUris.includes(uri), 'subscribed on selection');
		await service.whenCounted();
		assert.equal(service.selection.get(WORKSPACE_SERVER_ID, uri)?.tokens, countTokens('export const answer = 42;\n'), 'counted once read');
		await workspace().connection.whenSubscribed(uri);
		fx.write('src/index.ts', 'export const answer = 43; // longer now, so the count differs\n');
		server.watcher.fire({ kind: 'changed', path: fx.file('src/index.ts') });
		await until(service.onDidChange, () => service.selection.get(WORKSPACE_SERVER_ID, uri)?.changedAt !== undefined, 'the selected resource marked changed');
		await until(service.onDidChange, () => service.selection.get(WORKSPACE_SERVER_ID, uri)?.tokens === countTokens('export const answer = 43; // longer now, so the count differs\n'), 'counted again after the change');
		service.selection.clear();
		assert.deepEqual(workspace().connection.subscribedUris, []);
	});
});

describe('picker: a 2026-07-28 server (SDK v2)', () => {
	it('lists page by page, reads, and keeps the selection live through listen', async () => {
		const uris = ['test://one', 'test://two', 'test://three'];
		const window = await startModernWindow({ resources: new Map(uris.map(u => [u, `text of ${u}`])), pageSize: 2 });
		const service = new PickerService({ log: new RecordingLogger(), backoffMs: [20, 50] });
		try {
			service.setConfiguredServers([{ kind: 'http', name: 'Modern', url: window.url, headers: { Authorization: `Bearer ${window.token}` } }]);
			const modern = service.server('config:Modern')!;
			await modern.resources.load();
			assert.equal(modern.connection.era, 'modern');
			assert.ok(uris.every(u => modern.resources.resource(u)), 'every page is listed');
			assert.equal(window.methods.filter(m => m === 'resources/list').length, 2, 'one request per page of two');
			assert.equal((await modern.connection.read('test://two'))[0].text, 'text of test://two');

			const node = modern.resources.resource('test://one')!;
			service.selection.update([{ serverId: modern.id, resource: node.resource }]);
			await modern.connection.whenSubscribed('test://one');
			assert.deepEqual(window.listens.at(-1), ['test://one'], 'listening for the selection');
			window.updated('test://one');
			await until(service.onDidChange, () => service.selection.get(modern.id, 'test://one')?.changedAt !== undefined, 'the selected resource marked changed');
		} finally {
			service.dispose();
			await window.close();
		}
	});
});

describe('picker: connection errors', () => {
	it('reports a refused connection as an error and retries with backoff', async () => {
		let attempts = 0;
		const connection = new ServerConnection('x', 'Nowhere', {
			resolve: async () => {
				attempts++;
				return { kind: 'http', url: 'http://127.0.0.1:9/mcp', headers: {} };
			},
		}, { log: nullLogger, backoffMs: [10] });
		try {
			await assert.rejects(connection.connect());
			assert.equal(connection.state.kind, 'error');
			await until(connection.onDidChangeState, () => attempts >= 3, 'retries');
		} finally {
			connection.dispose();
		}
	});

	it('reports a wrong token as unauthorized', async () => {
		const fx = createFixture();
		const server = createTestServer([fx.root]);
		const home = mkdtempSync(path.join(os.tmpdir(), 'mwr-picker-'));
		const runner = windowRunner(server, () => [fx.root], home);
		await runner.start();
		const connection = new ServerConnection('x', 'Bad token', {
			resolve: async () => ({ kind: 'http', url: runner.connectionInfo!.url, headers: { Authorization: 'Bearer nope' } }),
		}, { log: nullLogger, backoffMs: [60_000] });
		try {
			await assert.rejects(connection.connect());
			assert.ok(connection.state.kind === 'error' && /unauthorized/i.test(connection.state.message), JSON.stringify(connection.state));
		} finally {
			connection.dispose();
			await runner.stop();
			runner.dispose();
			server.dispose();
			fx.dispose();
			rmSync(home, { recursive: true, force: true });
		}
	});
});
