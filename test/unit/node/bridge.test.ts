import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { Logger } from '../../../src/common/logger';
import { fileUri } from '../../../src/core/uriGuard';
import { LockFileContent } from '../../../src/mcp/lockFile';
import { pickLockFile } from '../../../src/client/lockFileDiscovery';
import { SERVER_ICONS } from '../../../src/mcp/server/icons';
import { RateLimitedLogger } from '../../../src/node/bridge/terminalLog';
import { CLI, cliEnv, exited, hostsPerTest, startHost, touchUntil } from '../../helpers/headlessHost';
import { connectBridgeV1 } from '../../helpers/bridgeClient';
import { createFixture } from '../../helpers/fixtureWorkspace';
import { connectHttp, errorOf, listAll } from '../../helpers/harness';
import { lockContent as lock } from '../../helpers/standInWindow';

describe('bridge: choosing the window', () => {
	const base = realpathSync(os.tmpdir());
	const a = path.join(base, 'mwr-a');
	const ab = path.join(a, 'b');

	it('picks the deepest workspace folder that contains the directory', () => {
		const outer = lock([a], { pid: 1 });
		const inner = lock(['/elsewhere', ab], { pid: 2 });
		assert.equal(pickLockFile([outer, inner], path.join(ab, 'c'))?.pid, 2);
		assert.equal(pickLockFile([outer, inner], path.join(a, 'x'))?.pid, 1);
		assert.equal(pickLockFile([outer, inner], ab)?.pid, 2);
	});

	it('does not treat a sibling with the same prefix as inside', () => {
		assert.equal(pickLockFile([lock([ab])], `${ab}c`), undefined);
		assert.equal(pickLockFile([lock([ab])], a), undefined, 'a parent of the folder is not inside it');
	});

	it('prefers a VS Code window over a headless host on a tie, then the newest (the order given)', () => {
		const headless = lock([a], { pid: 1, host: 'headless' });
		const older = lock([a], { pid: 2 });
		const newer = lock([a], { pid: 3 });
		assert.equal(pickLockFile([headless, newer, older], a)?.pid, 3);
		assert.equal(pickLockFile([headless], a)?.pid, 1);
	});

	it('ignores malformed lock content', () => {
		assert.equal(pickLockFile([{ ...lock([a]), workspaceFolders: undefined as unknown as string[] }], a), undefined);
	});
});

describe('bridge: rate-limited logging', () => {
	it('lets a burst through, drops the rest, and says how many it dropped', () => {
		const lines: string[] = [];
		const sink: Logger = { debug: m => lines.push(m), info: m => lines.push(m), warn: m => lines.push(m), error: m => lines.push(m) };
		let now = 0;
		const log = new RateLimitedLogger(sink, 3, 1000, () => now);
		for (let i = 0; i < 10; i++) {
			log.warn(`w${i}`);
		}
		assert.deepEqual(lines, ['w0', 'w1', 'w2']);
		now = 1000;
		log.info('later');
		assert.deepEqual(lines.slice(3), ['7 log line(s) dropped to keep the terminal readable', 'later']);
	});
});

describe('bridge (dist/cli.js bridge)', function () {
	this.timeout(60_000);
	const t = hostsPerTest();

	it('exits 2 with usage on a bad option', async () => {
		const child = spawn(process.execPath, [CLI, 'bridge', '--nope'], { env: cliEnv(t.home) });
		let stderr = '';
		child.stderr.on('data', d => (stderr += d));
		assert.equal(await exited(child), 2);
		assert.match(stderr, /Usage:/);
	});

	it('relays list, read, templates, completion, errors and subscriptions to the window that contains the folder', async () => {
		t.hosts.push(await startHost(t.fx.root, t.home));
		const other = mkdtempSync(path.join(os.tmpdir(), 'mwr-bridge-other-'));
		try {
			t.hosts.push(await startHost(other, t.home));
			const conn = await connectBridgeV1(t.fx.file('src'), t.home);
			try {
				const names = (await listAll(conn.client)).map(r => r.name);
				assert.ok(names.includes('README.md') && names.includes('src/index.ts'), names.join(', '));
				assert.ok(!names.includes('.env'));
				const read = await conn.client.readResource({ uri: fileUri(t.fx.file('README.md')) });
				assert.equal((read.contents[0] as { text: string }).text, '# Fixture\n');
				const { resourceTemplates } = await conn.client.listResourceTemplates();
				// Templates come in the registry's order: search's, git's, symbols', then files' (the headless host's order).
				assert.deepEqual(resourceTemplates.map(t => t.uriTemplate), ['search://text{?q,regex,case,word,glob,max}', 'search://files{?q,max}', 'git://{repo}/diff/{+path}', 'git://{repo}/show/{ref}', 'symbols://workspace{?q,kind,max}', 'outline://file/{+path}', 'file:///{+path}{?lines}', 'file:///{+path}{?symbol}', 'file:///{+path}{?view}', 'file:///{+path}']);
				assert.deepEqual(conn.client.getServerCapabilities()?.resources, { subscribe: true, listChanged: true });
				assert.ok(conn.client.getInstructions()?.includes('resources/list'));
				assert.deepEqual(conn.client.getServerVersion()?.icons, [...SERVER_ICONS], 'the bridge shows the same icon as the window');
				const completion = await conn.client.complete({ ref: { type: 'ref/resource', uri: 'file:///{+path}' }, argument: { name: 'path', value: 'READ' } });
				assert.ok(Array.isArray(completion.completion.values));
				await conn.client.ping();

				const refused = await errorOf(conn.client.readResource({ uri: fileUri(t.fx.file('.env')) }));
				const direct = await connectHttp(t.hosts[0].url, t.hosts[0].token);
				const refusedDirectly = await errorOf(direct.client.readResource({ uri: fileUri(t.fx.file('.env')) })).finally(() => direct.close());
				assert.deepEqual(refused, refusedDirectly, 'the error reaches the client exactly as the window sent it');
				assert.equal(refused.code, -32602);
				assert.deepEqual(refused.data, { uri: fileUri(t.fx.file('.env')) });

				const readme = fileUri(t.fx.file('README.md'));
				await conn.client.subscribeResource({ uri: readme });
				await touchUntil(t.fx, 'README.md', conn.until(() => conn.updates.includes(readme), `updated ${readme}`));
				const before = conn.listChanged();
				writeFileSync(t.fx.file('src/created.ts'), 'x');
				await conn.until(() => conn.listChanged() > before, 'list_changed');
				assert.match(conn.stderr(), new RegExp(`relaying to headless server \\(pid ${t.hosts[0].child.pid}\\)`));
				assert.ok(!conn.stderr().includes(t.hosts[0].token), 'the token never reaches the log');
			} finally {
				await conn.close();
			}
		} finally {
			rmSync(other, { recursive: true, force: true });
		}
	});

	it('relays to the real window, never to one named by a lock file it cannot trust, and does not crash on a malformed one', async () => {
		t.hosts.push(await startHost(t.fx.root, t.home));
		// A decoy server: any request reaching it would carry a token meant for someone else.
		let decoyRequests = 0;
		const decoy = http.createServer((_req, res) => {
			decoyRequests++;
			res.writeHead(500).end();
		});
		await new Promise<void>(resolve => decoy.listen(0, '127.0.0.1', resolve));
		const decoyUrl = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}/mcp`;
		// Live processes of this user, so their lock files are not dropped as stale.
		const sleepers = Array.from({ length: 3 }, () => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' }));
		try {
			// Each decoy would win if believed: a VS Code window on the folder beats a headless host, the newest first.
			const decoyLock = (pid: number, extra: Partial<Record<keyof LockFileContent, unknown>> = {}) =>
				({ ...lock([t.fx.root], { pid, url: decoyUrl, startedAt: '2999-01-01T00:00:00Z' }), ...extra });
			const files = {
				worldWritable: path.join(t.home, 'servers', `${sleepers[0].pid}.json`),
				badStartedAt: path.join(t.home, 'servers', `${sleepers[1].pid}.json`),
				remote: path.join(t.home, 'servers', `${sleepers[2].pid}.json`),
			};
			writeFileSync(files.worldWritable, JSON.stringify(decoyLock(sleepers[0].pid!)));
			chmodSync(files.worldWritable, 0o666);
			writeFileSync(files.badStartedAt, JSON.stringify(decoyLock(sleepers[1].pid!, { startedAt: 12345 })), { mode: 0o600 });
			writeFileSync(files.remote, JSON.stringify(decoyLock(sleepers[2].pid!, { url: 'http://192.0.2.1:9/mcp' })), { mode: 0o600 });

			const conn = await connectBridgeV1(t.fx.root, t.home);
			try {
				assert.ok((await listAll(conn.client)).some(r => r.name === 'README.md'));
				const stderr = conn.stderr();
				assert.match(stderr, new RegExp(`relaying to headless server \\(pid ${t.hosts[0].child.pid}\\)`));
				assert.equal(decoyRequests, 0, 'nothing was sent to the decoy');
				for (const [file, reason] of [
					[files.worldWritable, 'writable by group or others \\(mode 0666\\)'],
					[files.badStartedAt, 'malformed \\(startedAt: '],
					[files.remote, 'url is not on this machine \\(192\\.0\\.2\\.1\\)'],
				]) {
					const lines = stderr.split('\n').filter(l => l.includes(`skipped lock file ${file}: `));
					assert.equal(lines.length, 1, `one message for ${file}:\n${stderr}`);
					assert.match(lines[0], new RegExp(reason));
				}
			} finally {
				await conn.close();
			}
		} finally {
			sleepers.forEach(s => s.kill('SIGKILL'));
			await new Promise<void>(resolve => decoy.close(() => resolve()));
		}
	});

	it('serves 60 concurrent requests without a MaxListenersExceededWarning flood', async () => {
		t.hosts.push(await startHost(t.fx.root, t.home));
		const conn = await connectBridgeV1(t.fx.root, t.home);
		try {
			const uri = fileUri(t.fx.file('src/index.ts'));
			const reads = await Promise.all(Array.from({ length: 60 }, () => conn.client.readResource({ uri })));
			assert.equal(reads.length, 60);
			assert.doesNotMatch(conn.stderr(), /MaxListenersExceededWarning|\[error\]/);
		} finally {
			await conn.close();
		}
	});

	it('follows the window across a restart: reconnects, subscribes again, and tells the client the list changed', async () => {
		const first = await startHost(t.fx.root, t.home);
		t.hosts.push(first);
		const conn = await connectBridgeV1(t.fx.root, t.home);
		try {
			const readme = fileUri(t.fx.file('README.md'));
			await conn.client.subscribeResource({ uri: readme });
			const changedBefore = conn.listChanged();
			await first.stop();
			const second = await startHost(t.fx.root, t.home);
			t.hosts.push(second);
			await conn.until(() => conn.listChanged() > changedBefore, 'list_changed after the restart');
			assert.match(conn.stderr(), new RegExp(`reconnected to headless server \\(pid ${second.child.pid}\\)`));
			assert.ok((await listAll(conn.client)).some(r => r.name === 'README.md'));

			// The subscription was carried over to the new window.
			conn.updates.length = 0;
			await touchUntil(t.fx, 'README.md', conn.until(() => conn.updates.includes(readme), `updated ${readme} after the restart`));
		} finally {
			await conn.close();
		}
	});

	it('answers a request made while the window is away once it is back', async () => {
		const first = await startHost(t.fx.root, t.home);
		t.hosts.push(first);
		const conn = await connectBridgeV1(t.fx.root, t.home);
		try {
			await first.stop();
			const pending = listAll(conn.client);
			mkdirSync(path.join(t.home, 'servers'), { recursive: true });
			t.hosts.push(await startHost(t.fx.root, t.home));
			assert.ok((await pending).some(r => r.name === 'README.md'));
		} finally {
			await conn.close();
		}
	});
});

describe('bridge: warnings', () => {
	it('reports MaxListenersExceededWarning once and every other warning in full', async () => {
		const script = `
			const { installWarningFilter } = require(${JSON.stringify(path.join(__dirname, '../../../src/node/bridge/terminalLog.js'))});
			const line = level => m => process.stderr.write(level + ' ' + m + '\\n');
			installWarningFilter({ debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') });
			for (let i = 0; i < 5; i++) process.emitWarning('11 abort listeners added', 'MaxListenersExceededWarning');
			process.emitWarning('something real', 'DeprecationWarning');`;
		const child = spawn(process.execPath, ['-e', script]);
		let stderr = '';
		child.stderr.on('data', d => (stderr += d));
		assert.equal(await exited(child), 0);
		assert.equal(stderr.match(/MaxListenersExceededWarning/g)?.length, 1, stderr);
		assert.match(stderr, /warn DeprecationWarning: something real/);
	});
});

describe('bridge: framing', function () {
	this.timeout(30_000);
	it('answers a line that is not JSON with -32700, like serve --stdio', async () => {
		const fx = createFixture();
		const home = mkdtempSync(path.join(os.tmpdir(), 'mwr-bridge-home-'));
		const host = await startHost(fx.root, home);
		const child = spawn(process.execPath, [CLI, 'bridge', '--workspace', fx.root], { env: cliEnv(home) });
		try {
			const reply = new Promise<string>(resolve => createInterface({ input: child.stdout }).once('line', resolve));
			child.stdin.write('this is not json\n');
			const parsed = JSON.parse(await reply) as { error: { code: number } };
			assert.equal(parsed.error.code, -32700);
		} finally {
			child.kill('SIGKILL');
			host.child.kill('SIGKILL');
			fx.dispose();
			rmSync(home, { recursive: true, force: true });
		}
	});
});
