// What the host-scale bench reads of the editor from outside: the extension host's process, the
// server's lock file, the extension's log line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findLogs } from '../lib/codeServer.js';
import { descendants } from '../lib/processes.js';
import { now, round, sleep } from './measurement.js';

/** Polls `fn` every `everyMs` until it returns a value other than undefined/false. */
export async function until<T>(fn: () => T | undefined | false | null | Promise<T | undefined | false | null>, what: string, timeoutMs = 120_000, everyMs = 20): Promise<T> {
	const deadline = now() + timeoutMs;
	for (;;) {
		const v = await fn();
		if (v !== undefined && v !== false && v !== null) return v as T;
		if (now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await sleep(everyMs);
	}
}

const cmdline = (pid: number) => {
	try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '); } catch { return ''; }
};

/** The extension host of this code-server: a descendant whose command line says so. */
export function findExtensionHost(serverPid: number | undefined): number | undefined {
	if (serverPid === undefined) return undefined;
	return descendants(serverPid).find(pid => /--type=extensionHost/.test(cmdline(pid)));
}

/** The server's lock file (its URL, token and pid), once written. */
export function readLockFile(home: string): { url: string; token: string; pid: number } | undefined {
	const dir = path.join(home, 'servers');
	if (!fs.existsSync(dir)) return undefined;
	const file = fs.readdirSync(dir).find(f => f.endsWith('.json'));
	if (!file) return undefined;
	try { return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { url: string; token: string; pid: number }; } catch { return undefined; /* being written */ }
}

/** The extension's "indexed N files in X ms" line in its output channel's log file, once there. */
export function indexLine(userDataDir: string): { files: number; ms: number } | undefined {
	const file = findLogs(userDataDir).find(f => f.endsWith('MCP Resources.log'));
	if (!file) return undefined;
	const m = /indexed ([\d,]+) files in ([\d,]+) ms/.exec(fs.readFileSync(file, 'utf8'));
	return m ? { files: Number(m[1].replace(/,/g, '')), ms: Number(m[2].replace(/,/g, '')) } : undefined;
}

/** KiB to MiB, one decimal. */
export const mib = (kib: number | null | undefined) => (kib === null || kib === undefined ? null : round(kib / 1024, 1));
