/** Longest stretch of work between two turns of the event loop. */
const SLICE_MS = 8;

/**
 * Cuts long work (a walk, a sort, a batch of changes) into slices of a few milliseconds, so
 * that timers, I/O and other extensions run between them: the extension host is shared.
 */
export class EventLoopSlices {
	private sliceStart = performance.now();
	private readonly turnWaiters: (() => void)[] = [];
	private turnScheduled = false;

	/** `sliceMs`: shorter for work that runs while clients are already being served. */
	constructor(private readonly sliceMs = SLICE_MS) {}

	/**
	 * Whether this task must let the event loop turn first: undefined while the current slice of
	 * work lasts, else a promise that resolves in a later turn. Waiting tasks are let through one
	 * per turn of the loop, in the order they came, so a burst of finished directory reads
	 * cannot run back to back.
	 */
	pause(): Promise<void> | undefined {
		if (this.turnWaiters.length === 0 && performance.now() - this.sliceStart < this.sliceMs) {
			return undefined;
		}
		return new Promise<void>(resolve => {
			this.turnWaiters.push(resolve);
			this.scheduleTurn();
		});
	}

	private scheduleTurn(): void {
		if (this.turnScheduled) {
			return;
		}
		this.turnScheduled = true;
		setImmediate(() => {
			this.turnScheduled = false;
			this.sliceStart = performance.now();
			this.turnWaiters.shift()?.();
			if (this.turnWaiters.length > 0) {
				this.scheduleTurn();
			}
		});
	}
}
