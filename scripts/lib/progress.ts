// How the tooling's long steps say what they do and how far they are: a numbered step line, then,
// while the step runs, a line every so often with the time spent and what has been done so far.

/** `75_000` -> `1m15s`; under a minute, `42s`. */
export function formatDuration(ms: number): string {
	const seconds = Math.max(0, Math.round(ms / 1000));
	return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/** What a heartbeat needs from the world; the defaults are the real clock and timers. */
export interface HeartbeatOptions {
	everyMs?: number;
	now?: () => number;
	setInterval?: (tick: () => void, ms: number) => { unref?(): unknown };
	clearInterval?: (timer: { unref?(): unknown }) => void;
}

/**
 * Calls `report` every `everyMs` with `still <doing>: <time so far>` and, when `describe` has
 * something to say, how far the step is (`312 packages in place`). Returns the function that
 * stops it; the timer never keeps the process alive on its own.
 */
export function heartbeat(doing: string, report: (line: string) => void, describe: () => string | undefined = () => undefined, options: HeartbeatOptions = {}): () => void {
	const now = options.now ?? Date.now;
	const started = now();
	const start = options.setInterval ?? ((tick, ms) => setInterval(tick, ms));
	const stop = options.clearInterval ?? (timer => clearInterval(timer as NodeJS.Timeout));
	const timer = start(() => {
		let detail: string | undefined;
		try { detail = describe(); } catch { detail = undefined; }
		report(`still ${doing}: ${formatDuration(now() - started)}${detail ? `, ${detail}` : ''}`);
	}, options.everyMs ?? 20_000);
	timer.unref?.();
	return () => stop(timer);
}
