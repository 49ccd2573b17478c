import { Emitter } from '../common/event';
import { IDisposable } from '../common/lifecycle';
import { ResourceChange } from './resource';

export interface ChangeTrackerOptions {
	/** Quiet time after the last change before flushing. */
	readonly debounceMs: number;
	/** Longest a change waits while changes keep coming. */
	readonly maxDelayMs: number;
	/** Shortest gap between two `listChanged` flushes, so bursts give clients a handful. */
	readonly listChangedIntervalMs: number;
}

export const defaultChangeTrackerOptions: ChangeTrackerOptions = {
	debounceMs: 30,
	maxDelayMs: 150,
	listChangedIntervalMs: 1000,
};

/**
 * Collects changes from every provider and flushes them coalesced and deduplicated: a held
 * key or a branch switch of 10,000 files becomes a few flushes, not thousands.
 */
export class ChangeTracker implements IDisposable {
	private readonly flushEmitter = new Emitter<ResourceChange>();
	readonly onDidFlush = this.flushEmitter.event;

	private pending = new Set<string>();
	/** The sources whose changes are in the pending batch. */
	private pendingSources = new Set<string>();
	private listChangedPending = false;
	private firstPendingAt = 0;
	private lastListChangedAt = -Infinity;
	private timer: NodeJS.Timeout | undefined;
	private disposed = false;

	constructor(private readonly options: ChangeTrackerOptions = defaultChangeTrackerOptions) {}

	/** How many sessions listen (a leak check for tests and diagnostics). */
	get listenerCount(): number {
		return this.flushEmitter.listenerCount;
	}

	/**
	 * Adds `change` from `source` (a provider) to the pending batch. Only a source already in
	 * the batch postpones it (its burst goes on); another source's first change rides along
	 * with the batch as it is due. A file written on disk also moves the relevance ranking a
	 * few milliseconds later: restarting the quiet time for that follow-up held the file's own
	 * `updated` back by up to another quiet time (the tail of the `updated` latency).
	 */
	push(change: ResourceChange, source = ''): void {
		if (this.disposed || (change.updated.length === 0 && !change.listChanged)) {
			return;
		}
		// A list_changed held back by its interval is not a batch to join: its timer is the interval's.
		const updatesPending = this.pending.size > 0;
		if (!updatesPending && !this.listChangedPending) {
			this.firstPendingAt = performance.now();
		}
		for (const uri of change.updated) {
			this.pending.add(uri);
		}
		this.listChangedPending ||= change.listChanged;
		const joins = updatesPending && this.timer !== undefined && !this.pendingSources.has(source);
		this.pendingSources.add(source);
		if (!joins) {
			this.schedule();
		}
	}

	private schedule(): void {
		const now = performance.now();
		let due = Math.min(now + this.options.debounceMs, this.firstPendingAt + this.options.maxDelayMs);
		if (this.listChangedPending && this.pending.size === 0) {
			due = Math.max(due, this.lastListChangedAt + this.options.listChangedIntervalMs);
		}
		if (this.timer) {
			clearTimeout(this.timer);
		}
		this.timer = setTimeout(() => this.flush(), Math.max(0, due - now));
	}

	/** Emits what is pending now (used by timers and by tests that want no waiting). */
	flush(): void {
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		const now = performance.now();
		const listChangedAllowed = now - this.lastListChangedAt >= this.options.listChangedIntervalMs;
		const listChanged = this.listChangedPending && listChangedAllowed;
		const updated = [...this.pending];
		this.pending = new Set();
		this.pendingSources = new Set();
		if (listChanged) {
			this.listChangedPending = false;
			this.lastListChangedAt = now;
		}
		if (updated.length > 0 || listChanged) {
			this.flushEmitter.fire({ updated, listChanged });
		}
		if (this.listChangedPending) {
			// Held back by the interval: send it when the interval ends.
			this.firstPendingAt = now;
			this.timer = setTimeout(() => this.flush(), this.lastListChangedAt + this.options.listChangedIntervalMs - now);
		}
	}

	dispose(): void {
		this.disposed = true;
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		this.flushEmitter.dispose();
	}
}
