import { ResourceEntry } from './resource';

/** The JSON of a page's entries in UTF-8, and the entries it was made from, in their order. */
interface EncodedEntries {
	readonly entries: readonly ResourceEntry[];
	/** The JSON at [start, end), with room before and after it for the answer around it. */
	readonly buffer: Buffer;
	readonly start: number;
	readonly end: number;
	/** Whether that room was written: a write may still hold the buffer, so it is used once. */
	roomUsed: boolean;
}

/**
 * Room kept before and after a page's JSON for the rest of its answer, which then goes out
 * without copying the page: `{"result":{"resources":` before, the cursor, cache hints, `_meta`
 * and the envelope after (about 300 bytes in the 2026-07-28 era).
 */
const HEAD_ROOM = 64;
const TAIL_ROOM = 1024;

/**
 * Where a page's array keeps its encoding: a symbol-keyed, non-enumerable property, so the
 * array stays a plain array of the same entries to everything that does not ask (JSON,
 * iteration, spreads and deep comparisons never see it), and the encoding travels with the
 * array through every copy the SDK makes of the result around it.
 */
const ENCODED = Symbol('encodedEntries');

/**
 * Encodes a prepared page's entries on the idle turn it is prepared on, to the UTF-8 bytes a
 * transport writes, so that sending the page later costs neither a `JSON.stringify` of its
 * thousand entries nor their conversion to UTF-8 (together a listing's largest cost on the
 * request path). The entries must not change in place afterwards: annotators and the list
 * handler replace an entry in the array rather than write to it (see `ResourceAnnotator`), and
 * a replaced entry makes `encodedEntries` give the encoding up.
 */
export function encodeEntriesAhead(entries: ResourceEntry[]): void {
	const json = JSON.stringify(entries);
	const length = Buffer.byteLength(json, 'utf8');
	const buffer = Buffer.allocUnsafe(HEAD_ROOM + length + TAIL_ROOM);
	buffer.write(json, HEAD_ROOM, 'utf8');
	const encoded: EncodedEntries = { entries: entries.slice(), buffer, start: HEAD_ROOM, end: HEAD_ROOM + length, roomUsed: false };
	Object.defineProperty(entries, ENCODED, { value: encoded, configurable: true });
}

/**
 * The UTF-8 bytes of what `JSON.stringify(value)` gives, when `value` is an array encoded ahead
 * that still holds exactly the entries it was encoded from; undefined for anything else.
 */
export function encodedEntries(value: unknown): Buffer | undefined {
	const encoded = currentEncoding(value);
	return encoded && encoded.buffer.subarray(encoded.start, encoded.end);
}

/**
 * `head`, the bytes of `encodedEntries(value)`, then `tail`, as one buffer (undefined when
 * `value` has no current encoding). The first time they fit the room kept around the entries,
 * they are written into it and nothing is copied.
 */
export function encodedBetween(value: unknown, head: string, tail: string): Buffer | undefined {
	const encoded = currentEncoding(value);
	if (encoded === undefined) {
		return undefined;
	}
	const { buffer, start, end } = encoded;
	const headLength = Buffer.byteLength(head, 'utf8');
	const tailLength = Buffer.byteLength(tail, 'utf8');
	if (encoded.roomUsed || headLength > start || tailLength > buffer.length - end) {
		return Buffer.concat([Buffer.from(head, 'utf8'), buffer.subarray(start, end), Buffer.from(tail, 'utf8')]);
	}
	encoded.roomUsed = true;
	buffer.write(head, start - headLength, 'utf8');
	buffer.write(tail, end, 'utf8');
	return buffer.subarray(start - headLength, end + tailLength);
}

function currentEncoding(value: unknown): EncodedEntries | undefined {
	if (!Array.isArray(value)) {
		return undefined;
	}
	const encoded = (value as { [ENCODED]?: EncodedEntries })[ENCODED];
	if (encoded === undefined || encoded.entries.length !== value.length) {
		return undefined;
	}
	const { entries } = encoded;
	for (let i = 0; i < entries.length; i++) {
		if (entries[i] !== value[i]) {
			return undefined;
		}
	}
	return encoded;
}
