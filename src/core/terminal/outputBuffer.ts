import { stripVTControlCharacters } from 'node:util';
import { CappedText } from './ports';

/** Output kept per command: the start (what ran) and the end (how it finished). */
export const OUTPUT_HEAD_CHARS = 8 * 1024;
export const OUTPUT_TAIL_CHARS = 24 * 1024;
/** Command line kept: the start (what ran) and the end (often a heredoc's last lines). */
export const COMMAND_LINE_HEAD_CHARS = 8 * 1024;
export const COMMAND_LINE_TAIL_CHARS = 8 * 1024;
/** Dropped text kept next to each side of the cut, and kept text read with it: more than a token is long. */
export const CUT_SEAM_CHARS = 1024;

/**
 * A command's output as it streams in, bounded: the first OUTPUT_HEAD_CHARS and the last
 * OUTPUT_TAIL_CHARS characters, with the count of what was dropped between them. Escape
 * sequences (colours, cursor moves, shell-integration marks) are removed; `\r\n` becomes `\n`.
 */
export class OutputBuffer {
	private head = '';
	private tail = '';
	private dropped = 0;
	/** The first and the last characters dropped, up to CUT_SEAM_CHARS each: see `CutEdges`. */
	private afterHead = '';
	private beforeTail = '';

	constructor(private readonly headChars = OUTPUT_HEAD_CHARS, private readonly tailChars = OUTPUT_TAIL_CHARS) {}

	append(chunk: string): void {
		let text = stripVTControlCharacters(chunk).replace(/\r\n/g, '\n');
		if (this.head.length < this.headChars) {
			const room = this.headChars - this.head.length;
			this.head += text.slice(0, room);
			text = text.slice(room);
		}
		if (text.length === 0) {
			return;
		}
		this.tail += text;
		const excess = this.tail.length - this.tailChars;
		if (excess > 0) {
			// What is dropped is one run, from just after the head to just before the tail.
			if (this.afterHead.length < CUT_SEAM_CHARS) {
				this.afterHead += this.tail.slice(0, Math.min(excess, CUT_SEAM_CHARS - this.afterHead.length));
			}
			this.beforeTail = (this.beforeTail + this.tail.slice(Math.max(0, excess - CUT_SEAM_CHARS), excess)).slice(-CUT_SEAM_CHARS);
			this.dropped += excess;
			this.tail = this.tail.slice(excess);
		}
	}

	snapshot(): CappedText {
		const text = this.head + this.tail;
		return this.dropped > 0
			? { text, cut: { at: this.head.length, chars: this.dropped }, cutEdges: { afterHead: this.afterHead, beforeTail: this.beforeTail } }
			: { text };
	}
}

/**
 * A command line within its cap, cut as output is: kept whole, a long one would be held for as
 * long as the terminal lives and redacted again on every read.
 */
export function cappedCommandLine(line: string): CappedText {
	const buffer = new OutputBuffer(COMMAND_LINE_HEAD_CHARS, COMMAND_LINE_TAIL_CHARS);
	buffer.append(line);
	return buffer.snapshot();
}
