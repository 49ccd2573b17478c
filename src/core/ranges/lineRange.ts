import { fitJson, MAX_ANSWER_BYTES } from '../answerBudget';
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
 * Most bytes of JSON-written text one range read returns: the answer budget less room for the
 * line that says where the range was cut, so lines that are long, not many, cannot make one
 * message a stdio client drops (a 15 MB file of 5,000 lines would).
 */
export const MAX_RANGE_BYTES = MAX_ANSWER_BYTES - 1024;

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
	/**
	 * Why less than asked came back: `lines` at the line cap, `bytes` at the byte cap (at a line
	 * end), `inside a line` when the first line alone is over the byte cap and only its head
	 * came (`end` is that line); undefined when the whole range came.
	 */
	readonly cut?: 'lines' | 'bytes' | 'inside a line';
}

/** The caps one range read is held to. */
export interface RangeCaps {
	readonly maxLines: number;
	/** Bytes of the text written as a JSON string. */
	readonly maxBytes: number;
}

const RANGE_CAPS: RangeCaps = { maxLines: MAX_RANGE_LINES, maxBytes: MAX_RANGE_BYTES };

/**
 * The lines of `text` in `range`, with their line endings. Lines split at `\n` (a `\r\n` keeps
 * its `\r`), as editors count them; a range past the last line is an InvalidParams that says
 * how many lines there are. A range over either cap is cut at the last whole line under both,
 * so the next range starts where this one stopped.
 */
export function sliceLines(text: string, range: LineRange, { maxLines, maxBytes }: RangeCaps = RANGE_CAPS): SlicedLines {
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
	const lineEnd = (line: number) => line < totalLines ? starts[line] : text.length;
	let end = Math.min(wantedEnd, range.start + maxLines - 1);
	const from = starts[range.start - 1];
	const fit = fitJson(text, from, lineEnd(end), maxBytes);
	if (fit.end === lineEnd(end)) {
		return { text: text.slice(from, fit.end), start: range.start, end, totalLines, cut: end < wantedEnd ? 'lines' : undefined };
	}
	// The last line that ends within the budget (a binary search: a range has up to 5,000 lines).
	let low = range.start - 1; // no line
	let high = end - 1; // this line is known not to fit
	while (low < high) {
		const mid = Math.ceil((low + high) / 2);
		if (lineEnd(mid) <= fit.end) {
			low = mid;
		} else {
			high = mid - 1;
		}
	}
	if (low < range.start) {
		// One line over the budget has no line boundary to cut at: its head is all a range can
		// give (there is no column to ask from), and the marker says so.
		return { text: text.slice(from, fit.end), start: range.start, end: range.start, totalLines, cut: 'inside a line' };
	}
	end = low;
	return { text: text.slice(from, lineEnd(end)), start: range.start, end, totalLines, cut: 'bytes' };
}
