import { Emitter, Event } from '../../common/event';
import { Disposable } from '../../common/lifecycle';
import { IndexProgress, SearchBackend } from './ports';

/** How often the backend is asked how far it is, while it builds. */
const POLL_MS = 500;

/**
 * How far the search index is while it reads files, for a progress display: the backend is
 * asked every half second from the moment it is given files until it has read them all, and
 * never when nobody listens or nothing is left to read. `undefined` once it is done.
 */
export class IndexBuildProgress extends Disposable {
	private readonly emitter = this._register(new Emitter<IndexProgress | undefined>());
	readonly onDidChange: Event<IndexProgress | undefined> = this.emitter.event;
	private timer: NodeJS.Timeout | undefined;
	private shown = false;
	/** Counts `done`s: a question asked before one is not followed up. */
	private round = 0;

	/** `filesGiven`: fires whenever the backend was given files (a whole list, or changes). */
	constructor(private readonly backend: SearchBackend, filesGiven: Event<void>, private readonly pollMs = POLL_MS) {
		super();
		this._register(filesGiven(() => this.start()));
		if (backend.onDidIndex) {
			this._register(backend.onDidIndex(() => this.done()));
		}
		this._register({ dispose: () => this.timer && clearTimeout(this.timer) });
	}

	private start(): void {
		if (!this.timer && this.emitter.listenerCount > 0 && !this.isDisposed) {
			this.timer = setTimeout(() => void this.poll(), this.pollMs);
		}
	}

	private async poll(): Promise<void> {
		const round = this.round;
		const progress = await this.backend.progress().catch(() => undefined);
		if (this.isDisposed || round !== this.round) {
			return;
		}
		this.timer = undefined;
		if (!progress || progress.indexed >= progress.total) {
			this.done();
			return;
		}
		this.shown = true;
		this.emitter.fire(progress);
		this.start();
	}

	private done(): void {
		this.round++;
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		if (this.shown) {
			this.shown = false;
			this.emitter.fire(undefined);
		}
	}
}
