import { constants, promises as fs, realpathSync, Stats } from 'node:fs';
import { connect, isIPv4 } from 'node:net';
import * as path from 'node:path';
import { array, literal, number, object, string, union } from 'zod';
import { isInsideFolder } from '../common/pathContainment';
import { discoveryHome, LockFileContent, processState, serversDirectory } from '../mcp/lockFile';

/**
 * Reading lock files as a client (the bridge) must: the token in a lock file is sent to the
 * URL beside it, so only files this user wrote, naming a server on this machine, are believed.
 */

/** Larger than any real lock file; a bigger one is not read. */
const MAX_LOCK_FILE_BYTES = 64 * 1024;

const lockFileSchema = object({
	url: string().max(2048),
	token: string().min(1).max(1024),
	workspaceFolders: array(string().max(4096)).max(1000),
	pid: number().int().positive(),
	version: string().max(200),
	host: union([literal('vscode'), literal('headless')]),
	startedAt: string().max(100),
});

/**
 * Lock files of running servers of this user, newest first. Skipped, each with a reason given
 * to `report`: a directory or file another user owns or could write, a symbolic link, a file
 * that is not JSON or has a field of the wrong type, a URL that is not plain http on loopback,
 * a pid that belongs to another user. Files of processes that have exited are skipped silently.
 */
export async function readLockFiles(home = discoveryHome(), report: (message: string) => void = () => undefined): Promise<LockFileContent[]> {
	const dir = serversDirectory(home);
	let dirStat: Stats;
	try {
		dirStat = await fs.stat(dir);
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
			report(`ignoring lock files in ${dir}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`);
		}
		return [];
	}
	const dirProblem = dirStat.isDirectory() ? untrusted(dirStat) : 'not a directory';
	if (dirProblem) {
		report(`ignoring lock files in ${dir}: ${dirProblem}`);
		return [];
	}
	let names: string[];
	try {
		names = await fs.readdir(dir);
	} catch {
		return [];
	}
	const found: LockFileContent[] = [];
	for (const name of names.filter(n => /^\d+\.json$/.test(n)).sort()) {
		const file = path.join(dir, name);
		const result = await readOne(file, Number(name.slice(0, -'.json'.length)));
		if (typeof result === 'string') {
			report(`skipped lock file ${file}: ${result}`);
		} else if (result) {
			found.push(result);
		}
	}
	return found.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
}

/** The content, a reason to skip it, or undefined for a server that has exited. */
async function readOne(file: string, pidFromName: number): Promise<LockFileContent | string | undefined> {
	let text: string;
	try {
		text = await readTrusted(file);
	} catch (err) {
		const code = (err as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') {
			return undefined; // removed meanwhile: its server stopped
		}
		return code === 'ELOOP' ? 'it is a symbolic link' : (err instanceof UntrustedFile ? err.message : `unreadable (${code ?? 'error'})`);
	}
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		return 'not valid JSON';
	}
	const parsed = lockFileSchema.safeParse(json);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return `malformed (${issue.path.join('.') || 'content'}: ${issue.message})`;
	}
	const content: LockFileContent = parsed.data;
	if (content.pid !== pidFromName) {
		return `malformed (pid ${content.pid} in a file named for ${pidFromName})`;
	}
	const urlProblem = loopbackUrlProblem(content.url);
	if (urlProblem) {
		return urlProblem;
	}
	switch (processState(content.pid)) {
		case 'ours': return content;
		case 'gone': return undefined;
		case 'other-user': return `process ${content.pid} belongs to another user`;
	}
}

class UntrustedFile extends Error {}

/**
 * Opens without following a link, then checks what was opened (not the path again), so a file
 * swapped in between cannot pass the check. Without blocking: opening a FIFO for reading would
 * otherwise wait for a writer, for ever, before the check could say it is not a file.
 */
async function readTrusted(file: string): Promise<string> {
	const handle = await fs.open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
	try {
		const stat = await handle.stat();
		const problem = stat.isFile() ? untrusted(stat) : 'not a regular file';
		if (problem) {
			throw new UntrustedFile(problem);
		}
		if (stat.size > MAX_LOCK_FILE_BYTES) {
			throw new UntrustedFile(`larger than ${MAX_LOCK_FILE_BYTES} bytes`);
		}
		const buffer = Buffer.alloc(MAX_LOCK_FILE_BYTES + 1);
		const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
		if (bytesRead > MAX_LOCK_FILE_BYTES) {
			throw new UntrustedFile(`larger than ${MAX_LOCK_FILE_BYTES} bytes`);
		}
		return buffer.toString('utf8', 0, bytesRead);
	} finally {
		await handle.close();
	}
}

/**
 * Why another user could have written this, or undefined. Windows has no owner uid or mode bits
 * here; the discovery home there is in the user's own profile, protected by its ACL.
 */
function untrusted(stat: Stats): string | undefined {
	const uid = process.getuid?.();
	if (uid === undefined) {
		return undefined;
	}
	if (stat.uid !== uid) {
		return `owned by uid ${stat.uid}, not by this user (uid ${uid})`;
	}
	if ((stat.mode & 0o022) !== 0) {
		return `writable by group or others (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})`;
	}
	return undefined;
}

/** Why `url` is not a server on this machine over plain http, or undefined. */
export function loopbackUrlProblem(url: string): string | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return 'malformed (url: not a URL)';
	}
	if (parsed.protocol !== 'http:') {
		return `url is not http (${parsed.protocol})`;
	}
	if (parsed.username !== '' || parsed.password !== '') {
		return 'url carries credentials';
	}
	const host = parsed.hostname.toLowerCase();
	const loopback = host === 'localhost' || host === '[::1]' || (isIPv4(host) && host.startsWith('127.'));
	return loopback ? undefined : `url is not on this machine (${host}); only 127.0.0.0/8, ::1 and localhost are used`;
}

/**
 * The servers for `dir`, best first: the lock files whose workspace folders contain `dir`, the
 * deepest folder first (a window on `/a/b` beats one on `/a` for `/a/b/c`); on a tie a VS Code
 * window beats a headless host, then the newest wins (`locks` come newest first).
 */
export function rankLockFiles(locks: readonly LockFileContent[], dir: string): LockFileContent[] {
	const targets = pathForms(dir);
	const ranked: { lock: LockFileContent; depth: number; editor: number; order: number }[] = [];
	for (const lock of locks) {
		if (!Array.isArray(lock.workspaceFolders)) {
			continue;
		}
		let depth = -1;
		for (const folder of lock.workspaceFolders) {
			for (const form of pathForms(folder)) {
				if (targets.some(t => isInsideFolder(form, t))) {
					depth = Math.max(depth, form.length);
				}
			}
		}
		if (depth >= 0) {
			ranked.push({ lock, depth, editor: lock.host === 'vscode' ? 1 : 0, order: ranked.length });
		}
	}
	return ranked.sort((a, b) => b.depth - a.depth || b.editor - a.editor || a.order - b.order).map(r => r.lock);
}

/** The best server for `dir` by {@link rankLockFiles}. */
export function pickLockFile(locks: readonly LockFileContent[], dir: string): LockFileContent | undefined {
	return rankLockFiles(locks, dir)[0];
}

function pathForms(p: string): string[] {
	const resolved = path.resolve(p);
	let real = resolved;
	try {
		real = realpathSync(resolved);
	} catch {
		// a folder that no longer exists still matches by name
	}
	return real === resolved ? [resolved] : [resolved, real];
}

/**
 * The running server that serves `dir`, read afresh from the lock files in `home` (a restarted
 * server has a new port and token): the best by {@link rankLockFiles} that something listens
 * for. A window that crashed leaves its lock file, and once another process has its pid the
 * file looks live: without this look it would win over the server that does run. When nothing
 * listens for any of them (a window restarting), the best one all the same.
 */
export async function findLockFile(dir: string, home = discoveryHome(), report: (message: string) => void = () => undefined): Promise<LockFileContent | undefined> {
	const ranked = rankLockFiles(await readLockFiles(home, report), dir);
	for (const [i, lock] of ranked.entries()) {
		if (await somethingListens(lock.url)) {
			ranked.slice(0, i).forEach(passed => report(`passed over the lock file of process ${passed.pid}: nothing listens at ${passed.url}`));
			return lock;
		}
	}
	return ranked[0];
}

/** Whether a TCP connection to the URL's port is accepted; a slow answer counts as yes (the client will find out). */
function somethingListens(url: string, timeoutMs = 1000): Promise<boolean> {
	const { hostname, port } = new URL(url);
	return new Promise(resolve => {
		const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) || 80 });
		const settle = (listens: boolean) => {
			socket.destroy();
			resolve(listens);
		};
		socket.once('connect', () => settle(true));
		socket.once('error', () => settle(false));
		socket.setTimeout(timeoutMs, () => settle(true));
	});
}
