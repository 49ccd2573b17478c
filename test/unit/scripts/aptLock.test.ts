import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

interface LockHolder { pid: number; command: string }
interface AptRun { code: number | null; stderr: string }
interface AptLockModule {
	APT_LOCK_WAIT_MS: number;
	aptLockHolders(lockFiles?: readonly string[], procRoot?: string): LockHolder[];
	runAptWaitingForLock(what: string, run: () => Promise<AptRun>, options?: {
		holders?: () => LockHolder[]; timeoutMs?: number; pollMs?: number; reportEveryMs?: number;
		now?: () => number; sleep?: (ms: number) => Promise<void>; report?: (line: string) => void;
	}): Promise<void>;
}
interface ProgressModule {
	formatDuration(ms: number): string;
	heartbeat(doing: string, report: (line: string) => void, describe?: () => string | undefined, options?: {
		everyMs?: number; now?: () => number;
		setInterval?: (tick: () => void, ms: number) => { unref?(): unknown }; clearInterval?: (timer: unknown) => void;
	}): () => void;
}

const root = path.join(__dirname, '../../../..');
const scripts = path.join(root, 'scripts');
async function loadScript<T>(relative: string): Promise<T> {
	register(pathToFileURL(path.join(scripts, 'bootstrap', 'typescriptHooks.mjs')).href);
	return await import(pathToFileURL(path.join(scripts, relative)).href) as T;
}

/** A clock that moves only when the code under test sleeps. */
function fakeClock(): { now(): number; sleep(ms: number): Promise<void> } {
	let t = 1_000_000;
	return { now: () => t, sleep: async ms => { t += ms; } };
}

const LOCK_TAKEN = 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)\n';

// scripts/lib/aptLock.ts: `npm start` and `npm run provision` install Debian packages with apt-get.
// Another apt-get holding the lock used to end them with a stack trace; they now wait, bounded.
describe('scripts: provisioning waits for a busy apt or dpkg lock', () => {
	let apt: AptLockModule;
	before(async () => {
		apt = await loadScript<AptLockModule>('lib/aptLock.ts');
	});

	it('waits while another process holds the lock, saying whom it waits for, then runs apt-get once', async () => {
		const clock = fakeClock();
		const lines: string[] = [];
		let busyPolls = 40;
		let runs = 0;
		await apt.runAptWaitingForLock('apt-get update', async () => { runs++; return { code: 0, stderr: '' }; }, {
			...clock, pollMs: 1000, reportEveryMs: 15_000, report: line => lines.push(line),
			holders: () => (busyPolls-- > 0 ? [{ pid: 4242, command: 'apt-get' }] : []),
		});
		assert.equal(runs, 1);
		assert.equal(lines.length, 3, lines.join('\n'));
		assert.match(lines[0], /^waiting for apt-get \(pid 4242\) to release the apt\/dpkg lock \(0s so far, giving up after 10m00s\)$/);
		assert.match(lines[2], /\(30s so far,/);
	});

	it('gives up after the bound in one line that says what to do, without running apt-get', async () => {
		const clock = fakeClock();
		let runs = 0;
		const started = clock.now();
		await assert.rejects(apt.runAptWaitingForLock('apt-get update', async () => { runs++; return { code: 0, stderr: '' }; }, {
			...clock, report: () => undefined, holders: () => [{ pid: 77, command: 'unattended-upgr' }],
		}), (err: Error) => {
			assert.equal(err.constructor.name, 'ProvisionError');
			assert.equal(err.message, 'unattended-upgr (pid 77) still holds the apt/dpkg lock after 10m00s: let it finish (or stop it if it is stuck), then run this again.');
			return true;
		});
		assert.equal(runs, 0);
		assert.equal(clock.now() - started, apt.APT_LOCK_WAIT_MS);
	});

	it('waits again when apt-get itself finds the lock taken (someone took it in between)', async () => {
		const clock = fakeClock();
		const lines: string[] = [];
		const results: AptRun[] = [{ code: 100, stderr: LOCK_TAKEN }, { code: 100, stderr: 'E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?' }, { code: 0, stderr: '' }];
		let runs = 0;
		await apt.runAptWaitingForLock('apt-get install -y chromium', async () => results[runs++], { ...clock, report: line => lines.push(line), holders: () => [] });
		assert.equal(runs, 3);
		assert.deepEqual(lines, Array(2).fill('apt-get install -y chromium found the apt/dpkg lock taken; waiting for it again'));
	});

	it('stops retrying a taken lock at the bound too', async () => {
		const clock = fakeClock();
		await assert.rejects(apt.runAptWaitingForLock('apt-get update', async () => ({ code: 100, stderr: LOCK_TAKEN }), {
			...clock, timeoutMs: 5000, report: () => undefined, holders: () => [],
		}), /^Error: apt-get update kept finding the apt\/dpkg lock taken \(last by another apt or dpkg\) for 5s: let the other package manager finish, then run this again\.$/);
	});

	it('fails at once, in one line pointing at apt-get\'s own output, when apt-get fails for another reason', async () => {
		let runs = 0;
		await assert.rejects(apt.runAptWaitingForLock('apt-get install -y chromium', async () => { runs++; return { code: 100, stderr: 'E: Unable to locate package chromium\n' }; }, {
			...fakeClock(), report: () => undefined, holders: () => [],
		}), (err: Error) => err.message === 'apt-get install -y chromium failed (exit 100); its output is above. Fix what it says, then run this again.');
		assert.equal(runs, 1);
	});

	it('finds the process that holds a lock file open through /proc, and nobody once it is gone', async () => {
		const dir = mkdtempSync(path.join(os.tmpdir(), 'mwr-aptlock-'));
		const lockFile = path.join(dir, 'lock-frontend');
		writeFileSync(lockFile, '');
		const holder = spawn(process.execPath, ['-e', `require('fs').openSync(${JSON.stringify(lockFile)}, 'r'); console.log('open'); process.stdin.resume();`], { stdio: ['pipe', 'pipe', 'inherit'] });
		try {
			await new Promise<void>((resolve, reject) => {
				holder.stdout.on('data', (d: Buffer) => { if (d.toString().includes('open')) { resolve(); } });
				holder.once('exit', code => reject(new Error(`holder exited (${code})`)));
			});
			const found = apt.aptLockHolders([lockFile]);
			assert.deepEqual(found.map(h => h.pid), [holder.pid]);
			assert.match(found[0].command, /node/);
			assert.deepEqual(apt.aptLockHolders([path.join(dir, 'other-lock')]), []);
		} finally {
			const exited = new Promise(resolve => holder.once('exit', resolve));
			holder.stdin.end();
			holder.kill();
			await exited;
		}
		assert.deepEqual(apt.aptLockHolders([lockFile]), []);
		rmSync(dir, { recursive: true, force: true });
	});
});

describe('scripts: long provisioning steps say how far they are', () => {
	let progress: ProgressModule;
	before(async () => {
		progress = await loadScript<ProgressModule>('lib/progress.ts');
	});

	it('writes durations a person reads at a glance', () => {
		assert.deepEqual([0, 42_400, 60_000, 75_000, 605_000].map(progress.formatDuration), ['0s', '42s', '1m00s', '1m15s', '10m05s']);
	});

	it('reports the time spent and what is done so far on each tick, and stops when told', () => {
		let t = 0;
		let tick: () => void = () => assert.fail('no timer started');
		let cleared = false;
		const lines: string[] = [];
		const details = [undefined, '312 packages in place'];
		const stop = progress.heartbeat('installing code-server', line => lines.push(line), () => details.shift(), {
			everyMs: 20_000, now: () => t, setInterval: fn => { tick = fn; return {}; }, clearInterval: () => { cleared = true; },
		});
		t = 20_000; tick();
		t = 40_000; tick();
		stop();
		assert.deepEqual(lines, ['still installing code-server: 20s', 'still installing code-server: 40s, 312 packages in place']);
		assert.ok(cleared);
	});
});

// End to end through the npm script's own command line: a failure a person can act on is one line.
describe('scripts: npm run provision when it cannot go on', function () {
	this.timeout(30_000);
	it('says what is missing and what to do in one line, with no stack trace', async () => {
		// A PATH with only sh and node: the build tools code-server's native modules need are not on it.
		const bin = mkdtempSync(path.join(os.tmpdir(), 'mwr-path-'));
		const envDir = mkdtempSync(path.join(os.tmpdir(), 'mwr-env-'));
		symlinkSync('/bin/sh', path.join(bin, 'sh'));
		symlinkSync(process.execPath, path.join(bin, 'node'));
		try {
			const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(resolve => {
				const child = spawn(process.execPath, ['--import', './scripts/bootstrap/registerTypeScript.mjs', 'scripts/provision/provisionVscode.ts'], {
					cwd: root, env: { ...process.env, PATH: bin, MCP_VSCODE_ENV_DIR: envDir }, stdio: ['ignore', 'ignore', 'pipe'],
				});
				let err = '';
				child.stderr.on('data', d => (err += d));
				child.on('close', c => resolve({ code: c, stderr: err }));
			});
			assert.equal(code, 1);
			const lines = stderr.trimEnd().split('\n');
			assert.match(lines.at(-1) ?? '', /^\[provision\] FAILED: Missing build tools for code-server's native modules \(python3, make, g\+\+, git\): install them \(on Debian: sudo apt-get install -y python3 make g\+\+ git\), then run this again\.$/);
			assert.doesNotMatch(stderr, /^\s+at /m);
		} finally {
			rmSync(bin, { recursive: true, force: true });
			rmSync(envDir, { recursive: true, force: true });
		}
	});
});
