import { Emitter } from '../common/event';
import { Disposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import type { ServerConnection } from './serverConnection';

/** What a LiveRead needs of its server's connection. */
export type LiveReadConnection = Pick<ServerConnection, 'label' | 'subscribe' | 'whenSubscribed' | 'onDidUpdateResource' | 'onDidConnect'>;

/** One result of a LiveRead's reads. */
export interface LiveAnswer<T> {
	readonly answer: T;
	/** The first read (the rest follow `updated` notifications or a new connection). */
	readonly first: boolean;
}

/**
 * One resource of one server, read now and kept current while held: once first read, subscribed
 * through the connection (listen or subscribe, shared with any other holder of the URI), and read
 * again when the server says it changed. Reads never overlap: an update while one is on its way
 * asks for one more after it, however many updates came, so the last answer heard is the newest.
 * A server that does not take the subscription is read once. Disposing it aborts its read and
 * releases the subscription.
 */
export class LiveRead<T> extends Disposable {
	private readonly answerEmitter = this._register(new Emitter<LiveAnswer<T>>());
	/** A read finished (never after disposal). */
	readonly onDidAnswer = this.answerEmitter.event;
	private readonly controller = new AbortController();
	private reading = false;
	private again = false;
	private reads = 0;
	/** Subscribed (after the first answer). */
	private held = false;

	/** `read` reads `uri` once; a read that throws is logged and shows nothing (make a failure an answer to show it). */
	constructor(
		private readonly connection: LiveReadConnection,
		readonly uri: string,
		private readonly read: (signal: AbortSignal) => Promise<T>,
		private readonly log: Logger,
	) {
		super();
		this._register({ dispose: () => this.controller.abort() });
		this.refresh();
	}

	/**
	 * Subscribes once the first read is answered: taken beside it, the subscription makes the
	 * server answer the same URI twice at once and the first answer comes later (a search read
	 * took several times as long, docs/performance.md); held back, a URI let go before its first
	 * answer (a query typed past) is never subscribed at all.
	 */
	private hold(): void {
		this._register(this.connection.subscribe(this.uri));
		this._register(this.connection.onDidUpdateResource(updated => {
			if (updated === this.uri) {
				this.refresh();
			}
		}));
		// Updates sent while there was no connection were lost with it: read again once the new one holds the subscription.
		this._register(this.connection.onDidConnect(() => this.whenHeld()));
		this.whenHeld();
	}

	/**
	 * The server only notifies answers that differ from the one it had when it took the
	 * subscription, so a change between the first read and the subscription would go unheard:
	 * once the server holds it, one more read closes that gap (an unchanged answer shows nothing
	 * new). A server that does not take it is read once.
	 */
	private whenHeld(): void {
		void this.connection.whenSubscribed(this.uri).then(held => {
			if (this.isDisposed) {
				return;
			}
			if (held) {
				this.refresh();
			} else {
				this.log.debug(`picker: ${this.uri} on ${this.connection.label} is read once: the server did not take the subscription`);
			}
		});
	}

	private refresh(): void {
		if (this.isDisposed) {
			return;
		}
		if (this.reading) {
			this.again = true;
			return;
		}
		this.reading = true;
		const first = this.reads++ === 0;
		void this.read(this.controller.signal).then(
			answer => this.answered({ answer, first }),
			err => {
				this.log.debug(`picker: reading ${this.uri} on ${this.connection.label} failed: ${(err as Error).message}`);
				this.answered(undefined);
			},
		);
	}

	private answered(answer: LiveAnswer<T> | undefined): void {
		if (this.isDisposed) {
			return;
		}
		this.reading = false;
		if (!this.held) {
			this.held = true;
			this.hold();
		}
		if (answer) {
			this.answerEmitter.fire(answer);
		}
		if (this.again) {
			this.again = false;
			this.refresh();
		}
	}
}
