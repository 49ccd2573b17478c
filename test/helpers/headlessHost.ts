import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { createFixture, Fixture } from './fixtureWorkspace';

/** The built CLI, as users run it. */
export const CLI = path.join(__dirname, '../../../dist/cli.js');

/** The environment the CLI runs in: this one, with lock files and the search's cache in `home` (not the user's). */
export function cliEnv(home: string): Record<string, string> {
	return { ...process.env, MCP_WORKSPACE_RESOURCES_HOME: home, XDG_CACHE_HOME: path.join(home, 'cache') } as Record<string, string>;
}

/** How an SDK stdio client transport starts the CLI (`serve --stdio`, `bridge`), its stderr piped for the test to read. */
export function cliStdio(args: string[], home: string): { command: string; args: string[]; env: Record<string, string>; stderr: 'pipe' } {
	return { command: process.execPath, args: [CLI, ...args], env: cliEnv(home), stderr: 'pipe' };
}

export interface Host {
	readonly child: ChildProcess;
	readonly url: string;
	readonly token: string;
	stop(): Promise<void>;
}

export function exited(child: ChildProcess): Promise<number | null> {
	return new Promise(resolve => {
		if (child.exitCode !== null || child.signalCode !== null) {
			resolve(child.exitCode);
		} else {
			child.once('exit', code => resolve(code));
		}
	});
}

/** A real headless host (`serve --http`, and `options`), which writes its lock file in `home`. */
export async function startHost(root: string, home: string, options: readonly string[] = []): Promise<Host> {
	const child = spawn(process.execPath, [CLI, 'serve', '--root', root, '--http', '--log-level', 'warn', ...options], {
		env: cliEnv(home),
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const first = await new Promise<string>((resolve, reject) => {
		createInterface({ input: child.stdout! }).once('line', resolve);
		child.once('exit', code => reject(new Error(`host exited with ${code}`)));
	});
	const info = JSON.parse(first) as { url: string; token: string };
	// The lock file is written before the first line; wait until it is there all the same.
	const lockPath = path.join(home, 'servers', `${child.pid}.json`);
	assert.ok(existsSync(lockPath), 'the headless host wrote its lock file');
	return {
		child, ...info,
		stop: async () => {
			child.kill('SIGTERM');
			await exited(child);
		},
	};
}

/** Writes `rel` repeatedly until `done` holds: the watcher is live once a write is reported. */
export async function touchUntil(fx: Fixture, rel: string, wait: Promise<void>): Promise<void> {
	const writer = setInterval(() => writeFileSync(fx.file(rel), `# v${Date.now()}\n`), 200);
	try {
		await wait;
	} finally {
		clearInterval(writer);
	}
}


/** What a test of the CLI against real hosts has, made afresh for each test. */
export interface HostsPerTest {
	/** A fixture workspace. */
	readonly fx: Fixture;
	/** An empty lock-file home. */
	readonly home: string;
	/** The hosts the test starts: killed after it. */
	readonly hosts: Host[];
}

/** Registers, in the calling `describe`, the hooks that make and remove a {@link HostsPerTest} around each test. */
export function hostsPerTest(): HostsPerTest {
	const current = {} as { fx: Fixture; home: string; hosts: Host[] };
	before(() => assert.ok(existsSync(CLI), 'run npm run build first'));
	beforeEach(() => {
		current.fx = createFixture();
		current.home = mkdtempSync(path.join(os.tmpdir(), 'mwr-bridge-home-'));
		current.hosts = [];
	});
	afterEach(() => {
		for (const host of current.hosts) {
			host.child.kill('SIGKILL');
		}
		current.fx.dispose();
		rmSync(current.home, { recursive: true, force: true });
	});
	return current;
}
