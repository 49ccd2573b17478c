/** Fuzzy matches are looked for only when substring matches are fewer than this. */
const FUZZY_BELOW = 20;

/** A match: the item and its score (higher is better). */
export interface FilterMatch<T> {
	readonly item: T;
	readonly score: number;
}

export interface FilterResult<T> {
	/** The best `limit` matches, best first. */
	readonly matches: FilterMatch<T>[];
	/** How many items matched in all. */
	readonly total: number;
}

/**
 * A fast filter over names (paths) and URIs. Keys are lowercased once when items are added,
 * so a query costs one pass of `indexOf` (and a subsequence check for fuzzy matches) per item
 * with no allocation, and only the best `limit` results are kept (a bounded heap).
 *
 * A query is split on spaces; every term must match the name (substring, then fuzzy
 * subsequence) or the URI (substring). Matches in the file name beat matches in the folder
 * path, prefixes beat infixes, and substrings beat fuzzy matches.
 */
export class FilterIndex<T> {
	private readonly items: T[] = [];
	private readonly names: string[] = [];
	/** Each URI without its trailing name (shared prefixes cost one string), or the whole URI. */
	private readonly uris: string[] = [];
	/** Where the last path segment starts in each name. */
	private readonly baseStarts: number[] = [];

	private lastPrefix = '';
	/**
	 * What the last query matched, by pass. Typing narrows a query (each old term is part of a
	 * new one), and what a narrower query matches is a subset of what the wider one matched:
	 * the next search then scans those items, not all of them.
	 */
	private last: { terms: readonly string[]; substring: number[]; fuzzy?: number[] } | undefined;

	get size(): number {
		return this.items.length;
	}

	add(item: T, name: string, uri: string): void {
		const lower = name.toLowerCase();
		this.items.push(item);
		this.names.push(lower);
		const lowerUri = uri.toLowerCase();
		// URIs mostly repeat the name after a common prefix: keep (and search) only the prefix.
		const rest = lowerUri.endsWith(lower) ? lowerUri.slice(0, lowerUri.length - lower.length) : lowerUri;
		this.uris.push(rest === this.lastPrefix ? this.lastPrefix : (this.lastPrefix = rest));
		this.baseStarts.push(lower.lastIndexOf('/') + 1);
		this.last = undefined;
	}

	clear(): void {
		this.items.length = 0;
		this.names.length = 0;
		this.uris.length = 0;
		this.baseStarts.length = 0;
		this.last = undefined;
	}

	search(query: string, limit = 200): FilterResult<T> {
		const terms = query.toLowerCase().split(/\s+/).filter(t => t.length > 0);
		if (terms.length === 0) {
			return { matches: [], total: 0 };
		}
		// Substring matches first; fuzzy (subsequence) matches only when those are too few to
		// fill the list, which keeps long queries both fast and free of noise.
		const heap = new TopK(limit);
		const narrowed = this.last && narrows(this.last.terms, terms) ? this.last : undefined;
		const substring: number[] = [];
		let total = this.pass(terms, heap, false, narrowed?.substring, substring);
		let fuzzy: number[] | undefined;
		if (total < Math.min(limit, FUZZY_BELOW)) {
			fuzzy = [];
			total = this.pass(terms, heap, true, narrowed?.fuzzy, fuzzy);
		}
		this.last = { terms, substring, fuzzy };
		return { matches: heap.sorted().map(([i, score]) => ({ item: this.items[i], score })), total };
	}

	/** Scores `candidates` (or every item), keeps the best in `heap` and the matches in `matched`. */
	private pass(terms: readonly string[], heap: TopK, fuzzy: boolean, candidates: readonly number[] | undefined, matched: number[]): number {
		if (fuzzy) {
			heap.clear();
		}
		const n = candidates ? candidates.length : this.items.length;
		for (let c = 0; c < n; c++) {
			const i = candidates ? candidates[c] : c;
			const score = this.score(i, terms, fuzzy);
			if (score > 0) {
				matched.push(i);
				heap.push(i, score);
			}
		}
		return matched.length;
	}

	private score(i: number, terms: readonly string[], fuzzy: boolean): number {
		const name = this.names[i];
		const base = this.baseStarts[i];
		let score = 0;
		for (const term of terms) {
			const inBase = name.indexOf(term, base);
			if (inBase >= 0) {
				score += inBase === base ? 1000 : 600;
				if (term.length === name.length - base) {
					score += 500; // the whole file name
				}
				continue;
			}
			const inName = base > 0 ? name.indexOf(term) : -1;
			if (inName >= 0) {
				score += inName === 0 || name.charCodeAt(inName - 1) === 47 /* / */ ? 400 : 300;
				continue;
			}
			const prefix = this.uris[i];
			// A term with a scheme may span the stored prefix and the name (a pasted URI).
			if (prefix.includes(term) || (term.includes(':') && (prefix + name).includes(term))) {
				score += 100;
				continue;
			}
			const loose = fuzzy ? subsequenceScore(name, term, base) : 0;
			if (loose <= 0) {
				return 0;
			}
			score += loose;
		}
		// Among equals, shorter (shallower) names first.
		return score - Math.min(name.length, 200) / 1000;
	}
}

/**
 * Whether every item matching `next` also matches `previous`: each previous term is part of a
 * next term (so it is in the same name, folder or URI prefix, or a subsequence of the same
 * file name). Terms with a ':' can match across the URI prefix and the name, where a part of
 * them need not match: those always scan everything.
 */
function narrows(previous: readonly string[], next: readonly string[]): boolean {
	return !next.some(t => t.includes(':')) && previous.every(p => next.some(t => t.includes(p)));
}

/**
 * Scores `term` as a subsequence of the file name (the part of `name` from `base`), 1..90,
 * favouring few gaps; 0 when it is not one. Folder paths are left out: a subsequence of a long
 * path matches almost anything.
 */
function subsequenceScore(name: string, term: string, base: number): number {
	let pos = base;
	let gaps = 0;
	for (let t = 0; t < term.length; t++) {
		const found = name.indexOf(term[t], pos);
		if (found < 0) {
			return 0;
		}
		if (t > 0 && found !== pos) {
			gaps++;
		}
		pos = found + 1;
	}
	return Math.max(1, 90 - gaps * 5);
}

/** Keeps the k highest scores (a min-heap on score). */
class TopK {
	private readonly ids: number[] = [];
	private readonly scores: number[] = [];

	constructor(private readonly k: number) {}

	push(id: number, score: number): void {
		if (this.k <= 0) {
			return;
		}
		if (this.ids.length < this.k) {
			this.ids.push(id);
			this.scores.push(score);
			this.up(this.ids.length - 1);
		} else if (score > this.scores[0]) {
			this.ids[0] = id;
			this.scores[0] = score;
			this.down(0);
		}
	}

	clear(): void {
		this.ids.length = 0;
		this.scores.length = 0;
	}

	sorted(): [number, number][] {
		const pairs = this.ids.map((id, i) => [id, this.scores[i]] as [number, number]);
		return pairs.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
	}

	private up(i: number): void {
		while (i > 0) {
			const parent = (i - 1) >> 1;
			if (this.scores[parent] <= this.scores[i]) {
				return;
			}
			this.swap(i, parent);
			i = parent;
		}
	}

	private down(i: number): void {
		const n = this.ids.length;
		for (;;) {
			const l = 2 * i + 1;
			const r = l + 1;
			let min = i;
			if (l < n && this.scores[l] < this.scores[min]) {
				min = l;
			}
			if (r < n && this.scores[r] < this.scores[min]) {
				min = r;
			}
			if (min === i) {
				return;
			}
			this.swap(i, min);
			i = min;
		}
	}

	private swap(a: number, b: number): void {
		[this.ids[a], this.ids[b]] = [this.ids[b], this.ids[a]];
		[this.scores[a], this.scores[b]] = [this.scores[b], this.scores[a]];
	}
}
