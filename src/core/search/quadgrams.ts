import { Buffer } from 'node:buffer';
import { QuadgramSigner } from './quadgramSigner';

/**
 * Signature bits per byte of text. Code holds far fewer distinct 4-grams than bytes, so each gets
 * several bits: one probe rarely says "maybe" for an absent 4-gram, while the whole index stays a
 * small fraction of the text (docs/performance.md has the figures).
 */
const BITS_PER_BYTE = 1;
/** The smallest signature: a file of a few bytes still gets a useful one. */
const MIN_BITS = 64;
/**
 * Bytes of a gram. A rare identifier's trigrams are each common in code, so trigrams let many
 * more files through; longer grams fill the same bits faster.
 */
export const GRAM = 4;
/**
 * Bytes of text each part of a large file's signature covers. A large file holds every common
 * gram somewhere: a literal whose grams must all be in one part of it is ruled out far more often.
 */
const BLOCK = 64 * 1024;
/**
 * Bytes each part also covers of the next one: a literal of up to this length (any `q`, which is
 * at most 1 KB) lies wholly inside one part.
 */
const OVERLAP = 1024;

/** ASCII letters folded to lower case; every other byte as it is. */
const FOLD = new Uint8Array(256);
for (let i = 0; i < 256; i++) {
	FOLD[i] = i >= 0x41 && i <= 0x5a ? i | 0x20 : i;
}

/** This thread's signer: made at the first signature (compiling the module takes a moment). */
let threadSigner: QuadgramSigner | undefined;
const quadgramSigner = () => (threadSigner ??= new QuadgramSigner(FOLD));

/**
 * What a file's text holds, as Bloom filters of its 4-grams (four bytes of UTF-8, ASCII letters
 * folded to lower case), sized to the text: a query's 4-grams that are not all in one of them
 * rule the file out without reading it. A file up to 65 KB has one; a larger one one per 64 KB
 * part (each overlapping the next by 1 KB). The first number is the words of each part. The
 * bits are set by a WASM loop (quadgramSigner.wat) with the formula `mayHoldAll` probes.
 */
export function quadgramSignature(bytes: Uint8Array): Int32Array {
	const single = bytes.length <= BLOCK + OVERLAP;
	const partBytes = single ? bytes.length : BLOCK + OVERLAP;
	const partWords = Math.max(MIN_BITS, (partBytes * BITS_PER_BYTE + 31) & ~31) >>> 5;
	const parts = single ? 1 : Math.ceil((bytes.length - OVERLAP) / BLOCK);
	const signature = new Int32Array(1 + parts * partWords);
	signature[0] = partWords;
	const signer = quadgramSigner();
	for (let part = 0; part < parts; part++) {
		const from = part * BLOCK;
		const to = Math.min(bytes.length, from + BLOCK + OVERLAP);
		if (to - from >= GRAM) {
			signature.set(signer.sign(bytes.subarray(from, to), partWords), 1 + part * partWords);
		}
	}
	return signature;
}

/**
 * The 4-gram keys a text holding `literal` must have in its signature. Case-insensitive queries
 * keep only grams of ASCII bytes: the signature folds ASCII letters alone, and `É` and `é` are
 * other bytes. Empty when the literal is too short to have any (it then narrows nothing).
 */
function literalKeys(literal: string, caseSensitive: boolean): number[] {
	const bytes = Buffer.from(literal, 'utf8');
	const keys = new Set<number>();
	for (let i = GRAM - 1; i < bytes.length; i++) {
		let key = 0;
		let ascii = true;
		for (let j = i - GRAM + 1; j <= i; j++) {
			key = (key << 8) | FOLD[bytes[j]];
			ascii &&= bytes[j] < 0x80;
		}
		if (caseSensitive || ascii) {
			keys.add(key);
		}
	}
	return [...keys];
}

/** The multiplier of the filter's hash (quadgramSigner.wat sets bits with the same). */
const HASH = 0x9e3779b1;

/** A literal's 4-gram keys as `mayHoldAll` probes them: hashed once a query, not once a file. */
export function literalProbes(literal: string, caseSensitive: boolean): number[] {
	return literalKeys(literal, caseSensitive).map(key => Math.imul(key, HASH) >>> 0);
}

/**
 * Whether one part of the signature in `words` [start, end) may hold every gram of one literal
 * (its `probes`). Reorders `probes`: one that rules a part out is tried first from then on, as
 * the gram a file lacks is mostly the one the next file lacks too.
 */
export function mayHoldAll(words: Int32Array, start: number, end: number, probes: number[]): boolean {
	const partWords = words[start];
	const scale = partWords * 32 / 4294967296;
	for (let base = start + 1; base < end; base += partWords) {
		let all = true;
		for (let i = 0; i < probes.length; i++) {
			const bit = (probes[i] * scale) | 0;
			if ((words[base + (bit >>> 5)] & (1 << (bit & 31))) === 0) {
				if (i > 0) {
					const first = probes[0];
					probes[0] = probes[i];
					probes[i] = first;
				}
				all = false;
				break;
			}
		}
		if (all) {
			return true;
		}
	}
	return false;
}
