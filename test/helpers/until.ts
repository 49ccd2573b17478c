import { Event } from '../../src/common/event';

/**
 * Resolves when `predicate` holds, re-checked each time `event` fires; fails after `timeoutMs`
 * naming `what` (and `detail()`, such as a child process's stderr, when given).
 */
export function until(event: Event<unknown>, predicate: () => boolean, what: string, timeoutMs = 5000, detail?: () => string): Promise<void> {
	return new Promise((resolve, reject) => {
		if (predicate()) {
			resolve();
			return;
		}
		const timer = setTimeout(() => {
			sub.dispose();
			reject(new Error(`timed out waiting for ${what}${detail ? `; ${detail()}` : ''}`));
		}, timeoutMs);
		const sub = event(() => {
			if (predicate()) {
				clearTimeout(timer);
				sub.dispose();
				resolve();
			}
		});
	});
}
