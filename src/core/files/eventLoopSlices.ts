/** Longest stretch of work between two turns of the event loop. */
const SLICE_MS = 8;
/**
 * A turn that comes this much later than it was asked for found the loop held by other work
 * in between: in the editor, VS Code delivering a burst of file events to every extension's
 * watchers (the git extension reads its settings once per event: a long hold per delivery in a
 * branch switch). A slice run then would lengthen that same hold, since timers wait for both.
 */
const LATE_TURN_MS = 10;
/** Late turns passed on in a row at most, so that work still advances when the loop stays busy. */
const MAX_PASSED_TURNS = 3;

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
		this.askForTurn(0);
	}

	/**
	 * The next turn. One that comes late is passed on to the turn after (a setImmediate queued
	 * while immediates run waits for the next loop iteration, so timers run first).
	 */
	private askForTurn(passed: number): void {
		const askedAt = performance.now();
		setImmediate(() => {
			const now = performance.now();
			if (now - askedAt > LATE_TURN_MS && passed < MAX_PASSED_TURNS) {
				this.askForTurn(passed + 1);
				return;
			}
			this.turnScheduled = false;
			this.sliceStart = now;
			this.turnWaiters.shift()?.();
			if (this.turnWaiters.length > 0) {
				this.scheduleTurn();
			}
		});
	}
}
