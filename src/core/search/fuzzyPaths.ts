import fuzzysort from 'fuzzysort';
import { FilesAnswerData } from './ports';
import { SearchIndex } from './searchIndex';
import { FilesQuery } from './searchQuery';

type Prepared = ReturnType<typeof fuzzysort.prepare>;

/**
 * Paths by fuzzy match, as Quick Open finds them: the query's characters in order, a run of
 * them and word starts (after `/`, `.`, `_`, a case change) scoring higher; words separated by
 * spaces must each match. Scored by `fuzzysort` (1 is an exact match), best first, the
 * relevance ranking breaking ties, then the path. Each path is prepared once, on the first
 * query after it appeared, and kept while it is listed.
 */
export class FuzzyPaths {
	private prepared = new Map<string, Prepared>();
	private targets: Prepared[] = [];
	private builtFor: readonly number[] | undefined;

	constructor(private readonly index: SearchIndex) {}

	search(query: FilesQuery, ranked: readonly string[]): FilesAnswerData {
		const targets = this.currentTargets();
		// Composed: fuzzysort matches a composed é to both spellings of a name, a decomposed one
		// (e and a combining accent) only to a decomposed name.
		const results = fuzzysort.go(query.q.normalize('NFC'), targets, { limit: 0, threshold: 0 });
		// Its caches keep every query and string target ever seen; ours are the prepared paths.
		fuzzysort.cleanup();
		const rankOf = new Map<string, number>();
		ranked.forEach((p, i) => {
			const slot = this.index.slotOf(p);
			if (slot !== undefined && !rankOf.has(this.index.display(slot))) {
				rankOf.set(this.index.display(slot), i);
			}
		});
		const scored = results.map(r => ({ display: r.target, score: Math.round(r.score * 1000) / 1000, rank: rankOf.get(r.target) ?? Infinity }));
		scored.sort((a, b) => b.score - a.score || a.rank - b.rank || (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
		const files: { path: string; display: string; score: number }[] = [];
		for (const s of scored) {
			if (files.length >= query.max) {
				break;
			}
			const slot = this.index.slotOfDisplay(s.display);
			if (slot !== undefined) {
				files.push({ path: this.index.absPath(slot), display: s.display, score: s.score });
			}
		}
		return { files, complete: scored.length <= query.max };
	}

	/** The prepared paths of every held file, brought up to date with the index's order. */
	private currentTargets(): Prepared[] {
		const order = this.index.order();
		if (order === this.builtFor) {
			return this.targets;
		}
		const next = new Map<string, Prepared>();
		const targets: Prepared[] = [];
		for (const slot of order) {
			const display = this.index.display(slot);
			const prepared = this.prepared.get(display) ?? fuzzysort.prepare(display);
			next.set(display, prepared);
			targets.push(prepared);
		}
		this.prepared = next;
		this.targets = targets;
		this.builtFor = order;
		return targets;
	}
}
