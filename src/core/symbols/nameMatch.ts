/** How well a name matches a query, best first: the order symbol searches rank by. */
export const NameMatch = {
	Exact: 0,
	Prefix: 1,
	Substring: 2,
	/** The query's characters in order, others between (`gtn` finds `getName`). */
	Fuzzy: 3,
} as const;
export type NameMatch = typeof NameMatch[keyof typeof NameMatch];

/** How `name` matches `query` (already lower case), ignoring case; undefined when it does not. */
export function matchName(name: string, query: string): NameMatch | undefined {
	const lower = name.toLowerCase();
	const at = lower.indexOf(query);
	if (at === 0) {
		return lower.length === query.length ? NameMatch.Exact : NameMatch.Prefix;
	}
	if (at > 0) {
		return NameMatch.Substring;
	}
	return isSubsequence(lower, 0, lower.length, query) ? NameMatch.Fuzzy : undefined;
}

/** Whether `query`'s characters appear in order in `text[from, to)`. */
export function isSubsequence(text: string, from: number, to: number, query: string): boolean {
	let q = 0;
	for (let i = from; i < to && q < query.length; i++) {
		if (text.charCodeAt(i) === query.charCodeAt(q)) {
			q++;
		}
	}
	return q === query.length;
}
