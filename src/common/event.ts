import { IDisposable, nothingToDispose, toDisposable } from './lifecycle';

/** Subscribe with a listener; dispose the result to unsubscribe. */
export type Event<T> = (listener: (e: T) => void) => IDisposable;

export const Event = {
	None: ((() => nothingToDispose) as Event<never>),
};

/** Fires events to listeners. A throwing listener does not stop the others. */
export class Emitter<T> implements IDisposable {
	private listeners = new Set<(e: T) => void>();
	private disposed = false;

	constructor(private readonly onListenerError?: (err: unknown) => void) {}

	readonly event: Event<T> = listener => {
		if (this.disposed) {
			return nothingToDispose;
		}
		// Wrap so the same function can be added twice and removed independently.
		const entry = (e: T) => listener(e);
		this.listeners.add(entry);
		return toDisposable(() => this.listeners.delete(entry));
	};

	get listenerCount(): number {
		return this.listeners.size;
	}

	fire(e: T): void {
		for (const listener of [...this.listeners]) {
			try {
				listener(e);
			} catch (err) {
				this.onListenerError?.(err);
			}
		}
	}

	dispose(): void {
		this.disposed = true;
		this.listeners.clear();
	}
}
