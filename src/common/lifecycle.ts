/** Something that holds resources until disposed. `dispose` must be idempotent. */
export interface IDisposable {
	dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
	let done = false;
	return {
		dispose() {
			if (!done) {
				done = true;
				fn();
			}
		},
	};
}

/** Owns a set of disposables and disposes them together, in reverse order of adding. */
export class DisposableStore implements IDisposable {
	private readonly items: IDisposable[] = [];
	private disposed = false;

	get isDisposed(): boolean {
		return this.disposed;
	}

	add<T extends IDisposable>(item: T): T {
		if (this.disposed) {
			item.dispose();
		} else {
			this.items.push(item);
		}
		return item;
	}

	/** Disposes everything added so far but stays usable. */
	clear(): void {
		const items = this.items.splice(0).reverse();
		for (const item of items) {
			try {
				item.dispose();
			} catch {
				// One failing disposable must not keep the others alive.
			}
		}
	}

	dispose(): void {
		if (!this.disposed) {
			this.disposed = true;
			this.clear();
		}
	}
}

/** Base class for objects that own disposables (the `_register` pattern of VS Code). */
export abstract class Disposable implements IDisposable {
	private readonly store = new DisposableStore();

	protected get isDisposed(): boolean {
		return this.store.isDisposed;
	}

	protected _register<T extends IDisposable>(item: T): T {
		return this.store.add(item);
	}

	dispose(): void {
		this.store.dispose();
	}
}

/** What an API that hands back a disposable returns when it took nothing to let go of. */
export const nothingToDispose: IDisposable = Object.freeze({ dispose: () => undefined });
