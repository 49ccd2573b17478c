import { Client, McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import { IDisposable, toDisposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { isTransportFailure, shortMessage } from './clientErrors';

/** What became of a watched URI on the current connection. */
export interface WatchOutcome {
	/** The server agreed to send `resources/updated` for it (listen acknowledgement or subscribe result). */
	readonly honoured: boolean;
	/** The server's error answer to a 2025 `resources/subscribe`, when it refused one. */
	readonly error?: unknown;
}

/** What the watches need of the connection they ride on. */
export interface WatchHost {
	readonly log: Logger;
	/** `<prefix>: ... <label>` in log lines. */
	readonly logPrefix: string;
	readonly label: string;
	readonly backoffMs: readonly number[];
	/** The connected client, or undefined while there is none. */
	current(): Client | undefined;
	/** The connection failed under `client`: reconnect. */
	fail(err: unknown, client: Client): void;
	/** Holders should hear that the list, and each of these URIs, may have changed. */
	missed(uris: readonly string[]): void;
}

/** A listen stream that lived this long was healthy: its end restarts the backoff. */
const HEALTHY_STREAM_MS = 10_000;
const UNWATCHED: WatchOutcome = { honoured: false };

/**
 * The URIs a connection keeps live (reference counted), in either era: one
 * `subscriptions/listen` stream on 2026-07-28 (also for list changes; closed and opened again
 * when the set changes or the stream drops), `resources/subscribe` per URI on 2025. What the
 * server honoured comes from its own answer: the listen acknowledgement or the subscribe result.
 */
export class LiveWatches {
	private readonly watched = new Map<string, number>();
	/** The outcome of the latest watch request per URI, so callers can wait until the server has it. */
	private readonly watching = new Map<string, Promise<WatchOutcome>>();
	private readonly honoured = new Set<string>();

	private listenStream: McpSubscription | undefined;
	private listenRound: Promise<void> | undefined;
	/** The connection `listenRound` listens on. */
	private listenRoundClient: Client | undefined;
	private listenDirty = false;
	private listenDrops = 0;

	constructor(private readonly host: WatchHost) {}

	get uris(): string[] {
		return [...this.watched.keys()];
	}

	has(uri: string): boolean {
		return this.watched.has(uri);
	}

	/** Watches `uri` (once however many holders); dispose the result to release. */
	watch(uri: string): IDisposable {
		const count = this.watched.get(uri) ?? 0;
		this.watched.set(uri, count + 1);
		if (count === 0) {
			const client = this.host.current();
			this.watching.set(uri, client ? this.start(client, uri) : Promise.resolve(UNWATCHED));
		}
		let released = false;
		return toDisposable(() => {
			if (released) {
				return;
			}
			released = true;
			const left = (this.watched.get(uri) ?? 1) - 1;
			if (left > 0) {
				this.watched.set(uri, left);
				return;
			}
			this.watched.delete(uri);
			this.watching.delete(uri);
			this.stop(uri);
		});
	}

	/** Resolves once the server answered the latest watch request for `uri` (or it failed). */
	whenWatched(uri: string): Promise<WatchOutcome> {
		return this.watching.get(uri) ?? Promise.resolve(UNWATCHED);
	}

	/** Resolves once the listen stream (2026-07-28) is open for the current set. */
	async whenListening(): Promise<void> {
		while (this.listenRound) {
			await this.listenRound;
		}
	}

	/** A new connection: watch everything again on it (and, on 2026-07-28, listen for list changes). */
	connected(client: Client): void {
		this.listenDrops = 0;
		this.honoured.clear();
		for (const uri of this.watched.keys()) {
			this.watching.set(uri, this.start(client, uri));
		}
		if (client.getProtocolEra() === 'modern' && this.watched.size === 0) {
			void this.scheduleListen(client);
		}
	}

	/** The connection is gone: nothing is live until the next one. */
	disconnected(): void {
		const stream = this.listenStream;
		this.listenStream = undefined;
		this.listenDirty = false;
		this.honoured.clear();
		void stream?.close().catch(() => undefined);
	}

	private start(client: Client, uri: string): Promise<WatchOutcome> {
		if (client.getProtocolEra() === 'modern') {
			return this.scheduleListen(client).then(() => ({ honoured: this.honoured.has(uri) }));
		}
		return this.subscribe(client, uri);
	}

	private stop(uri: string): void {
		const client = this.host.current();
		const wasHonoured = this.honoured.delete(uri);
		if (!client) {
			return;
		}
		if (client.getProtocolEra() === 'modern') {
			void this.scheduleListen(client);
		} else if (wasHonoured) {
			void client.unsubscribeResource({ uri }).catch(() => undefined);
		}
	}

	private async subscribe(client: Client, uri: string): Promise<WatchOutcome> {
		if (!client.getServerCapabilities()?.resources?.subscribe) {
			return UNWATCHED;
		}
		try {
			await client.subscribeResource({ uri });
			if (this.host.current() === client && this.watched.has(uri)) {
				this.honoured.add(uri);
			}
			return { honoured: true };
		} catch (err) {
			this.host.log.warn(`${this.host.logPrefix}: could not subscribe to ${uri} on ${this.host.label}: ${shortMessage(err)}`);
			if (isTransportFailure(err) && this.host.current() === client) {
				this.host.fail(err, client);
			}
			return { honoured: false, error: err };
		}
	}

	/**
	 * Opens the listen stream again for the current set (coalesced: many watch changes at once
	 * make one round). The old stream closes only after the new one is acknowledged and what the
	 * old one carried until then has been read (`retire`), so no update falls between them.
	 */
	private scheduleListen(client: Client): Promise<void> {
		this.listenDirty = true;
		if (this.listenRound && this.listenRoundClient === client) {
			return this.listenRound;
		}
		// A round still running belongs to a connection that is gone (its listen failing is what
		// made the reconnect): the new connection's round follows it rather than being folded
		// into it, or the new connection would never listen.
		const before = this.listenRound ?? Promise.resolve();
		const round: Promise<void> = before.catch(() => undefined).then(() => this.runListen(client)).finally(() => {
			if (this.listenRound === round) {
				this.listenRound = undefined;
				this.listenRoundClient = undefined;
			}
		});
		this.listenRound = round;
		this.listenRoundClient = client;
		return round;
	}

	private async runListen(client: Client): Promise<void> {
		while (this.listenDirty && this.host.current() === client) {
			this.listenDirty = false;
			const filter = this.listenFilter(client);
			const previous = this.listenStream;
			if (!filter) {
				this.listenStream = undefined;
				this.honoured.clear();
				await previous?.close().catch(() => undefined);
				continue;
			}
			let stream: McpSubscription;
			try {
				stream = await client.listen(filter);
			} catch (err) {
				this.host.log.warn(`${this.host.logPrefix}: could not listen on ${this.host.label}: ${shortMessage(err)}`);
				if (isTransportFailure(err) && this.host.current() === client) {
					this.host.fail(err, client);
				}
				return;
			}
			if (this.host.current() !== client) {
				await stream.close().catch(() => undefined);
				return;
			}
			this.listenStream = stream;
			this.honoured.clear();
			for (const uri of stream.honoredFilter.resourceSubscriptions ?? []) {
				if (this.watched.has(uri)) {
					this.honoured.add(uri);
				}
			}
			this.followStream(client, stream);
			if (previous) {
				await this.retire(client, previous);
			}
		}
	}

	/**
	 * Closes the stream a new one replaced once nothing the server put on it can still be on its
	 * way. On HTTP the two streams are separate responses: an update the server published just
	 * before the new stream existed goes out on the old stream only, written no later than the new
	 * stream's acknowledgement, yet the client was seen to read that acknowledgement first, and
	 * closing the old stream then would drop the update unread. One round trip started after the
	 * acknowledgement puts them in order: the server wrote the old stream's updates before it read
	 * that request, so they are read before its answer.
	 */
	private async retire(client: Client, previous: McpSubscription): Promise<void> {
		try {
			await client.discover();
		} catch (err) {
			if (isTransportFailure(err) && this.host.current() === client) {
				this.host.fail(err, client);
			}
		}
		await previous.close().catch(() => undefined);
	}

	private listenFilter(client: Client): SubscriptionFilter | undefined {
		const { resources, tools } = client.getServerCapabilities() ?? {};
		const uris = resources?.subscribe ? [...this.watched.keys()] : [];
		const filter: SubscriptionFilter = {
			...(resources?.listChanged ? { resourcesListChanged: true } : {}),
			// For whoever relays the server's tools (the bridge); a change is rare, and ignored otherwise.
			...(tools?.listChanged ? { toolsListChanged: true } : {}),
			...(uris.length > 0 ? { resourceSubscriptions: uris } : {}),
		};
		return Object.keys(filter).length > 0 ? filter : undefined;
	}

	/**
	 * A stream that ends by itself (the server restarted or shut down) is opened again; whatever
	 * changed meanwhile was missed, so holders hear that the list and their resources changed.
	 * A failing re-listen is a lost connection and goes to the reconnect path.
	 */
	private followStream(client: Client, stream: McpSubscription): void {
		const openedAt = Date.now();
		void stream.closed.then(reason => {
			if (reason === 'local' || this.listenStream !== stream || this.host.current() !== client) {
				return;
			}
			this.listenStream = undefined;
			this.listenDrops = Date.now() - openedAt > HEALTHY_STREAM_MS ? 0 : this.listenDrops + 1;
			this.host.log.debug(`${this.host.logPrefix}: the listen stream on ${this.host.label} ended (${reason})`);
			const backoff = this.host.backoffMs;
			const delay = this.listenDrops <= 1 ? 0 : backoff[Math.min(this.listenDrops - 2, backoff.length - 1)];
			const timer = setTimeout(() => {
				if (this.host.current() !== client) {
					return;
				}
				void this.scheduleListen(client).then(() => {
					if (this.host.current() === client && this.listenStream) {
						this.host.missed([...this.honoured]);
					}
				});
			}, delay);
			timer.unref?.();
		});
	}
}
