import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/**
 * Linux gives each thread its own nice value: a worker's thread then gives way to the event loops
 * of this process (and to other processes) when the cores are busy, and still runs at full speed
 * on idle ones. Elsewhere, or if not allowed, the thread keeps the process's priority.
 */
export function giveWayToEventLoops(): void {
	try {
		const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
		if (Number.isInteger(tid) && tid !== process.pid) {
			setPriority(tid, constants.priority.PRIORITY_BELOW_NORMAL);
		}
	} catch {
		// No /proc (not Linux): nothing to do.
	}
}
