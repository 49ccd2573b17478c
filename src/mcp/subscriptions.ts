/**
 * The resources one session asked to hear about. Kept behind this interface so a second
 * front (the 2026-07-28 revision's `subscriptions/listen`) can share it with
 * `resources/subscribe` without touching providers or the change stream.
 */
export interface SubscriptionStore {
	add(uri: string): void;
	delete(uri: string): void;
	has(uri: string): boolean;
	readonly size: number;
	values(): Iterable<string>;
	clear(): void;
}

/** Per-session cap, so a client cannot make the server hold unbounded state. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 10_000;

export class SessionSubscriptions implements SubscriptionStore {
	private readonly uris = new Set<string>();

	add(uri: string): void {
		if (!this.uris.has(uri) && this.uris.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
			throw new RangeError(`At most ${MAX_SUBSCRIPTIONS_PER_SESSION} subscriptions per session`);
		}
		this.uris.add(uri);
	}
	delete(uri: string): void {
		this.uris.delete(uri);
	}
	has(uri: string): boolean {
		return this.uris.has(uri);
	}
	get size(): number {
		return this.uris.size;
	}
	values(): Iterable<string> {
		return this.uris.values();
	}
	clear(): void {
		this.uris.clear();
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
