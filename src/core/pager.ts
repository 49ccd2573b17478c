import { InvalidParams } from './errors';
import { ResourceEntry, SortedEntries } from './resource';

export interface PageSection {
	readonly id: string;
	/** Sorted by `uri`, no duplicates. */
	readonly items: SortedEntries;
}

export interface Page {
	readonly resources: ResourceEntry[];
	readonly nextCursor?: string;
}

interface CursorState {
	/** Section (provider) id of the last item returned. */
	readonly s: string;
	/** URI of the last item returned: the next page starts after it. */
	readonly a: string;
}

const CURSOR_PREFIX = 'c1.';

export function encodeCursor(state: CursorState): string {
	return CURSOR_PREFIX + Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
}

/** The state a cursor carries, or undefined when it is not one of ours (checked by `pageStart`). */
function decodeCursor(cursor: string): CursorState | undefined {
	if (typeof cursor !== 'string' || !cursor.startsWith(CURSOR_PREFIX) || cursor.length > 8192) {
		return undefined;
	}
	try {
		const state = JSON.parse(Buffer.from(cursor.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8')) as unknown;
		if (state && typeof state === 'object' && typeof (state as CursorState).s === 'string' && typeof (state as CursorState).a === 'string') {
			return state as CursorState;
		}
	} catch {
		// not base64url JSON: not a cursor of ours
	}
	return undefined;
}

/** Where a page starts: the index of its first section, and the URI in it the page resumes after. */
export interface PageStart {
	readonly section: number;
	readonly after?: string;
}

/**
 * Decodes `cursor` against the ids of the sections in page order (the first page without one).
 * A cursor that is not ours, or names a section that no longer exists, is invalid params.
 */
export function pageStart(cursor: string | undefined, sectionIds: readonly string[]): PageStart {
	if (cursor === undefined) {
		return { section: 0 };
	}
	const state = decodeCursor(cursor);
	const section = state ? sectionIds.indexOf(state.s) : -1;
	if (!state || section < 0) {
		throw new InvalidParams('Invalid cursor');
	}
	return { section, after: state.a };
}

/**
 * Index of the first item of a URI-sorted list whose uri is not less than `uri` (or, with
 * `after`, greater than it): a binary search, so paging and prefix lookups never scan.
 */
export function searchSorted(items: SortedEntries, uri: string, after = false): number {
	if (items.search) {
		return items.search(uri, after);
	}
	let lo = 0;
	let hi = items.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		const midUri = items.at(mid)!.uri;
		if (midUri < uri || (after && midUri === uri)) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return lo;
}

/**
 * Fills one page from sections added in order from `start.section`, with a keyset cursor (the
 * last URI returned), so a walk stays correct while items come and go: no duplicates, and
 * nothing present throughout is skipped. Sections are added one at a time so a caller can stop
 * reading (and waiting for) sections once the page is full.
 */
export class PageBuilder {
	private readonly resources: ResourceEntry[] = [];
	/** Section and URI of the last item taken, kept as two strings: the cursor needs them once per page. */
	private lastSection = '';
	private lastUri = '';
	private first = true;

	constructor(private readonly start: PageStart, private readonly pageSize: number) {}

	/** Takes the next section's items; returns the page once it is full and more items follow. */
	add(id: string, items: SortedEntries): Page | undefined {
		let position = 0;
		if (this.first && this.start.after !== undefined) {
			position = searchSorted(items, this.start.after, true);
		}
		this.first = false;
		while (position < items.length) {
			if (this.resources.length === this.pageSize) {
				return { resources: this.resources, nextCursor: encodeCursor({ s: this.lastSection, a: this.lastUri }) };
			}
			const item = items.at(position++)!;
			this.resources.push(item);
			this.lastSection = id;
			this.lastUri = item.uri;
		}
		return undefined;
	}

	/** The page when no section is left: the last one, without a cursor. */
	finish(): Page {
		return { resources: this.resources };
	}
}

/** One page over sections that are all at hand. */
export function paginate(sections: readonly PageSection[], cursor: string | undefined, pageSize: number): Page {
	const start = pageStart(cursor, sections.map(s => s.id));
	const page = new PageBuilder(start, pageSize);
	for (const { id, items } of sections.slice(start.section)) {
		const full = page.add(id, items);
		if (full) {
			return full;
		}
	}
	return page.finish();
}
