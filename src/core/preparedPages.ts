import { Page } from './pager';
import { SortedEntries } from './resource';

/** A section's list as a page read it: which one, and its version then. */
export interface ListRead {
	readonly section: number;
	readonly list: SortedEntries;
	readonly version: number | undefined;
}

/** A page built before its request, with what it was built from. */
export interface PreparedPage {
	readonly cursor: string;
	readonly pageSize: number;
	readonly page: Page;
	/** Every list the page read, in section order. */
	readonly reads: readonly ListRead[];
	/** Each annotator's `annotationState()` after it annotated the page. */
	readonly annotations: readonly (object | undefined)[];
}

/**
 * The next pages of listings in progress, built on an idle turn while their clients are still
 * reading the page before (a client asks for a page only once it has parsed the last one, so
 * the server would otherwise wait, then make the client wait). At most `capacity` pages, the
 * oldest dropped first; each is handed out once, and only when its caller finds it current.
 */
export class PreparedPages {
	private readonly pages: PreparedPage[] = [];

	constructor(private readonly capacity: number) {}

	has(cursor: string, pageSize: number): boolean {
		return this.pages.some(p => p.cursor === cursor && p.pageSize === pageSize);
	}

	/** Whether `prepared` is still kept (not taken, replaced or dropped). */
	holds(prepared: PreparedPage): boolean {
		return this.pages.includes(prepared);
	}

	put(prepared: PreparedPage): void {
		this.drop(prepared.cursor, prepared.pageSize);
		this.pages.push(prepared);
		if (this.pages.length > this.capacity) {
			this.pages.shift();
		}
	}

	/** Removes the page prepared for `cursor` and returns it when `isCurrent` says it still holds. */
	take(cursor: string, pageSize: number, isCurrent: (prepared: PreparedPage) => boolean): Page | undefined {
		const prepared = this.drop(cursor, pageSize);
		return prepared && isCurrent(prepared) ? prepared.page : undefined;
	}

	clear(): void {
		this.pages.length = 0;
	}

	private drop(cursor: string, pageSize: number): PreparedPage | undefined {
		const i = this.pages.findIndex(p => p.cursor === cursor && p.pageSize === pageSize);
		return i < 0 ? undefined : this.pages.splice(i, 1)[0];
	}
}
