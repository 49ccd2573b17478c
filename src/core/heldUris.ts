import { IDisposable, toDisposable } from '../common/lifecycle';

/**
 * URIs held for the subscriptions that need them (a 2025 `resources/subscribe`, a 2026-07-28
 * listen stream), each as many times as it is held: it goes when the last holder lets go. Nothing
 * is ever dropped to make room: dropping one would silently end some connected client's
 * notifications, and the holders' own caps (subscriptions per session, URIs per listen stream,
 * sessions and streams per server) already bound how many there are.
 */
export class HeldUris implements Iterable<string> {
	private readonly counts = new Map<string, number>();

	/** Holds `uri` until the result is disposed. */
	hold(uri: string): IDisposable {
		this.counts.set(uri, (this.counts.get(uri) ?? 0) + 1);
		return toDisposable(() => {
			const left = (this.counts.get(uri) ?? 1) - 1;
			if (left > 0) {
				this.counts.set(uri, left);
			} else {
				this.counts.delete(uri);
			}
		});
	}

	has(uri: string): boolean {
		return this.counts.has(uri);
	}

	/** Distinct URIs held. */
	get size(): number {
		return this.counts.size;
	}

	[Symbol.iterator](): Iterator<string> {
		return this.counts.keys();
	}
}
