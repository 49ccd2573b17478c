import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Logger } from '../common/logger';
import { isInsideFolder } from '../common/pathContainment';

/**
 * What a running server tells clients on this machine (and only this user) about itself.
 * Readers check it before believing it: see lockFileDiscovery.ts.
 */
export interface LockFileContent {
	readonly url: string;
	readonly token: string;
	readonly workspaceFolders: readonly string[];
	readonly pid: number;
	readonly version: string;
	readonly host: 'vscode' | 'headless';
	readonly startedAt: string;
}

export const HOME_ENV = 'MCP_WORKSPACE_RESOURCES_HOME';

/** `$MCP_WORKSPACE_RESOURCES_HOME` or `~/.mcp-workspace-resources`. */
export function discoveryHome(env: NodeJS.ProcessEnv = process.env): string {
	const fromEnv = env[HOME_ENV];
	return fromEnv && fromEnv.trim() !== '' ? path.resolve(fromEnv) : path.join(os.homedir(), '.mcp-workspace-resources');
}

export function serversDirectory(home = discoveryHome()): string {
	return path.join(home, 'servers');
}

export function lockFilePath(pid: number, home = discoveryHome()): string {
	return path.join(serversDirectory(home), `${pid}.json`);
}

/**
 * Whether the process of a lock file runs, by signal 0 (which checks without signalling). EPERM
 * is a live process of another user: the writer's own file is not stale, but a reader must not
 * believe it (the pid may have been reused).
 */
export function processState(pid: number): 'ours' | 'gone' | 'other-user' {
	try {
		process.kill(pid, 0);
		return 'ours';
	} catch (err) {
		return (err as NodeJS.ErrnoException).code === 'EPERM' ? 'other-user' : 'gone';
	}
}

/**
 * Writes the lock file atomically with mode 0600 in a 0700 directory (the token is a
 * credential), after removing lock files of processes that no longer run.
 */
export async function writeLockFile(content: LockFileContent, log: Logger, home = discoveryHome()): Promise<string> {
	const dir = serversDirectory(home);
	const firstCreated = await fs.mkdir(dir, { recursive: true, mode: 0o700 });
	// A home made here is ours to make private. One that was already there is not:
	// MCP_WORKSPACE_RESOURCES_HOME may name any folder (even /tmp), and readers check `servers/`.
	if (firstCreated !== undefined && isInsideFolder(firstCreated, home)) {
		await fs.chmod(home, 0o700).catch(() => undefined);
	}
	await fs.chmod(dir, 0o700);
	await cleanStaleLockFiles(log, home);
	const file = lockFilePath(content.pid, home);
	const temp = `${file}.${process.hrtime.bigint()}.tmp`;
	await fs.writeFile(temp, JSON.stringify(content, null, 2) + '\n', { mode: 0o600 });
	await fs.chmod(temp, 0o600);
	await fs.rename(temp, file);
	return file;
}

export async function removeLockFile(pid: number, home = discoveryHome()): Promise<void> {
	await fs.rm(lockFilePath(pid, home), { force: true });
}

/** Removes lock files whose process is gone, and leftovers that cannot be parsed. */
export async function cleanStaleLockFiles(log: Logger, home = discoveryHome()): Promise<void> {
	const dir = serversDirectory(home);
	let names: string[];
	try {
		names = await fs.readdir(dir);
	} catch {
		return;
	}
	await Promise.all(names.map(async name => {
		const match = /^(\d+)\.json$/.exec(name);
		if (!match) {
			return;
		}
		const pid = Number(match[1]);
		if (pid !== process.pid && processState(pid) === 'gone') {
			await fs.rm(path.join(dir, name), { force: true });
			log.info(`removed stale lock file of process ${pid}`);
		}
	}));
}
