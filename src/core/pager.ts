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

export function decodeCursor(cursor: string): CursorState {
	if (typeof cursor !== 'string' || !cursor.startsWith(CURSOR_PREFIX) || cursor.length > 8192) {
		throw new InvalidParams('Invalid cursor');
	}
	try {
		const state = JSON.parse(Buffer.from(cursor.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8')) as unknown;
		if (state && typeof state === 'object' && typeof (state as CursorState).s === 'string' && typeof (state as CursorState).a === 'string') {
			return state as CursorState;
		}
	} catch {
		// fall through
	}
	throw new InvalidParams('Invalid cursor');
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
 * Pages over sections in order with a keyset cursor (the last URI returned), so a walk stays
 * correct while items come and go: no duplicates, and nothing present throughout is skipped.
 */
export function paginate(sections: readonly PageSection[], cursor: string | undefined, pageSize: number): Page {
	let sectionIndex = 0;
	let position = 0;
	if (cursor !== undefined) {
		const state = decodeCursor(cursor);
		sectionIndex = sections.findIndex(s => s.id === state.s);
		if (sectionIndex < 0) {
			throw new InvalidParams('Invalid cursor');
		}
		position = searchSorted(sections[sectionIndex].items, state.a, true);
	}
	const resources: ResourceEntry[] = [];
	let last: CursorState | undefined;
	for (; sectionIndex < sections.length; sectionIndex++, position = 0) {
		const { id, items } = sections[sectionIndex];
		while (position < items.length) {
			if (resources.length === pageSize) {
				return { resources, nextCursor: encodeCursor(last!) };
			}
			const item = items.at(position++)!;
			resources.push(item);
			last = { s: id, a: item.uri };
		}
	}
	return { resources };
}
