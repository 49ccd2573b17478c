import { Disposable, IDisposable, toDisposable } from '../../common/lifecycle';
import { Throttle } from '../throttle';

/** What a live answer is: its text, and the files it was made from (its changes are what make it stale). */
export interface Answer {
	readonly text: string;
	/** Absolute paths; undefined when any change may change the answer. */
	readonly involved?: ReadonlySet<string>;
}

interface Held {
	count: number;
	last: Answer | undefined;
}

/**
 * Subscribed queries (a symbol search, a relation) answered again when what they depend on
 * changes: only `updated` for those whose answer differs, so a client is not told of every
 * keystroke in a file its answer does not change with. Reruns are throttled.
 */
export class LiveAnswers extends Disposable {
	private readonly held = new Map<string, Held>();
	private readonly due = new Set<string>();
	private readonly throttle: Throttle;
	private running = false;
	private again = false;

	constructor(
		private readonly answer: (uri: string) => Promise<Answer>,
		private readonly fire: (updated: string[]) => void,
		throttleMs: number,
	) {
		super();
		this.throttle = this._register(new Throttle(throttleMs, () => void this.recheck()));
	}

	/** Keeps `uri` live until the result is disposed, with its answer now as what changes are told against. */
	async hold(uri: string): Promise<IDisposable> {
		let held = this.held.get(uri);
		if (!held) {
			held = { count: 0, last: undefined };
			this.held.set(uri, held);
			held.last = await this.answer(uri).catch(() => undefined);
		}
		held.count++;
		const entry = held;
		return toDisposable(() => {
			if (--entry.count === 0 && this.held.get(uri) === entry) {
				this.held.delete(uri);
				this.due.delete(uri);
			}
		});
	}

	/** Files changed (absolute paths; none given: anything may have): the answers made from them are asked again. */
	changed(absPaths?: readonly string[]): void {
		for (const [uri, held] of this.held) {
			const involved = held.last?.involved;
			if (!absPaths || !involved || absPaths.some(p => involved.has(p))) {
				this.due.add(uri);
			}
		}
		if (this.due.size > 0) {
			this.throttle.trigger();
		}
	}

	/** Held URIs now (tests). */
	get size(): number {
		return this.held.size;
	}

	private async recheck(): Promise<void> {
		if (this.running) {
			this.again = true;
			return;
		}
		this.running = true;
		try {
			const uris = [...this.due];
			this.due.clear();
			const updated: string[] = [];
			for (const uri of uris) {
				const held = this.held.get(uri);
				if (!held || this.isDisposed) {
					continue;
				}
				const next = await this.answer(uri).catch(() => undefined);
				if (next?.text !== held.last?.text) {
					updated.push(uri);
				}
				held.last = next;
			}
			if (updated.length > 0 && !this.isDisposed) {
				this.fire(updated);
			}
		} finally {
			this.running = false;
			if (this.again) {
				this.again = false;
				this.throttle.trigger();
			}
		}
	}
}
