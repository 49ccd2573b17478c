// Waiting for apt and dpkg's locks instead of failing on them. Another apt-get (a person's, an
// agent's, unattended-upgrades) holds them for seconds to minutes; provisioning waits for it,
// bounded, and says whom it waits for.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatDuration } from './progress.js';
import { ProvisionError } from './provisionError.js';

/** The locks apt-get update and apt-get install take (dpkg's, the package lists', the download cache's). */
export const APT_LOCK_FILES: readonly string[] = ['/var/lib/dpkg/lock-frontend', '/var/lib/dpkg/lock', '/var/lib/apt/lists/lock', '/var/cache/apt/archives/lock'];

/** What apt-get prints when it finds one of those locks taken (it exits 100). */
export const APT_LOCK_MESSAGE = /Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock (?:the )?(?:administration )?directory/;

/** How long provisioning waits for another apt or dpkg to finish before it gives up and says so. */
export const APT_LOCK_WAIT_MS = 10 * 60_000;

export interface LockHolder { pid: number; command: string }

/**
 * The processes that have one of `lockFiles` open, found through `/proc/<pid>/fd` (apt and dpkg
 * open a lock file only to lock it, so an open one is a held or awaited lock). Root sees every
 * process, which is when apt-get runs here at all. This process is left out.
 */
export function aptLockHolders(lockFiles: readonly string[] = APT_LOCK_FILES, procRoot = '/proc'): LockHolder[] {
	const wanted = new Set(lockFiles);
	const holders: LockHolder[] = [];
	let entries: string[] = [];
	try { entries = fs.readdirSync(procRoot); } catch { return []; }
	for (const name of entries) {
		if (!/^\d+$/.test(name) || Number(name) === process.pid) { continue; }
		let fds: string[];
		try { fds = fs.readdirSync(path.join(procRoot, name, 'fd')); } catch { continue; }
		const holds = fds.some(fd => {
			try { return wanted.has(fs.readlinkSync(path.join(procRoot, name, 'fd', fd))); } catch { return false; }
		});
		if (holds) {
			let command = '?';
			try { command = fs.readFileSync(path.join(procRoot, name, 'comm'), 'utf8').trim() || '?'; } catch { /* exited meanwhile */ }
			holders.push({ pid: Number(name), command });
		}
	}
	return holders;
}

/** `apt-get (pid 812), unattended-upgr (pid 90)` */
export function describeHolders(holders: readonly LockHolder[]): string {
	return holders.map(h => `${h.command} (pid ${h.pid})`).join(', ');
}

/** The world `runAptWaitingForLock` lives in; tests give it a fake clock and fake holders. */
export interface AptLockOptions {
	holders?: () => LockHolder[];
	timeoutMs?: number;
	pollMs?: number;
	/** How often a line says the wait goes on. */
	reportEveryMs?: number;
	now?: () => number;
	sleep?: (ms: number) => Promise<void>;
	report?: (line: string) => void;
}

/** One apt-get run: its exit code and what it printed to stderr (it is also shown to the person). */
export interface AptRun { code: number | null; stderr: string }

/**
 * Runs `run` (an apt-get command, `what` names it) once no other process holds apt's locks,
 * waiting up to `timeoutMs` in all and saying whom it waits for; when apt-get itself still
 * finds a lock taken (someone took it in between), waits again. Throws a ProvisionError saying
 * what to do when the wait runs out or apt-get fails for another reason.
 */
export async function runAptWaitingForLock(what: string, run: () => Promise<AptRun>, options: AptLockOptions = {}): Promise<void> {
	const holders = options.holders ?? (() => aptLockHolders());
	const timeoutMs = options.timeoutMs ?? APT_LOCK_WAIT_MS;
	const pollMs = options.pollMs ?? 1000;
	const reportEveryMs = options.reportEveryMs ?? 15_000;
	const now = options.now ?? Date.now;
	const sleep = options.sleep ?? (ms => new Promise<void>(resolve => setTimeout(resolve, ms)));
	const report = options.report ?? (line => process.stderr.write(`[provision] ${line}\n`));
	const started = now();
	const deadline = started + timeoutMs;
	let lastReport = -Infinity;
	let lastHolders: LockHolder[] = [];

	const waitForFreeLock = async (): Promise<void> => {
		for (let busy = holders(); busy.length > 0; busy = holders()) {
			lastHolders = busy;
			if (now() >= deadline) {
				throw new ProvisionError(`${describeHolders(busy)} still holds the apt/dpkg lock after ${formatDuration(now() - started)}: `
					+ 'let it finish (or stop it if it is stuck), then run this again.');
			}
			if (now() - lastReport >= reportEveryMs) {
				report(`waiting for ${describeHolders(busy)} to release the apt/dpkg lock (${formatDuration(now() - started)} so far, giving up after ${formatDuration(timeoutMs)})`);
				lastReport = now();
			}
			await sleep(pollMs);
		}
	};

	for (;;) {
		await waitForFreeLock();
		const result = await run();
		if (result.code === 0) { return; }
		if (!APT_LOCK_MESSAGE.test(result.stderr)) {
			throw new ProvisionError(`${what} failed (exit ${result.code ?? 'by a signal'}); its output is above. Fix what it says, then run this again.`);
		}
		if (now() >= deadline) {
			const whom = lastHolders.length > 0 ? describeHolders(lastHolders) : 'another apt or dpkg';
			throw new ProvisionError(`${what} kept finding the apt/dpkg lock taken (last by ${whom}) for ${formatDuration(now() - started)}: `
				+ 'let the other package manager finish, then run this again.');
		}
		report(`${what} found the apt/dpkg lock taken; waiting for it again`);
		lastReport = now();
		await sleep(pollMs);
	}
}
