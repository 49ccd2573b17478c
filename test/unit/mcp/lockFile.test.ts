import * as assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nullLogger } from '../../../src/common/logger';
import { discoveryHome, lockFilePath, removeLockFile, writeLockFile } from '../../../src/mcp/lockFile';
import { readLockFiles } from '../../../src/client/lockFileDiscovery';

describe('lock files', () => {
	let home: string;
	beforeEach(() => {
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-home-'));
	});
	afterEach(() => rmSync(home, { recursive: true, force: true }));

	const content = (pid: number) => ({
		url: 'http://127.0.0.1:1/mcp', token: 't'.repeat(64), workspaceFolders: ['/ws'], pid,
		version: '0.1.0', host: 'headless' as const, startedAt: new Date().toISOString(),
	});

	it('honours MCP_WORKSPACE_RESOURCES_HOME and defaults to ~/.mcp-workspace-resources', () => {
		assert.equal(discoveryHome({ MCP_WORKSPACE_RESOURCES_HOME: home }), home);
		assert.equal(discoveryHome({}), path.join(os.homedir(), '.mcp-workspace-resources'));
	});

	it('writes servers/<pid>.json readable by the user only, and removes it', async () => {
		const file = await writeLockFile(content(process.pid), nullLogger, home);
		assert.equal(file, path.join(home, 'servers', `${process.pid}.json`));
		assert.equal(statSync(file).mode & 0o777, 0o600);
		assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
		assert.deepEqual((await readLockFiles(home)).map(c => c.pid), [process.pid]);
		await removeLockFile(process.pid, home);
		assert.equal(existsSync(file), false);
	});

	it('makes a home it creates private, and leaves the mode of one that was already there (even a shared 1777 one)', async () => {
		const created = path.join(home, 'new', 'home');
		await writeLockFile(content(process.pid), nullLogger, created);
		assert.equal(statSync(created).mode & 0o777, 0o700);
		chmodSync(home, 0o1777);
		await writeLockFile(content(process.pid), nullLogger, home);
		assert.equal(statSync(home).mode & 0o7777, 0o1777, 'MCP_WORKSPACE_RESOURCES_HOME=/tmp must not lock everyone else out of /tmp');
		assert.equal(statSync(path.join(home, 'servers')).mode & 0o777, 0o700);
	});

	it('cleans lock files of processes that are gone', async () => {
		mkdirSync(path.join(home, 'servers'), { recursive: true });
		const deadPid = 2 ** 22 + 12345; // above Linux's pid_max: never running
		writeFileSync(lockFilePath(deadPid, home), JSON.stringify(content(deadPid)));
		assert.deepEqual(await readLockFiles(home), [], 'dead servers are not offered');
		await writeLockFile(content(process.pid), nullLogger, home);
		assert.equal(existsSync(lockFilePath(deadPid, home)), false);
	});
});
