import { IDisposable } from '../common/lifecycle';

/**
 * Runs `fn` at most once per `intervalMs`: the first call at once, calls during the interval
 * folded into one at its end. A held arrow key becomes a handful of runs per second.
 */
export class Throttle implements IDisposable {
	private lastRun = -Infinity;
	private timer: NodeJS.Timeout | undefined;
	private disposed = false;

	constructor(private readonly intervalMs: number, private readonly fn: () => void) {}

	trigger(): void {
		if (this.disposed || this.timer) {
			return;
		}
		const wait = this.lastRun + this.intervalMs - performance.now();
		if (wait <= 0) {
			this.run();
		} else {
			this.timer = setTimeout(() => {
				this.timer = undefined;
				this.run();
			}, wait);
		}
	}

	private run(): void {
		this.lastRun = performance.now();
		this.fn();
	}

	dispose(): void {
		this.disposed = true;
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
	}
}
