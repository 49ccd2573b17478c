import { entryBytes, ListedResource, ListedTemplate } from './listedItems';
import { formatSize } from './tokenEstimate';

/** How much of one server's list the picker keeps. */
export interface ListingLimits {
	readonly maxItems: number;
	/** Bytes of entries (and cursors) received, duplicates included. */
	readonly maxBytes: number;
}

/**
 * Resources per server. A workspace's files are small entries, so a real workspace reaches
 * the item cap before the byte cap; a server with long names or descriptions reaches the byte
 * cap first.
 */
export const RESOURCE_LIMITS: ListingLimits = { maxItems: 100_000, maxBytes: 96 * 1024 * 1024 };
export const TEMPLATE_LIMITS: ListingLimits = { maxItems: 1_000, maxBytes: 4 * 1024 * 1024 };

/**
 * Follows one server's pages (`resources/list`, `resources/templates/list`) and says when to
 * stop: at the last page, at a cap, or as soon as the server pages in a way that would never
 * end (a cursor it sent before, or a page that promises more but brings nothing new). Every
 * page must bring at least one new entry, so a listing takes at most `maxItems` + 1 requests.
 * Why it stopped early is kept in `notice`, for a row the user can read.
 */
export class ListingGuard {
	private readonly cursors = new Set<string>();
	private bytes = 0;
	private kept = 0;
	private stop: string | undefined;

	constructor(private readonly limits: ListingLimits, private readonly noun: 'resources' | 'templates') {}

	/** Why the listing ended early; undefined when it reached the server's last page. */
	get notice(): string | undefined {
		return this.stop;
	}

	/** The entries of a page that fit: all of them, or those before the cap that was reached. */
	admit<T extends ListedResource | ListedTemplate>(entries: readonly T[]): readonly T[] {
		if (this.stop) {
			return [];
		}
		const room = this.limits.maxItems - this.kept;
		for (let i = 0; i < entries.length; i++) {
			this.bytes += entryBytes(entries[i]);
			if (i >= room) {
				this.stop = `Showing the first ${this.count(this.limits.maxItems)}: the picker keeps no more per server.`;
				return entries.slice(0, i);
			}
			if (this.bytes > this.limits.maxBytes) {
				this.stop = this.overBytes(this.kept + i);
				return entries.slice(0, i);
			}
		}
		return entries;
	}

	/**
	 * Whether to ask for `nextCursor`, after a page of `received` entries of which `added` were
	 * new (not listed before). False at the end of the list and whenever `notice` says why not.
	 */
	next(nextCursor: string | undefined, received: number, added: number): nextCursor is string {
		this.kept += added;
		if (this.stop || !nextCursor) {
			return false;
		}
		if (received === 0) {
			this.stop = `Stopped at ${this.count(this.kept)}: the server sent an empty page that promised more.`;
		} else if (this.cursors.has(nextCursor)) {
			this.stop = `Stopped at ${this.count(this.kept)}: the server sent the same page cursor twice.`;
		} else if (added === 0) {
			this.stop = `Stopped at ${this.count(this.kept)}: the server sent a page with nothing new.`;
		} else if ((this.bytes += nextCursor.length) > this.limits.maxBytes) {
			this.stop = this.overBytes(this.kept);
		}
		this.cursors.add(nextCursor);
		return this.stop === undefined;
	}

	private overBytes(kept: number): string {
		return `Showing the first ${this.count(kept)}: the server's list passed the picker's ${formatSize(this.limits.maxBytes)} limit.`;
	}

	private count(n: number): string {
		return `${n.toLocaleString('en-US')} ${n === 1 ? this.noun.slice(0, -1) : this.noun}`;
	}
}
