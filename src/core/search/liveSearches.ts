import { Emitter } from '../../common/event';
import { Disposable, IDisposable } from '../../common/lifecycle';
import { InvalidParams } from '../errors';
import { Throttle } from '../throttle';

/** Searches held live at once, for every client together: each one runs again after a change. */
export const MAX_LIVE_SEARCHES = 100;

interface Held {
	/** The answer clients last heard about (or read when they subscribed). */
	answer: string;
	holders: number;
}

/**
 * The search URIs clients subscribed to, with the answer each had: after the files change, each
 * is answered again (at most once per `intervalMs`, changes meanwhile folded into one run), and
 * `changed` is told only the URIs whose answer differs.
 */
export class LiveSearches extends Disposable {
	private readonly held = new Map<string, Held>();
	private readonly rerun: Throttle;
	private running: Promise<void> | undefined;
	private runAgain = false;
	private readonly ranEmitter = this._register(new Emitter<void>());
	/** Every held search was answered again (tests wait on it: a change that altered no answer says nothing else). */
	readonly onDidRun = this.ranEmitter.event;

	constructor(
		intervalMs: number,
		private readonly answer: (uri: string) => Promise<string>,
		private readonly changed: (uris: string[]) => void,
	) {
		super();
		this.rerun = this._register(new Throttle(intervalMs, () => void this.runAll()));
	}

	get size(): number {
		return this.held.size;
	}

	/** Holds `uri` until the result is disposed; `answer` is what the client may be taken to know. */
	hold(uri: string, answer: string): IDisposable {
		let held = this.held.get(uri);
		if (!held) {
			if (this.held.size >= MAX_LIVE_SEARCHES) {
				throw new InvalidParams(`At most ${MAX_LIVE_SEARCHES} searches are followed live at once; unsubscribe from some first`);
			}
			held = { answer, holders: 0 };
			this.held.set(uri, held);
		}
		held.holders++;
		let released = false;
		return {
			dispose: () => {
				if (released) {
					return;
				}
				released = true;
				if (--held.holders === 0 && this.held.get(uri) === held) {
					this.held.delete(uri);
				}
			},
		};
	}

	/** The files changed: answers may differ. */
	trigger(): void {
		if (this.held.size > 0) {
			this.rerun.trigger();
		}
	}

	private async runAll(): Promise<void> {
		if (this.running) {
			this.runAgain = true;
			return;
		}
		this.running = (async () => {
			const changed: string[] = [];
			for (const [uri, held] of [...this.held]) {
				try {
					const answer = await this.answer(uri);
					if (answer !== held.answer && this.held.get(uri) === held) {
						held.answer = answer;
						changed.push(uri);
					}
				} catch {
					// The search failed this time (the index is being replaced): the next change asks again.
				}
			}
			if (changed.length > 0 && !this.isDisposed) {
				this.changed(changed);
			}
			this.ranEmitter.fire();
		})();
		await this.running;
		this.running = undefined;
		if (this.runAgain && !this.isDisposed) {
			this.runAgain = false;
			this.rerun.trigger();
		}
	}
}
