import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { fileUri } from '../../../src/core/uriGuard';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { connectHttp, errorOf, listAll } from '../../helpers/harness';
import { HeardNotifications } from '../../helpers/heardNotifications';
import { CLI, cliEnv, cliStdio, exited, touchUntil } from '../../helpers/headlessHost';

/** Runs the CLI; `prefix` is a command that runs node (e.g. with fewer privileges). */
function run(args: string[], env: NodeJS.ProcessEnv = {}, prefix: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise(resolve => {
		const [command, ...rest] = [...prefix, process.execPath, CLI, ...args];
		const child = spawn(command, rest, { env: { ...process.env, ...env } });
		child.stdin.end(); // a `serve --stdio` that started after all ends here instead of waiting
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', d => (stdout += d));
		child.stderr.on('data', d => (stderr += d));
		child.on('close', code => resolve({ code, stdout, stderr }));
	});
}

describe('CLI (dist/cli.js)', function () {
	this.timeout(30_000);
	let fx: Fixture;
	let home: string;

	before(() => assert.ok(existsSync(CLI), 'run npm run build first'));
	beforeEach(() => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-cli-home-'));
	});
	afterEach(() => {
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	for (const args of [[], ['nope'], ['serve'], ['serve', '--root', '/definitely/missing', '--stdio'], ['serve', '--root', '.'],
		['serve', '--root', '.', '--stdio', '--http'], ['serve', '--root', '.', '--http', '--port', 'abc'], ['serve', '--root', '.', '--stdio', '--port', '1'],
		['serve', '--root', '.', '--http', '--bogus'], ['serve', '--root', '.', '--stdio', '--no-cache', '--cache-dir', 'x'], ['serve', '--root', '.', '--stdio', '--cache-dir=']]) {
		it(`exits 2 with usage for: ${args.join(' ') || '(nothing)'}`, async () => {
			const result = await run(args);
			assert.equal(result.code, 2);
			assert.match(result.stderr, /Usage:/);
			assert.equal(result.stdout, '');
		});
	}

	it('exits 2 with one line naming a --root it cannot read, instead of serving it as empty', async () => {
		const unreadable = path.join(fx.root, 'locked');
		mkdirSync(unreadable, { mode: 0o000 });
		// root reads anything: run the CLI without the capabilities that let it.
		const asUser = process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search'] : [];
		const result = await run(['serve', '--root', unreadable, '--stdio'], {}, asUser);
		chmodSync(unreadable, 0o700); // so that the fixture can be removed
		assert.equal(result.code, 2);
		assert.equal(result.stderr.split('\n')[0], `error: --root ${unreadable}: not readable (EACCES)`);
		assert.equal(result.stdout, '');
	});

	it('--http on a port this user may not bind exits 1 with one line, no stack trace', async () => {
		const firstUnprivileged = Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'));
		assert.ok(firstUnprivileged > 1, 'this machine has no privileged ports to try');
		const port = firstUnprivileged - 1;
		// root may bind any port: run the CLI without the capability that lets it.
		const asUser = process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-net_bind_service'] : [];
		const result = await run(['serve', '--root', fx.root, '--http', '--port', String(port)], cliEnv(home), asUser);
		assert.equal(result.code, 1, result.stderr);
		assert.equal(result.stdout, '');
		assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
		assert.equal(result.stderr.trim().split('\n').at(-1), `error: The server could not start: listen EACCES: permission denied 127.0.0.1:${port}`);
	});

	it('prints help and version', async () => {
		assert.match((await run(['--help'])).stdout, /serve --root DIR/);
		assert.match((await run(['--version'])).stdout, /^\d+\.\d+\.\d+\n$/);
	});

	it('--http prints {url, token} first, writes a 0600 lock file, serves, and stops cleanly on SIGTERM', async () => {
		const child = spawn(process.execPath, [CLI, 'serve', '--root', fx.root, '--http'], { env: cliEnv(home) });
		const stderr: string[] = [];
		child.stderr.on('data', d => stderr.push(String(d)));
		try {
			const first = await new Promise<string>(resolve => createInterface({ input: child.stdout! }).once('line', resolve));
			const info = JSON.parse(first) as { url: string; token: string };
			assert.deepEqual(Object.keys(info).sort(), ['token', 'url']);
			const lock = path.join(home, 'servers', `${child.pid}.json`);
			assert.equal(statSync(lock).mode & 0o777, 0o600);
			const conn = await connectHttp(info.url, info.token);
			const names = (await listAll(conn.client)).map(r => r.name);
			assert.ok(names.includes('README.md') && !names.includes('.env'));
			await conn.close();
			child.kill('SIGTERM');
			assert.equal(await exited(child), 0);
			assert.equal(existsSync(lock), false, 'lock file removed on stop');
			assert.ok(!stderr.join('').includes(' [error] '), stderr.join(''));
		} finally {
			child.kill('SIGKILL');
		}
	});

	it('stops at a second SIGTERM when the first one\'s shutdown cannot finish', async () => {
		// Node's recursive mkdir never returns under /proc: the start, and the shutdown that waits for it, hang.
		const child = spawn(process.execPath, [CLI, 'serve', '--root', fx.root, '--http'], { env: { ...cliEnv(home), MCP_WORKSPACE_RESOURCES_HOME: `/proc/mwr-${process.pid}` } });
		let stderr = '';
		const waiting: (() => void)[] = [];
		child.stderr.on('data', d => {
			stderr += String(d);
			waiting.forEach(look => look());
		});
		const said = (pattern: RegExp) => new Promise<void>(resolve => {
			const look = () => pattern.test(stderr) && resolve();
			waiting.push(look);
			look();
		});
		try {
			await said(/indexed \d+ files/);
			child.kill('SIGTERM');
			await said(/SIGTERM: stopping/);
			child.kill('SIGTERM');
			assert.equal(await exited(child), 1);
			assert.match(stderr, /SIGTERM again: stopping now/);
		} finally {
			child.kill('SIGKILL');
		}
	});

	it('serves a folder given twice, by other spellings or through a link, once: no URI listed twice', async () => {
		const link = path.join(home, 'link-to-root');
		symlinkSync(fx.root, link);
		const spellings = [fx.root, `${fx.root}/`, path.relative(process.cwd(), fx.root), link];
		const transport = new StdioClientTransport(cliStdio(['serve', ...spellings.flatMap(root => ['--root', root]), '--stdio'], home));
		const client = new Client({ name: 'cli-test', version: '1' });
		await client.connect(transport);
		try {
			const uris = (await listAll(client)).map(r => r.uri);
			assert.ok(uris.includes(fileUri(fx.file('README.md'))), uris.join('\n'));
			assert.deepEqual(uris.filter((uri, i) => uris.indexOf(uri) !== i), [], 'listed twice');
			assert.ok(!uris.some(uri => uri.startsWith(fileUri(link))), 'the folder is served under the first spelling given');
		} finally {
			await client.close();
		}
	});

	it('--stdio serves a client and reports real file changes from the watcher', async () => {
		const transport = new StdioClientTransport(cliStdio(['serve', '--root', fx.root, '--stdio', '--exclude', 'data/**'], home));
		const client = new Client({ name: 'cli-test', version: '1' });
		const heard = new HeardNotifications({ timeoutMs: 10_000 });
		client.setNotificationHandler(ResourceListChangedNotificationSchema, () => heard.listChanged());
		client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => heard.updated(n.params.uri));
		await client.connect(transport);
		try {
			// The headless host serves files and git only: its instructions must not promise more.
			const instructions = client.getInstructions() ?? '';
			assert.match(instructions, /file:\/\//);
			assert.match(instructions, /git:\/\//);
			assert.doesNotMatch(instructions, /diagnostics:|editor:/);
			const names = (await listAll(client)).map(r => r.name);
			assert.ok(names.includes('src/index.ts'));
			assert.ok(!names.some(n => n.startsWith('data/')), '--exclude applies');
			assert.equal((await errorOf(client.readResource({ uri: fileUri(fx.file('.env')) }))).code, -32602);

			const readme = fileUri(fx.file('README.md'));
			await client.subscribeResource({ uri: readme });
			// The watcher is live once a change made now is reported; retry the write until then.
			await touchUntil(fx, 'README.md', heard.until(() => heard.updates.includes(readme), `updated ${readme}`));

			const before = heard.listChanges;
			writeFileSync(fx.file('src/created.ts'), 'x');
			await heard.until(() => heard.listChanges > before, 'list_changed after a create');
			assert.ok((await listAll(client)).some(r => r.name === 'src/created.ts'));
			const beforeDelete = heard.listChanges;
			unlinkSync(fx.file('src/created.ts'));
			await heard.until(() => heard.listChanges > beforeDelete, 'list_changed after a delete');
			assert.ok(!(await listAll(client)).some(r => r.name === 'src/created.ts'));
		} finally {
			await client.close();
		}
	});
});
