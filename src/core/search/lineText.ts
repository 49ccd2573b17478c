/** Longest line an answer shows whole; a longer one is cut around its match. */
export const MAX_LINE_CHARS = 300;
/** What a cut line keeps before its match. */
const CONTEXT_BEFORE = 80;
/** Stands where a cut line lost text, at either end. */
export const CUT_MARKER = '…';

/**
 * A matched line as an answer shows it: whole when short, else a window around the match
 * (`start` to `end`, UTF-16 offsets) with {@link CUT_MARKER} where text was left out. Minified
 * files have lines of a megabyte; an answer of two hundred of them would be two hundred
 * megabytes. A window never splits a surrogate pair.
 */
export function displayLine(line: string, start: number, end: number): string {
	if (line.length <= MAX_LINE_CHARS) {
		return line;
	}
	let from = Math.max(0, start - CONTEXT_BEFORE);
	let to = Math.min(line.length, Math.max(end, from + MAX_LINE_CHARS));
	if (to - from > MAX_LINE_CHARS) {
		to = from + MAX_LINE_CHARS; // a match longer than the window shows its start
	}
	if (from > 0 && isLowSurrogate(line.charCodeAt(from))) {
		from--;
	}
	if (to < line.length && isLowSurrogate(line.charCodeAt(to))) {
		to++;
	}
	return (from > 0 ? CUT_MARKER : '') + line.slice(from, to) + (to < line.length ? CUT_MARKER : '');
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}
