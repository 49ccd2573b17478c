import { MoreNode, PagedList } from './pickerNodes';

/**
 * The one "More…" mechanism: how many rows of each long list are shown, and the row that shows
 * a page more. A list is a folder's or group's children ("Load more…") or a server's filter
 * matches ("More matches…"); each kind has its own page size.
 */
export class RowPages {
	private readonly shown: Record<PagedList, Map<string, number>> = { children: new Map(), matches: new Map() };

	constructor(private readonly pageSizes: Readonly<Record<PagedList, number>>) {}

	/** Rows of `listKey` to show now. */
	limit(listKey: string, list: PagedList): number {
		return this.shown[list].get(listKey) ?? this.pageSizes[list];
	}

	/** The "More…" row under a list of `total` rows of which `shown` are shown, if any are left. */
	moreRow(serverId: string, listKey: string, list: PagedList, total: number, shown: number): MoreNode | undefined {
		return total > shown ? { kind: 'more', serverId, key: `${listKey}|more`, parentKey: listKey, list, remaining: total - shown } : undefined;
	}

	/** Shows one page more of the list `more` stands under. */
	showMore(more: MoreNode): void {
		this.shown[more.list].set(more.parentKey, this.limit(more.parentKey, more.list) + this.pageSizes[more.list]);
	}

	/** Back to one page for every list of a kind (a new filter query starts over). */
	reset(list: PagedList): void {
		this.shown[list].clear();
	}
}
