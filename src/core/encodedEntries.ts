import { ResourceEntry } from './resource';

/** The JSON text of a page's entries, and the entries it was made from, in their order. */
interface EncodedEntries {
	readonly entries: readonly ResourceEntry[];
	readonly json: string;
}

/**
 * Where a page's array keeps its encoding: a symbol-keyed, non-enumerable property, so the
 * array stays a plain array of the same entries to everything that does not ask (JSON,
 * iteration, spreads and deep comparisons never see it), and the encoding travels with the
 * array through every copy the SDK makes of the result around it.
 */
const ENCODED = Symbol('encodedEntries');

/**
 * Encodes a prepared page's entries on an idle turn, so that sending the page later costs no
 * `JSON.stringify` of its thousand entries (a listing's largest cost on the request path). Text,
 * not UTF-8 bytes: a million files' listing allocated 300 MB of page buffers outside the heap,
 * which held the process's peak RSS near 400 MiB until a full GC (about 220 MiB with text).
 * The entries must not change in place afterwards: annotators and the list handler replace an
 * entry in the array rather than write to it (see `ResourceAnnotator`), and a replaced entry
 * makes `encodedEntries` give the encoding up.
 */
export function encodeEntriesAhead(entries: ResourceEntry[]): void {
	const encoded: EncodedEntries = { entries: entries.slice(), json: JSON.stringify(entries) };
	Object.defineProperty(entries, ENCODED, { value: encoded, configurable: true });
}

/**
 * The text `JSON.stringify(value)` gives, when `value` is an array encoded ahead that still
 * holds exactly the entries it was encoded from; undefined for anything else.
 */
export function encodedEntries(value: unknown): string | undefined {
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
	return encoded.json;
}

/**
 * Lets go of the text an array was encoded to, once it is written: whatever still holds the
 * answer (a transport waiting for its pipe to drain) no longer holds the ~300 KB text, which a
 * young-generation collection meanwhile would move to the old generation, there to stay until
 * the next full collection. Nothing for an array not encoded ahead.
 */
export function releaseEncodedEntries(value: unknown): void {
	if (Array.isArray(value) && (value as { [ENCODED]?: EncodedEntries })[ENCODED] !== undefined) {
		Object.defineProperty(value, ENCODED, { value: undefined });
	}
}
