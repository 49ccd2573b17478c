import { stripVTControlCharacters } from 'node:util';

/** Output kept per command: the start (what ran) and the end (how it finished). */
export const OUTPUT_HEAD_CHARS = 8 * 1024;
export const OUTPUT_TAIL_CHARS = 24 * 1024;

/**
 * A command's output as it streams in, bounded: the first OUTPUT_HEAD_CHARS and the last
 * OUTPUT_TAIL_CHARS characters, with the count of what was dropped between them. Escape
 * sequences (colours, cursor moves, shell-integration marks) are removed; `\r\n` becomes `\n`.
 */
export class OutputBuffer {
	private head = '';
	private tail = '';
	private dropped = 0;

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
		if (this.tail.length > this.tailChars) {
			this.dropped += this.tail.length - this.tailChars;
			this.tail = this.tail.slice(this.tail.length - this.tailChars);
		}
	}

	snapshot(): { output: string; cut?: { at: number; chars: number } } {
		const output = this.head + this.tail;
		return this.dropped > 0 ? { output, cut: { at: this.head.length, chars: this.dropped } } : { output };
	}
}
