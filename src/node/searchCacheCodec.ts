import { Buffer } from 'node:buffer';
import { crc32 } from 'node:zlib';
import { IndexSetup } from '../core/search/ports';
import { CachedFile, CachedFiles } from '../core/search/searchIndex';

/** What a cache file starts with: anything else is not one of ours. */
const MAGIC = Buffer.from('MWRSIDX\0', 'latin1');
/** Bumped whenever the layout or the signatures' meaning (quadgrams.ts) changes. */
export const CACHE_FORMAT_VERSION = 1;
/** Bytes of a file's fixed part: size, mtime (f64 each), state (u8), signature length (u32), path length (u32). */
const FIXED = 8 + 8 + 1 + 4 + 4;

/** Why a cache was not used, in words for the log. */
export type CacheRejection = 'not a cache file' | 'another format version' | 'other folders' | 'damaged';

/** The folders and the read cap a cache was built for: a cache for others is not used. */
export function headerOf(setup: IndexSetup): string {
	return JSON.stringify({ roots: setup.roots.map(r => [r.path, r.realPath, r.name]), maxFileSize: setup.maxFileSize });
}

/** The bytes an encoding of `files` for `setup` takes, to refuse a write over the bound before making it. */
export function encodedSize(setup: IndexSetup, files: CachedFiles): number {
	let size = MAGIC.length + 4 + 4 + Buffer.byteLength(headerOf(setup)) + 4 + 4;
	for (const file of files) {
		size += FIXED + Buffer.byteLength(file.display) + (file.signature?.byteLength ?? 0);
	}
	return size;
}

/** Bytes encoded before they are handed on: a cache of a large tree is never whole in memory. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * The index's files as cache bytes: magic, format version, the setup (folders and read cap), the
 * count, then per file its display path, size, mtime, state and signature, and a CRC-32 of all
 * that last. Never any text: a signature is a Bloom filter of the text's 4-grams. Handed to
 * `write` a piece at a time, in one buffer it reuses: `write` must take each piece before it returns.
 */
export function writeSearchCache(setup: IndexSetup, files: CachedFiles, write: (piece: Buffer) => void): void {
	const out = Buffer.allocUnsafe(CHUNK_BYTES);
	let at = 0;
	let crc = 0;
	const flush = () => {
		if (at > 0) {
			const piece = out.subarray(0, at);
			crc = crc32(piece, crc);
			write(piece);
			at = 0;
		}
	};
	/** Room for `bytes` more (a piece larger than the buffer goes on its own). */
	const room = (bytes: number) => {
		if (at + bytes > out.length) {
			flush();
		}
	};
	const put = (bytes: Buffer) => {
		room(bytes.length);
		if (bytes.length > out.length) {
			crc = crc32(bytes, crc);
			write(bytes);
		} else {
			at += bytes.copy(out, at);
		}
	};
	put(MAGIC);
	const header = Buffer.from(headerOf(setup));
	room(12);
	at = out.writeUInt32LE(CACHE_FORMAT_VERSION, at);
	at = out.writeUInt32LE(header.length, at);
	put(header);
	room(4);
	at = out.writeUInt32LE(files.length, at);
	for (const file of files) {
		const display = Buffer.from(file.display);
		const signature = file.signature ? Buffer.from(file.signature.buffer, file.signature.byteOffset, file.signature.byteLength) : undefined;
		room(FIXED);
		at = out.writeDoubleLE(file.size, at);
		at = out.writeDoubleLE(file.mtimeMs, at);
		at = out.writeUInt8(file.state, at);
		at = out.writeUInt32LE(signature?.length ?? 0, at);
		at = out.writeUInt32LE(display.length, at);
		put(display);
		if (signature) {
			put(signature);
		}
	}
	flush();
	const tail = Buffer.allocUnsafe(4);
	tail.writeUInt32LE(crc >>> 0, 0);
	write(tail);
}

/** The whole encoding in one buffer (`writeSearchCache`'s pieces joined). */
export function encodeSearchCache(setup: IndexSetup, files: CachedFiles): Buffer {
	const pieces: Buffer[] = [];
	writeSearchCache(setup, files, piece => pieces.push(Buffer.from(piece)));
	return Buffer.concat(pieces);
}

/**
 * The files a cache holds, by display path, when it was written for `setup` by this format;
 * otherwise why not. Checks every length against the bytes there are, so damaged bytes are
 * refused, never read past.
 */
export function decodeSearchCache(bytes: Buffer, setup: IndexSetup): Map<string, CachedFile> | CacheRejection {
	if (bytes.length < MAGIC.length + 12 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
		return 'not a cache file';
	}
	if (bytes.readUInt32LE(MAGIC.length) !== CACHE_FORMAT_VERSION) {
		return 'another format version';
	}
	const body = bytes.subarray(0, bytes.length - 4);
	if (crc32(body) !== bytes.readUInt32LE(bytes.length - 4)) {
		return 'damaged';
	}
	let at = MAGIC.length + 4;
	const headerLength = body.readUInt32LE(at);
	at += 4;
	if (at + headerLength + 4 > body.length) {
		return 'damaged';
	}
	if (body.toString('utf8', at, at + headerLength) !== headerOf(setup)) {
		return 'other folders';
	}
	at += headerLength;
	const count = body.readUInt32LE(at);
	at += 4;
	const files = new Map<string, CachedFile>();
	for (let i = 0; i < count; i++) {
		if (at + FIXED > body.length) {
			return 'damaged';
		}
		const size = body.readDoubleLE(at);
		const mtimeMs = body.readDoubleLE(at + 8);
		const state = body.readUInt8(at + 16);
		const signatureLength = body.readUInt32LE(at + 17);
		const displayLength = body.readUInt32LE(at + 21);
		at += FIXED;
		if (at + displayLength + signatureLength > body.length || signatureLength % 4 !== 0 || (state !== 1 && state !== 2)) {
			return 'damaged';
		}
		const display = body.toString('utf8', at, at + displayLength);
		at += displayLength;
		let signature: Int32Array | undefined;
		if (signatureLength > 0) {
			// Copied out: an Int32Array needs an aligned offset, and the file's buffer is let go.
			signature = new Int32Array(signatureLength / 4);
			Buffer.from(signature.buffer).set(body.subarray(at, at + signatureLength));
			at += signatureLength;
		}
		if (state === 1 && !signature) {
			return 'damaged';
		}
		files.set(display, { display, size, mtimeMs, state, signature });
	}
	return at === body.length ? files : 'damaged';
}
