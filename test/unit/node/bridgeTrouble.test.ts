import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { ListResourcesResult } from '@modelcontextprotocol/sdk/types.js';
import { readLockFiles } from '../../../src/client/lockFileDiscovery';
import { connectBridgeV1 } from '../../helpers/bridgeClient';
import { errorOf, listAll } from '../../helpers/harness';
import { CLI, cliEnv, exited, hostsPerTest, startHost } from '../../helpers/headlessHost';
import { lockContent as lock, lockFileAdvert } from '../../helpers/standInWindow';
import { startHostileServer } from '../picker/hostileServer';

/** `dist/cli.js bridge --workspace DIR` with lock files in `home`, with nothing on stdin, until it exits. */
function runBridge(workspace: string, home: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
	const child = spawn(process.execPath, [CLI, 'bridge', '--workspace', workspace], { env: cliEnv(home) });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', d => (stdout += d));
	child.stderr.on('data', d => (stderr += d));
	return new Promise(resolve => child.on('close', code => resolve({ code, stdout, stderr })));
}

/**
 * What a client of the bridge gets when there is no window, when the window a lock file names is
 * gone (its pid another process's) or answers with something that is not MCP: one clear line and
 * an exit, or an error answer, and the server that does run when there is one.
 */
describe('bridge: no window, or one that is gone or not MCP', function () {
	this.timeout(60_000);
	const t = hostsPerTest();

	it('exits 1 with a clear message on stderr, and nothing on stdout, when no window serves the folder', async () => {
		const { code, stdout, stderr } = await runBridge(t.fx.root, t.home);
		assert.equal(code, 1);
		assert.equal(stdout, '');
		assert.match(stderr, /no running VS Code window or headless server has .* open/);
		assert.match(stderr, /serve --root/);
		assert.equal(stderr.trim().split('\n').length, 1, 'one line, no stack trace');
	});

	it('with no window, suggests a command that, pasted into a shell as written, serves a folder whose name has spaces and quotes', async () => {
		const folder = path.join(t.fx.root, "it's a ünïcode folder");
		mkdirSync(folder);
		const { code, stderr } = await runBridge(folder, t.home);
		assert.equal(code, 1);
		const suggested = /or run: (.*)\. Lock files are read from/.exec(stderr)?.[1];
		assert.ok(suggested, stderr);
		const shell = spawn('sh', ['-c', `exec ${suggested}`], { env: cliEnv(t.home) });
		try {
			const first = await new Promise<string>(resolve => createInterface({ input: shell.stdout }).once('line', resolve));
			assert.match(first, /^\{"url":"http:\/\/127\.0\.0\.1:\d+\/mcp","token":"[0-9a-f]{64}"\}$/);
			const locks = await readLockFiles(t.home);
			assert.deepEqual(locks.map(l => l.workspaceFolders), [[folder]]);
		} finally {
			shell.kill('SIGTERM');
			await exited(shell);
		}
	});

	it('exits 1 with one line naming the window when the window its lock file names answers with something that is not MCP', async () => {
		// e.g. a window that crashed, its pid now another process's and its port another program's
		const junk = http.createServer((req, res) => {
			let body = '';
			req.on('data', d => (body += d));
			req.on('end', () => {
				const id = (JSON.parse(body || '{}') as { id?: unknown }).id ?? null;
				res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: 'not an object' }));
			});
		});
		await new Promise<void>(resolve => junk.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(junk.address() as AddressInfo).port}/mcp`;
		const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
		try {
			mkdirSync(path.join(t.home, 'servers'), { recursive: true, mode: 0o700 });
			writeFileSync(path.join(t.home, 'servers', `${sleeper.pid}.json`), JSON.stringify(lock([t.fx.root], { pid: sleeper.pid, url })), { mode: 0o600 });
			const { code, stdout, stderr } = await runBridge(t.fx.root, t.home);
			assert.equal(code, 1);
			assert.equal(stdout, '');
			const lines = stderr.trim().split('\n');
			assert.equal(lines.at(-1), `mcp-workspace-resources bridge: the VS Code window (pid ${sleeper.pid}) at ${url} for ${t.fx.root} does not answer: ` +
				'Version negotiation probe failed: the reply is not valid MCP');
			assert.deepEqual(lines.filter(l => !l.startsWith('bridge: ') && !l.startsWith('mcp-workspace-resources bridge: ')), [], 'no dump of the reply, no stack');
		} finally {
			sleeper.kill('SIGKILL');
			await new Promise<void>(resolve => junk.close(() => resolve()));
		}
	});

	it('says on stderr why it stopped when its client sends a line past the SDK\'s 10 MiB cap', async () => {
		t.hosts.push(await startHost(t.fx.root, t.home));
		const child = spawn(process.execPath, [CLI, 'bridge', '--workspace', t.fx.root], { env: cliEnv(t.home) });
		let stderr = '';
		child.stderr.on('data', d => (stderr += d));
		// The bridge stops reading in the middle of the line: the rest of the write fails with EPIPE.
		child.stdin.on('error', () => undefined);
		const exit = exited(child);
		const answers = createInterface({ input: child.stdout });
		const initialized = new Promise(resolve => answers.once('line', resolve));
		child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
		await initialized;
		child.stdin.write(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(11 * 1024 * 1024)}"}}\n`);
		await exit;
		assert.match(stderr, /\[warn\] client side: A line exceeded the maximum size of 10485760 bytes/, 'a client whose server went away can tell why');
	});

	it('passes over a lock file that would win but where nothing listens (a crashed window whose pid is reused) for the server that runs', async () => {
		t.hosts.push(await startHost(t.fx.root, t.home));
		const closed = http.createServer();
		await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve));
		const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/mcp`;
		await new Promise<void>(resolve => closed.close(() => resolve()));
		// A live process of this user holds the crashed window's pid; its lock file is the newest, and a window's.
		const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
		try {
			writeFileSync(path.join(t.home, 'servers', `${sleeper.pid}.json`),
				JSON.stringify(lock([t.fx.root], { pid: sleeper.pid, url: closedUrl, startedAt: '2999-01-01T00:00:00Z' })), { mode: 0o600 });
			const conn = await connectBridgeV1(t.fx.root, t.home);
			try {
				assert.ok((await listAll(conn.client)).some(r => r.name === 'README.md'));
				assert.match(conn.stderr(), new RegExp(`relaying to headless server \\(pid ${t.hosts[0].child.pid}\\)`));
				assert.match(conn.stderr(), new RegExp(`passed over the lock file of process ${sleeper.pid}: nothing listens at ${closedUrl}`));
			} finally {
				await conn.close();
			}
		} finally {
			sleeper.kill('SIGKILL');
		}
	});

	it('tells the client the window sent an unusable answer, once, instead of calling it unreachable and asking again', async () => {
		const hostile = await startHostileServer({ list: () => ({ resources: 'not a list' }) as unknown as ListResourcesResult });
		const advert = lockFileAdvert(hostile.url, 'any');
		try {
			await advert.advertise(t.home, [t.fx.root]);
			const conn = await connectBridgeV1(t.fx.root, t.home);
			try {
				const error = await errorOf(conn.client.listResources());
				assert.equal(error.code, -32603);
				assert.match(error.message, new RegExp(`The window serving ${t.fx.root} sent an unusable answer: Invalid result for resources/list: the reply is not valid MCP$`));
				assert.equal(hostile.calls.get('resources/list'), 1, 'an answer is not asked for again');
			} finally {
				await conn.close();
			}
		} finally {
			await advert.withdraw();
			await hostile.close();
		}
	});
});
