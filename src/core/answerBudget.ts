/**
 * Most bytes the content of one read answer may take once written into JSON (text escaped, a blob
 * in base64). The SDK's stdio client (`STDIO_DEFAULT_MAX_BUFFER_SIZE`, 10 MiB) drops the whole
 * connection when one line passes its buffer, and the bridge and most stdio clients use it. The
 * `read_resource` tool carries the content twice (`content` and `structuredContent`), so twice this
 * plus the envelope still leaves about 2 MiB to spare.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * Largest file a range is read from when the file is over the read cap (`maxFileSize`): the
 * point of a range is to read part of a big file, but the whole file is still read to find it.
 * Past it no read takes the file, whole or in ranges.
 */
export const MAX_RANGE_SOURCE_BYTES = 16 * 1024 * 1024;

/** Where text fitting a JSON budget ends: the index after its last whole character, and its bytes. */
export interface JsonFit {
	readonly end: number;
	readonly bytes: number;
}

/**
 * How much of `text` from `from` up to `to` fits in `budget` bytes written as a JSON string (UTF-8,
 * without the quotes), counted as `JSON.stringify` writes it: `"`, `\` and the short control
 * escapes take 2 bytes, other controls and lone surrogates 6 (`\u001b`), the rest their UTF-8
 * length. A surrogate pair is never split. Counting beats measuring a stringified copy: the text
 * may be 16 MB, and the cut must fall inside it.
 */
export function fitJson(text: string, from: number, to: number, budget: number): JsonFit {
	let bytes = 0;
	for (let i = from; i < to; i++) {
		const c = text.charCodeAt(i);
		let n: number;
		let width = 1;
		if (c < 0x20) {
			n = c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
		} else if (c === 0x22 || c === 0x5c) {
			n = 2;
		} else if (c < 0x80) {
			n = 1;
		} else if (c < 0x800) {
			n = 2;
		} else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && isLowSurrogate(text.charCodeAt(i + 1))) {
			n = 4;
			width = 2;
		} else if (c >= 0xd800 && c <= 0xdfff) {
			n = 6; // a lone surrogate: JSON.stringify writes it as \udxxx
		} else {
			n = 3;
		}
		if (bytes + n > budget) {
			return { end: i, bytes };
		}
		bytes += n;
		i += width - 1;
	}
	return { end: to, bytes };
}

/** Bytes `text` takes written as a JSON string (without the quotes). */
export function jsonBytes(text: string): number {
	return fitJson(text, 0, text.length, Infinity).bytes;
}

/** Most bytes one UTF-8 byte of text becomes in a JSON string (a control byte is written `\u001b`). */
const JSON_GROWTH = 6;

/**
 * Whether `text`, `utf8Bytes` long in UTF-8, fits `budget` bytes written as a JSON string. Every
 * read answers through here, so the text is counted only when it might not fit: no character
 * grows past JSON_GROWTH times its UTF-8 bytes, and a text under a sixth of the budget (nearly
 * every file) needs no pass over it.
 */
export function fitsJson(text: string, utf8Bytes: number, budget = MAX_ANSWER_BYTES): boolean {
	return utf8Bytes * JSON_GROWTH <= budget || jsonBytes(text) <= budget;
}

/** Bytes `size` bytes take in base64. */
export function base64Bytes(size: number): number {
	return Math.ceil(size / 3) * 4;
}

function isLowSurrogate(c: number): boolean {
	return c >= 0xdc00 && c <= 0xdfff;
}
