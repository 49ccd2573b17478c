import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServerRunner, ServerState } from '../../../src/mcp/serverRunner';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { connectHttp, createTestServer, TestServer, windowRunner } from '../../helpers/harness';

describe('ServerRunner', () => {
	let fx: Fixture;
	let server: TestServer;
	let home: string;
	let runner: ServerRunner;
	let folders: string[];

	beforeEach(() => {
		fx = createFixture();
		server = createTestServer([fx.root]);
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-runner-'));
		folders = [fx.root];
		runner = windowRunner(server, () => folders, home);
	});

	afterEach(async () => {
		await runner.stop();
		runner.dispose();
		server.dispose();
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	const lockPath = () => path.join(home, 'servers', `${process.pid}.json`);

	it('writes the lock file on start, counts sessions, and removes it on stop', async () => {
		const states: ServerState['kind'][] = [];
		runner.onDidChangeState(s => states.push(s.kind));
		await runner.start();
		const info = await runner.whenRunning();
		const lock = JSON.parse(readFileSync(lockPath(), 'utf8'));
		assert.deepEqual({ url: lock.url, token: lock.token, pid: lock.pid, host: lock.host, workspaceFolders: lock.workspaceFolders },
			{ url: info.url, token: info.token, pid: process.pid, host: 'vscode', workspaceFolders: [fx.root] });
		assert.equal(lock.version, '0.1.0');
		const conn = await connectHttp(info.url, info.token);
		assert.equal(runner.state.kind === 'running' && runner.state.sessions, 1);
		assert.deepEqual(runner.clientNames(), ['test-http'], 'the name each client gave, so the editor can tell its own client apart');
		await conn.close();
		await runner.stop();
		assert.equal(existsSync(lockPath()), false);
		assert.deepEqual(states.filter((s, i) => states[i - 1] !== s), ['starting', 'running', 'stopped']);
	});

	it('restarts at the same address with the same token, and never reports a stop in between', async () => {
		await runner.start();
		const first = await runner.whenRunning();
		const states: ServerState['kind'][] = [];
		runner.onDidChangeState(s => states.push(s.kind));
		await runner.restart();
		assert.deepEqual(runner.connectionInfo, first);
		assert.ok(!states.includes('stopped'), states.join());
		assert.equal(JSON.parse(readFileSync(lockPath(), 'utf8')).token, first.token);
		const conn = await connectHttp(first.url, first.token);
		await conn.close();
	});

	it('rotates the token on request and rewrites the lock file; folder changes are reflected', async () => {
		await runner.start();
		const first = await runner.whenRunning();
		await runner.rotateToken();
		const second = runner.connectionInfo!;
		assert.notEqual(second.token, first.token);
		assert.equal(JSON.parse(readFileSync(lockPath(), 'utf8')).token, second.token);
		folders = [fx.root, fx.outside];
		await runner.refreshLockFile();
		assert.deepEqual(JSON.parse(readFileSync(lockPath(), 'utf8')).workspaceFolders, [fx.root, fx.outside]);
	});

	// The port comes from a settings file, which may hold anything: "abc" made Node listen on a
	// Unix socket named abc (the URL said port undefined), 70000 stopped the server with Node's
	// argument error.
	for (const port of ['abc', '8080x', 70000, -1, 1.5, true]) {
		it(`serves on a free port with a warning when the configured port is ${JSON.stringify(port)}`, async () => {
			const odd = new ServerRunner({ registry: server.registry, log: server.log, port: () => port, workspaceFolders: () => folders, hostKind: 'vscode', home });
			try {
				await odd.start();
				assert.equal(odd.state.kind, 'running', JSON.stringify(odd.state));
				const info = await odd.whenRunning();
				assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
				assert.ok(Number.isInteger(info.port) && info.port > 0, String(info.port));
				const conn = await connectHttp(info.url, info.token);
				await conn.close();
				assert.ok(server.log.warnings.some(w => w.includes(JSON.stringify(port)) && w.includes('mcpResources.port')), server.log.warnings.join('\n'));
			} finally {
				await odd.stop();
				odd.dispose();
			}
		});
	}
});
