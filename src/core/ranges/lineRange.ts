import { InvalidParams } from '../errors';

/** Lines `start` to `end`, 1-based and inclusive, as editors number them. */
export interface LineRange {
	readonly start: number;
	/** Undefined: to the end of the file. */
	readonly end?: number;
}

/** Most lines one range read returns; a client wanting more reads the next range. */
export const MAX_RANGE_LINES = 5_000;

/**
 * Parses the `lines` query value: `12` (one line), `12-40`, or `12-` (to the end). Anything else,
 * a zero, or an end before the start is an InvalidParams naming the accepted forms.
 */
export function parseLineRange(value: string): LineRange {
	const match = /^([1-9][0-9]{0,8})(?:(-)([1-9][0-9]{0,8})?)?$/.exec(value);
	if (!match) {
		throw new InvalidParams(`Invalid lines "${value.slice(0, 40)}": use N, N-M or N- (1-based, inclusive)`);
	}
	const start = Number(match[1]);
	const end = match[2] === undefined ? start : match[3] === undefined ? undefined : Number(match[3]);
	if (end !== undefined && end < start) {
		throw new InvalidParams(`Invalid lines "${value}": the end comes before the start`);
	}
	return { start, end };
}

export interface SlicedLines {
	readonly text: string;
	readonly start: number;
	/** The last line returned (the file may have ended before the requested end). */
	readonly end: number;
	readonly totalLines: number;
	/** True when the range was cut at MAX_RANGE_LINES. */
	readonly truncated: boolean;
}

/**
 * The lines of `text` in `range`, with their line endings. Lines split at `\n` (a `\r\n` keeps
 * its `\r`), as editors count them; a range past the last line is an InvalidParams that says
 * how many lines there are.
 */
export function sliceLines(text: string, range: LineRange, maxLines = MAX_RANGE_LINES): SlicedLines {
	// Offsets of line starts, found without splitting the whole text into strings.
	const starts = [0];
	for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) {
		starts.push(i + 1);
	}
	const totalLines = text.length === 0 ? 0 : starts.length;
	if (range.start > totalLines) {
		throw new InvalidParams(`Line ${range.start} is past the end: the file has ${totalLines} line${totalLines === 1 ? '' : 's'}`);
	}
	const wantedEnd = Math.min(range.end ?? totalLines, totalLines);
	const end = Math.min(wantedEnd, range.start + maxLines - 1);
	const from = starts[range.start - 1];
	const to = end < totalLines ? starts[end] : text.length;
	return { text: text.slice(from, to), start: range.start, end, totalLines, truncated: end < wantedEnd };
}
