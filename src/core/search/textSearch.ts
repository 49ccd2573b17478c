import { Buffer } from 'node:buffer';
import { FirstLook } from './firstLook';
import { displayLine } from './lineText';
import { PathGlobs } from './pathGlobs';
import { TextAnswerData, TextFileHits } from './ports';
import { SearchIndex } from './searchIndex';
import { TextQuery } from './searchQuery';
import { TextMatcher } from './textMatcher';

/** Files looked at between two readings of the clock, when none is read. */
const CLOCK_EVERY = 256;

/**
 * Runs a text query over the index: the ranked files first, then every file by path; a file
 * whose signature rules the query out is never read, the others are read and searched line by
 * line. Stops at `max` matched lines (one more is looked for, to tell whether the answer is
 * complete) or when `budgetMs` is spent. Gives the event loop turns between files.
 */
export async function searchText(index: SearchIndex, query: TextQuery, ranked: readonly string[], budgetMs: number, now: () => number = () => performance.now()): Promise<TextAnswerData> {
	const deadline = now() + budgetMs;
	const matcher = TextMatcher.compile(query);
	const globs = new PathGlobs(query.globs);
	const files: TextFileHits[] = [];
	let found = 0;
	let unindexed = 0;
	const goOn = () => now() < deadline;
	let sinceClock = CLOCK_EVERY;
	// This search's own first look at each candidate (another search may be reading meanwhile).
	const look = new FirstLook(bytes => matcher.mayMatchBytes(bytes));
	const first = ranked.map(p => index.slotOf(p)).filter((s): s is number => s !== undefined);
	const seen = new Set(first);
	const order = index.order();
	const total = first.length + order.length;
	for (let i = 0; i < total; i++) {
		const slot = i < first.length ? first[i] : order[i - first.length];
		if (i >= first.length && seen.has(slot)) {
			continue;
		}
		if (!index.has(slot)) {
			continue; // removed while the search gave the loop a turn
		}
		// The clock is read every few hundred files a signature rules out, and after each read:
		// ruling a file out costs less than reading the clock, which showed in a rare word's search.
		if (++sinceClock >= CLOCK_EVERY) {
			sinceClock = 0;
			const wait = index.pause();
			if (wait) {
				await wait;
				if (!index.has(slot)) {
					continue;
				}
			}
			if (!goOn()) {
				return { files, complete: false, reason: 'time', unindexed };
			}
		}
		const display = index.display(slot);
		if (!globs.includes(display)) {
			continue;
		}
		const mayMatch = index.probeSignature(slot, matcher.mayMatchSignature);
		if (mayMatch === null || mayMatch === false) {
			continue;
		}
		if (mayMatch === undefined) {
			unindexed++;
		}
		sinceClock = CLOCK_EVERY;
		const text = await index.textOf(slot, look.worthIt ? look : undefined);
		if (text === undefined || !index.has(slot) || index.display(slot) !== display) {
			continue;
		}
		const hits = matcher.scan(text, query.max - found + 1, goOn);
		// A regex scan asks `goOn` line by line: past the deadline it may have stopped early.
		const cut = query.regex && !goOn();
		const over = found + hits.length > query.max;
		const kept = over ? hits.slice(0, query.max - found) : hits;
		if (kept.length > 0) {
			files.push({
				path: index.absPath(slot),
				display,
				hits: kept.map(h => ({ line: h.line, column: h.start + 1, text: ownCopy(displayLine(h.text, h.start, h.end)) })),
			});
		}
		found += kept.length;
		if (over) {
			return { files, complete: false, reason: 'max', unindexed };
		}
		if (cut) {
			return { files, complete: false, reason: 'time', unindexed };
		}
	}
	return { files, complete: true, unindexed };
}

/**
 * A string that holds only its own characters. A line cut from a file's text is a view of the
 * whole text: kept in an answer, it would keep the whole file alive until the search ends, and a
 * search of many files then held them all.
 */
function ownCopy(text: string): string {
	return Buffer.from(text, 'utf8').toString('utf8');
}
