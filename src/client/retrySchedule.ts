/**
 * When to try again after failures: the delays one after another, the last one repeating, and
 * the one retry pending at a time.
 */
export class RetrySchedule {
	private attempt = 0;
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly delaysMs: readonly number[]) {}

	/** The delay before the next attempt; each call moves one step along the schedule. */
	nextDelay(): number {
		const delay = this.delaysMs[Math.min(this.attempt, this.delaysMs.length - 1)];
		this.attempt++;
		return delay;
	}

	/** After a success (or a deliberate retry), the next failure waits the first delay again. */
	reset(): void {
		this.attempt = 0;
	}

	/** Runs `retry` after `delayMs`, instead of any retry pending. Does not keep the process alive. */
	start(delayMs: number, retry: () => void): void {
		this.cancel();
		this.timer = setTimeout(() => {
			this.timer = undefined;
			retry();
		}, delayMs);
		this.timer.unref?.();
	}

	cancel(): void {
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
	}
}
