// The one way the tooling runs child processes and cleans up after itself:
//   - spawnGroup: a long-running child in its own process group, stopped with its whole tree;
//   - runCommand: a command run to completion, rejecting on failure; runCaptured: the same,
//     resolving with its exit code and output whatever happens (for checks that report them);
//   - killAtExit: a synchronous last step when this process exits, however it exits;
//   - cleanupStack / onInterrupt: undo steps run once, on a normal end or on SIGINT/SIGTERM/SIGHUP.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import * as fs from 'node:fs';

/** All descendants of `pid` (children first seen through /proc/<pid>/stat's ppid field). */
export function descendants(pid: number): number[] {
	const byParent = new Map<number, number[]>();
	let entries: string[] = [];
	try { entries = fs.readdirSync('/proc'); } catch { return []; }
	for (const name of entries) {
		if (!/^\d+$/.test(name)) { continue; }
		try {
			const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			// Field 4 is the ppid; the command name (field 2) may contain spaces and parentheses.
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			const siblings = byParent.get(ppid) ?? [];
			siblings.push(Number(name));
			byParent.set(ppid, siblings);
		} catch { /* exited meanwhile */ }
	}
	const out: number[] = [];
	const queue = [pid];
	for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
		for (const child of byParent.get(next) ?? []) { out.push(child); queue.push(child); }
	}
	return out;
}

export function isAlive(pid: number): boolean {
	try { process.kill(pid, 0); return true; } catch { return false; }
}

function signal(target: number, sig: NodeJS.Signals): void {
	try { process.kill(target, sig); } catch { /* already gone */ }
}

const atExit = new Set<() => void>();
/**
 * Runs `kill` synchronously when this process exits (normally, by process.exit, or after an
 * interrupt): the last resort that leaves no child running. Returns a function that removes it.
 */
export function killAtExit(kill: () => void): () => void {
	atExit.add(kill);
	return () => { atExit.delete(kill); };
}
/** killAtExit for a process this script did not start itself (e.g. the SDK's stdio transport). */
export function killPidAtExit(pid: number | undefined): () => void {
	return pid === undefined ? () => undefined : killAtExit(() => signal(pid, 'SIGKILL'));
}
process.on('exit', () => {
	for (const kill of atExit) {
		try { kill(); } catch { /* best effort while exiting */ }
	}
	atExit.clear();
});

export interface GroupChild extends ChildProcess {
	/** Resolves when the child exited (or failed to start). */
	readonly exited: Promise<void>;
	/** SIGTERM to the group, SIGKILL after `graceMs`, then SIGKILL to any straggling descendant. */
	stop(graceMs?: number): Promise<void>;
}

/** Spawns `command` as the leader of a new process group (see GroupChild.stop). */
export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions = {}): GroupChild {
	const child = spawn(command, args, { ...options, detached: true });
	const exited = new Promise<void>(resolve => {
		if (child.exitCode !== null || child.signalCode !== null) { resolve(); }
		child.once('exit', () => resolve());
		child.once('error', () => resolve());
	});
	const untrack = killAtExit(() => {
		if (child.pid === undefined) { return; }
		for (const pid of descendants(child.pid)) { signal(pid, 'SIGKILL'); }
		signal(-child.pid, 'SIGKILL');
	});
	let stopping: Promise<void> | undefined;
	const stop = (graceMs = 5000) => stopping ??= (async () => {
		const pid = child.pid;
		if (pid === undefined) { untrack(); return; }
		const tree = descendants(pid);
		signal(-pid, 'SIGTERM');
		for (const p of tree) { signal(p, 'SIGTERM'); }
		const deadline = Date.now() + graceMs;
		while (Date.now() < deadline && [pid, ...tree].some(isAlive)) {
			await new Promise(r => setTimeout(r, 50));
		}
		signal(-pid, 'SIGKILL');
		for (const p of [...tree, ...descendants(pid)]) { if (isAlive(p)) { signal(p, 'SIGKILL'); } }
		await Promise.race([exited, new Promise(r => setTimeout(r, 2000))]);
		untrack();
	})();
	return Object.assign(child, { exited, stop });
}

let interruptedBy: NodeJS.Signals | undefined;
/** The signal that interrupted this runner, if any (so failures it causes are not reported as test failures). */
export function interruption(): NodeJS.Signals | undefined { return interruptedBy; }

const EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * Runs `cleanup` once on SIGINT/SIGTERM/SIGHUP, then exits with 128+signal (the killAtExit
 * steps run then). Returns a function that removes the handlers.
 */
export function onInterrupt(cleanup: () => unknown = () => undefined): () => void {
	let running = false;
	const handler = (sig: NodeJS.Signals) => {
		if (running) { return; }
		running = true;
		interruptedBy = sig;
		process.stderr.write(`\n${sig}: stopping...\n`);
		Promise.resolve().then(cleanup).catch(err => console.error(err)).finally(() => process.exit(EXIT_CODES[sig] ?? 129));
	};
	const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
	for (const sig of signals) { process.on(sig, handler); }
	return () => { for (const sig of signals) { process.off(sig, handler); } };
}

/** Runs a command to completion (inheriting stdio unless told otherwise); rejects on failure. */
export function runCommand(command: string, args: readonly string[], options: SpawnOptions = {}): Promise<string> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { stdio: 'inherit', ...options });
		let out = '';
		child.stdout?.on('data', d => { out += d; });
		child.stderr?.on('data', d => { out += d; });
		child.on('error', reject);
		child.on('exit', (code, sig) => code === 0 ? resolve(out)
			: reject(new Error(`${command} ${args.join(' ')} failed (${code ?? sig})${out ? `:\n${out}` : ''}`)));
	});
}

export interface CapturedRun { code: number | null; stdout: string; stderr: string }
export interface CaptureOptions { cwd?: string; env?: NodeJS.ProcessEnv; echo?: boolean; timeoutMs: number }

/**
 * Runs a command to completion with its output captured; resolves with its exit code and output
 * and never rejects (a failure to start or a timeout shows in `stderr`). Killed at exit if still running.
 */
export function runCaptured(command: string, args: readonly string[], options: CaptureOptions): Promise<CapturedRun> {
	return new Promise(resolve => {
		const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
		const untrack = killPidAtExit(child.pid);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', d => {
			stdout += d;
			if (options.echo) { process.stdout.write(d); }
		});
		child.stderr.on('data', d => {
			stderr += d;
			if (options.echo) { process.stderr.write(d); }
		});
		const timer = setTimeout(() => {
			stderr += `\n[timed out after ${options.timeoutMs} ms]`;
			child.kill('SIGKILL');
		}, options.timeoutMs);
		child.on('error', err => { stderr += String(err); });
		child.on('close', code => {
			clearTimeout(timer);
			untrack();
			resolve({ code, stdout, stderr });
		});
	});
}

export interface CleanupStack {
	push(step: () => unknown): void;
	run(): Promise<void>;
}

/**
 * A stack of undo steps for a runner: `push` after each setup step; `run` undoes them last
 * first, once, whether the runner ends normally or is interrupted (SIGINT/SIGTERM/SIGHUP).
 */
export function cleanupStack(): CleanupStack {
	const steps: (() => unknown)[] = [];
	let running: Promise<void> | undefined;
	const run = () => running ??= (async () => {
		for (let step = steps.pop(); step; step = steps.pop()) {
			try { await step(); } catch (err) { console.error('cleanup failed:', err); }
		}
	})();
	onInterrupt(run);
	return { push: step => { steps.push(step); }, run };
}

/** The npm executable for this platform. */
export const npmCommand = process.platform === 'win32' ? 'npm.cmd' : 'npm';
export const npxCommand = process.platform === 'win32' ? 'npx.cmd' : 'npx';
