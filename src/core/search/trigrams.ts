import { Buffer } from 'node:buffer';

/**
 * Signature bits per byte of text. Code holds far fewer distinct trigrams than bytes, so each
 * trigram gets several bits: one probe rarely says "maybe" for an absent trigram, and the
 * several trigrams of a literal together let almost no file through that lacks it, while the
 * whole index stays a small fraction of the text (docs/performance.md has the figures).
 */
const BITS_PER_BYTE = 1;
/** The smallest signature: a file of a few bytes still gets a useful one. */
const MIN_BITS = 64;

/** ASCII letters folded to lower case; every other byte as it is. */
const FOLD = new Uint8Array(256);
for (let i = 0; i < 256; i++) {
	FOLD[i] = i >= 0x41 && i <= 0x5a ? i | 0x20 : i;
}

/**
 * What a file's text holds, as a Bloom filter of its trigrams (three bytes of UTF-8, ASCII
 * letters folded to lower case), sized to the text: a query's trigrams that are not all in it
 * rule the file out without reading it. One pass over the bytes, one bit set per byte.
 */
export function trigramSignature(bytes: Uint8Array): Int32Array {
	const bits = Math.max(MIN_BITS, (bytes.length * BITS_PER_BYTE + 31) & ~31);
	const words = new Int32Array(bits >>> 5);
	if (bytes.length < 3) {
		return words;
	}
	const scale = bits / 4294967296;
	let key = (FOLD[bytes[0]] << 8) | FOLD[bytes[1]];
	for (let i = 2; i < bytes.length; i++) {
		key = ((key << 8) | FOLD[bytes[i]]) & 0xffffff;
		const bit = ((Math.imul(key, 0x9e3779b1) >>> 0) * scale) | 0;
		words[bit >>> 5] |= 1 << (bit & 31);
	}
	return words;
}

/**
 * The trigram keys a text holding `literal` must have in its signature. Case-insensitive
 * queries keep only trigrams of ASCII bytes: the signature folds ASCII letters alone, and `É`
 * and `é` are other bytes. Empty when the literal is too short to have any.
 */
export function literalKeys(literal: string, caseSensitive: boolean): number[] {
	const bytes = Buffer.from(literal, 'utf8');
	const keys = new Set<number>();
	for (let i = 2; i < bytes.length; i++) {
		const a = bytes[i - 2];
		const b = bytes[i - 1];
		const c = bytes[i];
		if (!caseSensitive && (a | b | c) >= 0x80) {
			continue;
		}
		keys.add((FOLD[a] << 16) | (FOLD[b] << 8) | FOLD[c]);
	}
	return [...keys];
}

/** Whether a text whose signature this is may hold every trigram of `keys`. */
export function mayHoldAll(signature: Int32Array, keys: readonly number[]): boolean {
	const scale = signature.length * 32 / 4294967296;
	for (let i = 0; i < keys.length; i++) {
		const bit = ((Math.imul(keys[i], 0x9e3779b1) >>> 0) * scale) | 0;
		if ((signature[bit >>> 5] & (1 << (bit & 31))) === 0) {
			return false;
		}
	}
	return true;
}
