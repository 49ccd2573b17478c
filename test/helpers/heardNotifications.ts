import { Emitter } from '../../src/common/event';
import { until } from './until';

/**
 * The resource notifications a test client heard (`updated` URIs in order, list_changed count),
 * with waits on them. The client's notification handlers, which differ by SDK, feed it.
 */
export class HeardNotifications {
	readonly updates: string[] = [];
	private listChangedCount = 0;
	private readonly heard = new Emitter<void>();

	/** `detail` is added to a timeout's message (a bridge's stderr, say); `timeoutMs` is the default wait. */
	constructor(private readonly options: { detail?: () => string; timeoutMs?: number } = {}) {}

	updated(uri: string): void {
		this.updates.push(uri);
		this.heard.fire();
	}

	listChanged(): void {
		this.listChangedCount++;
		this.heard.fire();
	}

	get listChanges(): number {
		return this.listChangedCount;
	}

	/** Resolves when `predicate` holds, re-checked on each notification. */
	until(predicate: () => boolean, what: string, timeoutMs = this.options.timeoutMs): Promise<void> {
		return until(this.heard.event, predicate, what, timeoutMs, this.options.detail);
	}
}
