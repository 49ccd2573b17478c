// Child processes that are always cleaned up: each is started in its own process group and
// stopped by signalling the group, then any descendant that escaped it (found through /proc).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';

const live = new Set();

/** All descendants of `pid` (children first seen through /proc/<pid>/stat's ppid field). */
export function descendants(pid) {
	const byParent = new Map();
	let entries = [];
	try { entries = fs.readdirSync('/proc'); } catch { return []; }
	for (const name of entries) {
		if (!/^\d+$/.test(name)) { continue; }
		try {
			const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			// Field 4 is the ppid; the command name (field 2) may contain spaces and parentheses.
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (!byParent.has(ppid)) { byParent.set(ppid, []); }
			byParent.get(ppid).push(Number(name));
		} catch { /* exited meanwhile */ }
	}
	const out = [];
	const queue = [pid];
	while (queue.length > 0) {
		for (const child of byParent.get(queue.shift()) ?? []) { out.push(child); queue.push(child); }
	}
	return out;
}

function isAlive(pid) {
	try { process.kill(pid, 0); return true; } catch { return false; }
}

function signal(target, sig) {
	try { process.kill(target, sig); } catch { /* already gone */ }
}

/**
 * Spawns `command` as the leader of a new process group. The returned child has `stop()`:
 * SIGTERM to the group, SIGKILL after `graceMs`, then SIGKILL to any straggling descendant.
 */
export function spawnGroup(command, args, options = {}) {
	const child = spawn(command, args, { ...options, detached: true });
	const exited = new Promise(resolve => {
		if (child.exitCode !== null || child.signalCode !== null) { resolve(); }
		child.once('exit', () => resolve());
		child.once('error', () => resolve());
	});
	child.exited = exited;
	live.add(child);
	let stopping;
	child.stop = (graceMs = 5000) => stopping ??= (async () => {
		if (child.pid === undefined) { live.delete(child); return; }
		const tree = descendants(child.pid);
		signal(-child.pid, 'SIGTERM');
		for (const pid of tree) { signal(pid, 'SIGTERM'); }
		const deadline = Date.now() + graceMs;
		while (Date.now() < deadline && [child.pid, ...tree].some(isAlive)) {
			await new Promise(r => setTimeout(r, 50));
		}
		signal(-child.pid, 'SIGKILL');
		for (const pid of [...tree, ...descendants(child.pid)]) { if (isAlive(pid)) { signal(pid, 'SIGKILL'); } }
		await Promise.race([exited, new Promise(r => setTimeout(r, 2000))]);
		live.delete(child);
	})();
	return child;
}

/** Last resort when the runner itself exits: kill every group still running, synchronously. */
function killAllSync() {
	for (const child of live) {
		if (child.pid === undefined) { continue; }
		for (const pid of descendants(child.pid)) { signal(pid, 'SIGKILL'); }
		signal(-child.pid, 'SIGKILL');
	}
	live.clear();
}
process.on('exit', killAllSync);

/**
 * Runs `cleanup` once on SIGINT/SIGTERM/SIGHUP, then exits with 128+signal. Returns a function
 * that removes the handlers.
 */
let interruptedBy;
/** The signal that interrupted this runner, if any (so failures it causes are not reported as test failures). */
export function interruption() { return interruptedBy; }

export function onInterrupt(cleanup) {
	let running = false;
	const handler = sig => {
		if (running) { return; }
		running = true;
		interruptedBy = sig;
		process.stderr.write(`\n${sig}: stopping...\n`);
		const code = 128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[sig] ?? 1);
		Promise.resolve().then(cleanup).catch(err => console.error(err)).finally(() => process.exit(code));
	};
	const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
	for (const sig of signals) { process.on(sig, handler); }
	return () => { for (const sig of signals) { process.off(sig, handler); } };
}

/** Runs a command to completion (inheriting stdio unless told otherwise); rejects on failure. */
export function runCommand(command, args, options = {}) {
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

/**
 * A stack of undo steps for a runner: `push` after each setup step; `run` undoes them last
 * first, once, whether the runner ends normally or is interrupted (SIGINT/SIGTERM/SIGHUP).
 */
export function cleanupStack() {
	const steps = [];
	let running;
	const run = () => running ??= (async () => {
		while (steps.length > 0) {
			try { await steps.pop()(); } catch (err) { console.error('cleanup failed:', err); }
		}
	})();
	onInterrupt(run);
	return { push: step => steps.push(step), run };
}
