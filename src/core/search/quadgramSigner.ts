import { Buffer } from 'node:buffer';
import { QUADGRAM_SIGNER_WASM } from './quadgramSignerWasm';

/** Where the text of one part goes in the module's memory: after the fold table. */
const TEXT_AT = 256;
/** The longest part a signature is made of (quadgrams.ts: 64 KB and the 1 KB overlap). */
const MAX_PART_BYTES = 64 * 1024 + 1024;
/** Where the part's words go: after the longest part, aligned for 32-bit words. */
const WORDS_AT = (TEXT_AT + MAX_PART_BYTES + 3) & ~3;

interface SignerExports {
	readonly memory: WebAssembly.Memory;
	sign(from: number, to: number, words: number, bits: number): void;
}

/**
 * The 4-gram filter of one part of a text, set by the WASM loop of quadgramSigner.wat. The
 * module's memory is fixed (two 64 KB pages: the fold table, one part, its words): a part is
 * copied in and its words copied out, so no file, however large, makes it grow.
 */
export class QuadgramSigner {
	private readonly exports: SignerExports;
	private readonly bytes: Uint8Array;

	constructor(fold: Uint8Array) {
		const module = new WebAssembly.Module(Buffer.from(QUADGRAM_SIGNER_WASM, 'base64'));
		this.exports = new WebAssembly.Instance(module).exports as unknown as SignerExports;
		this.bytes = new Uint8Array(this.exports.memory.buffer);
		this.bytes.set(fold, 0);
	}

	/**
	 * The `words`-word filter of `part` (at least 4 bytes, at most a part's length): a view of the
	 * module's memory, valid until the next call.
	 */
	sign(part: Uint8Array, words: number): Int32Array {
		if (part.length > MAX_PART_BYTES || part.length < 4 || WORDS_AT + words * 4 > this.bytes.length) {
			throw new RangeError(`a signature part holds 4 to ${MAX_PART_BYTES} bytes, not ${part.length}, in at most ${(this.bytes.length - WORDS_AT) >> 2} words`);
		}
		const filter = new Int32Array(this.exports.memory.buffer, WORDS_AT, words);
		filter.fill(0);
		this.bytes.set(part, TEXT_AT);
		this.exports.sign(TEXT_AT, TEXT_AT + part.length, WORDS_AT, words * 32);
		return filter;
	}
}
