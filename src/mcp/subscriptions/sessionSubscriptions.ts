import { IDisposable, nothingToDispose } from '../../common/lifecycle';
import { formatBytes } from '../../core/errors';

/**
 * The resources one 2025 session asked to hear about (`resources/subscribe`). 2026-07-28 listen
 * streams are filtered and bounded in listenFilter.ts and held in ListenedUris instead: the
 * SDK's listen router keeps their subscriptions.
 */
export interface SubscriptionStore {
	/**
	 * Subscribes to `uri`, keeping `hold` (what the providers hold to notify it) until the
	 * subscription ends; a URI already subscribed keeps the hold it has and lets go of this one.
	 * Throws (keeping nothing) past the caps.
	 */
	add(uri: string, hold?: IDisposable): void;
	delete(uri: string): void;
	has(uri: string): boolean;
	readonly size: number;
	values(): Iterable<string>;
	clear(): void;
}

/** Per-session caps, so a client cannot make the server hold unbounded state. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 10_000;
/** ... in bytes too: many long URIs would otherwise pin memory under the count cap. */
export const MAX_SUBSCRIPTION_BYTES_PER_SESSION = 1024 * 1024;

/** A subscription the session's caps do not leave room for. */
export class SubscriptionLimit extends RangeError {}

interface Subscription {
	readonly bytes: number;
	readonly hold: IDisposable;
}

export class SessionSubscriptions implements SubscriptionStore {
	private readonly uris = new Map<string, Subscription>();
	private total = 0;

	constructor(
		private readonly maxCount = MAX_SUBSCRIPTIONS_PER_SESSION,
		private readonly maxBytes = MAX_SUBSCRIPTION_BYTES_PER_SESSION,
	) {}

	/** Bytes of the URIs held (UTF-8). */
	get bytes(): number {
		return this.total;
	}

	add(uri: string, hold: IDisposable = nothingToDispose): void {
		if (this.uris.has(uri)) {
			hold.dispose();
			return;
		}
		if (this.uris.size >= this.maxCount) {
			throw new SubscriptionLimit(`At most ${this.maxCount} subscriptions per session; unsubscribe from some first`);
		}
		const bytes = Buffer.byteLength(uri, 'utf8');
		if (this.total + bytes > this.maxBytes) {
			throw new SubscriptionLimit(`At most ${formatBytes(this.maxBytes)} of subscribed URIs per session; unsubscribe from some first`);
		}
		this.uris.set(uri, { bytes, hold });
		this.total += bytes;
	}
	delete(uri: string): void {
		const subscription = this.uris.get(uri);
		if (subscription) {
			this.total -= subscription.bytes;
			this.uris.delete(uri);
			subscription.hold.dispose();
		}
	}
	has(uri: string): boolean {
		return this.uris.has(uri);
	}
	get size(): number {
		return this.uris.size;
	}
	values(): Iterable<string> {
		return this.uris.keys();
	}
	clear(): void {
		const ended = [...this.uris.values()];
		this.uris.clear();
		this.total = 0;
		for (const subscription of ended) {
			subscription.hold.dispose();
		}
	}
}

/** The subscribed URIs among `updated`, iterating whichever side is smaller. */
export function subscribedAmong(store: SubscriptionStore, updated: readonly string[]): string[] {
	if (store.size === 0) {
		return [];
	}
	if (updated.length <= store.size) {
		return [...new Set(updated.filter(uri => store.has(uri)))];
	}
	const changed = new Set(updated);
	return [...store.values()].filter(uri => changed.has(uri));
}
