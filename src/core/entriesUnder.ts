import { searchSorted } from './pager';
import { ResourceEntry, SortedEntries } from './resource';

/**
 * The entries of a URI-sorted list whose URI starts with `prefix`, as a list of their own. They
 * are one run of the list (everything from `prefix` up to its successor), found by two binary
 * searches: a filtered listing never walks the entries it leaves out.
 */
export function entriesUnder(items: SortedEntries, prefix: string): SortedEntries {
	if (prefix === '') {
		return items;
	}
	const first = searchSorted(items, prefix);
	const successor = prefixSuccessor(prefix);
	const end = successor === undefined ? items.length : searchSorted(items, successor);
	const length = Math.max(0, end - first);
	return {
		length,
		version: items.version,
		at: (index: number): ResourceEntry | undefined => (index >= 0 && index < length ? items.at(first + index) : undefined),
		search: (uri: string, after: boolean) => Math.min(length, Math.max(0, searchSorted(items, uri, after) - first)),
	};
}

/**
 * The least string greater than every string that starts with `prefix` (code unit order), or
 * undefined when there is none (a prefix of nothing but U+FFFF code units).
 */
export function prefixSuccessor(prefix: string): string | undefined {
	let end = prefix.length;
	while (end > 0 && prefix.charCodeAt(end - 1) === 0xffff) {
		end--;
	}
	return end === 0 ? undefined : prefix.slice(0, end - 1) + String.fromCharCode(prefix.charCodeAt(end - 1) + 1);
}
