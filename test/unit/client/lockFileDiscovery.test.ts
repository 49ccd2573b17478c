import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nullLogger } from '../../../src/common/logger';
import { LockFileContent, lockFilePath, writeLockFile } from '../../../src/mcp/lockFile';
import { loopbackUrlProblem, readLockFiles } from '../../../src/client/lockFileDiscovery';

const OTHER_UID = 65534; // nobody

function content(pid: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		url: 'http://127.0.0.1:1/mcp', token: 't'.repeat(64), workspaceFolders: ['/ws'], pid,
		version: '0.1.0', host: 'headless', startedAt: new Date().toISOString(), ...extra,
	};
}

/** Runs readLockFiles in a child process as another user, for what root cannot see (EPERM). */
function readAsUser(uid: number, home: string): Promise<{ found: LockFileContent[]; reports: string[] }> {
	const module = path.join(__dirname, '../../../src/client/lockFileDiscovery.js');
	const script = `require(${JSON.stringify(module)}).readLockFiles(${JSON.stringify(home)}, m => process.stderr.write(m + '\\n'))` +
		'.then(found => process.stdout.write(JSON.stringify(found)))';
	const child = spawn(process.execPath, ['-e', script], { uid, gid: uid });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', d => (stdout += d));
	child.stderr.on('data', d => (stderr += d));
	return new Promise((resolve, reject) => child.on('exit', code => code === 0
		? resolve({ found: JSON.parse(stdout) as LockFileContent[], reports: stderr.split('\n').filter(Boolean) })
		: reject(new Error(`child exited ${code}: ${stderr}`))));
}

describe('lock file discovery: only what this user wrote, naming this machine', () => {
	let home: string;
	let servers: string;
	let reports: string[];
	const read = () => readLockFiles(home, m => reports.push(m));
	const write = (pid: number, body: unknown, mode = 0o600) => {
		const file = lockFilePath(pid, home);
		writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
		chmodSync(file, mode);
		return file;
	};

	beforeEach(async () => {
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-discovery-'));
		servers = path.join(home, 'servers');
		reports = [];
		await writeLockFile(content(process.pid) as unknown as LockFileContent, nullLogger, home);
	});
	afterEach(() => rmSync(home, { recursive: true, force: true }));

	it('reads a lock file the server wrote', async () => {
		assert.deepEqual((await read()).map(c => c.pid), [process.pid]);
		assert.deepEqual(reports, []);
	});

	it('skips a file group or world could write (0666), or another user owns, with one message naming it', async () => {
		const file = write(process.pid, content(process.pid, { url: 'http://127.0.0.1:2/mcp' }), 0o666);
		assert.deepEqual(await read(), []);
		assert.deepEqual(reports, [`skipped lock file ${file}: writable by group or others (mode 0666)`]);
		reports = [];
		chmodSync(file, 0o620);
		assert.deepEqual(await read(), []);
		assert.match(reports[0], /writable by group or others \(mode 0620\)/);
		// Only root can give a file away (the case measured in the issue ran as root).
		if (process.getuid?.() === 0) {
			reports = [];
			chmodSync(file, 0o600);
			chownSync(file, OTHER_UID, OTHER_UID);
			assert.deepEqual(await read(), []);
			assert.deepEqual(reports, [`skipped lock file ${file}: owned by uid ${OTHER_UID}, not by this user (uid 0)`]);
		}
	});

	it('ignores a whole directory another user could write, or owns', async () => {
		chmodSync(servers, 0o777);
		assert.deepEqual(await read(), []);
		assert.deepEqual(reports, [`ignoring lock files in ${servers}: writable by group or others (mode 0777)`]);
		chmodSync(servers, 0o700);
		if (process.getuid?.() === 0) {
			reports = [];
			chownSync(servers, OTHER_UID, OTHER_UID);
			assert.deepEqual(await read(), []);
			assert.match(reports[0], /owned by uid 65534/);
		}
	});

	it('skips a symbolic link, even to a good lock file', async () => {
		const real = path.join(home, 'elsewhere.json');
		writeFileSync(real, JSON.stringify(content(process.pid)), { mode: 0o600 });
		rmSync(lockFilePath(process.pid, home));
		symlinkSync(real, lockFilePath(process.pid, home));
		assert.deepEqual(await read(), []);
		assert.match(reports[0], /it is a symbolic link$/);
	});

	it('skips a FIFO without waiting for a writer', async () => {
		rmSync(lockFilePath(process.pid, home));
		const mkfifo = spawn('mkfifo', ['-m', '600', lockFilePath(process.pid, home)]);
		assert.equal(await new Promise(resolve => mkfifo.on('exit', resolve)), 0);
		assert.deepEqual(await read(), []);
		assert.match(reports[0], /: not a regular file$/);
	});

	it('skips malformed files without throwing: bad JSON, fields of the wrong type, a pid that is not the name', async () => {
		const bad: [unknown, RegExp][] = [
			['{"url": ', /not valid JSON$/],
			[content(process.pid, { startedAt: 12345 }), /malformed \(startedAt: .*string/],
			[content(process.pid, { workspaceFolders: '/ws' }), /malformed \(workspaceFolders: /],
			[content(process.pid, { token: { length: 1 } }), /malformed \(token: /],
			[content(process.pid, { pid: 'x' }), /malformed \(pid: /],
			[content(process.pid, { host: 'other' }), /malformed \(host: /],
			[content(process.pid + 1), /malformed \(pid \d+ in a file named for \d+\)/],
			[[1, 2], /malformed \(content: /],
			['x'.repeat(70 * 1024), /larger than 65536 bytes$/],
		];
		for (const [body, reason] of bad) {
			reports = [];
			write(process.pid, body);
			assert.deepEqual(await read(), [], String(reason));
			assert.equal(reports.length, 1, String(reason));
			assert.match(reports[0], reason);
		}
	});

	it('uses only plain http on loopback: 127.0.0.0/8, ::1 and localhost', async () => {
		for (const url of ['http://127.0.0.1:1/mcp', 'http://127.3.4.5:1/mcp', 'http://[::1]:1/mcp', 'http://localhost:1/mcp', 'http://LOCALHOST:1/mcp']) {
			assert.equal(loopbackUrlProblem(url), undefined, url);
		}
		const refused: [string, RegExp][] = [
			['http://10.0.0.1:1/mcp', /not on this machine \(10\.0\.0\.1\)/],
			['http://evil.example:1/mcp', /not on this machine/],
			['http://127.0.0.1.evil.example/mcp', /not on this machine/],
			['http://[::2]:1/mcp', /not on this machine/],
			['http://0.0.0.0:1/mcp', /not on this machine/],
			['https://127.0.0.1:1/mcp', /not http \(https:\)/],
			['http://user:pw@127.0.0.1:1/mcp', /credentials/],
			['not a url', /not a URL/],
		];
		for (const [url, reason] of refused) {
			assert.match(loopbackUrlProblem(url) ?? '', reason, url);
		}
		const file = write(process.pid, content(process.pid, { url: 'http://192.0.2.1:80/mcp' }));
		assert.deepEqual(await read(), []);
		assert.deepEqual(reports, [`skipped lock file ${file}: url is not on this machine (192.0.2.1); only 127.0.0.0/8, ::1 and localhost are used`]);
	});

	it('skips a dead pid silently and a pid of another user (EPERM) with a message', async function () {
		this.timeout(20_000);
		const dead = 2 ** 22 + 12345; // above Linux's pid_max: never running
		write(dead, content(dead));
		assert.deepEqual((await read()).map(c => c.pid), [process.pid]);
		assert.deepEqual(reports, [], 'a server that exited is not worth a message');
		rmSync(lockFilePath(dead, home));
		// Process 1 (init) is root's: seen from another user, signal 0 fails with EPERM.
		write(1, content(1));
		if (process.getuid?.() === 0) {
			rmSync(lockFilePath(process.pid, home));
			chownSync(home, OTHER_UID, OTHER_UID);
			chownSync(servers, OTHER_UID, OTHER_UID);
			chownSync(lockFilePath(1, home), OTHER_UID, OTHER_UID);
			const asOther = await readAsUser(OTHER_UID, home);
			assert.deepEqual(asOther.found, []);
			assert.deepEqual(asOther.reports, [`skipped lock file ${lockFilePath(1, home)}: process 1 belongs to another user`]);
		} else {
			assert.throws(() => process.kill(1, 0), /EPERM/, 'precondition: process 1 belongs to another user');
			assert.deepEqual((await read()).map(c => c.pid), [process.pid]);
			assert.deepEqual(reports, [`skipped lock file ${lockFilePath(1, home)}: process 1 belongs to another user`]);
		}
	});
});
