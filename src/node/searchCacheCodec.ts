import { Buffer } from 'node:buffer';
import { readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { IndexSetup } from '../core/search/ports';
import { CachedFile, CachedFiles, SeedFiles } from '../core/search/searchIndex';
import { SignatureStore } from '../core/search/signatureStore';

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

/** Bytes a cache is read in at a time: a large cache is never whole in memory either. */
const READ_BYTES = 1024 * 1024;

/**
 * A cache's bytes taken in order, from a buffer or from a file a piece at a time, with the CRC-32
 * of what was taken. A piece taken is valid until the next `take`.
 */
export class CacheBytes {
	private buffer: Buffer;
	private start = 0;
	private end: number;
	private readFrom = 0;
	private taken = 0;
	crc = 0;

	private constructor(buffer: Buffer, end: number, readonly size: number, private readonly fd: number | undefined) {
		this.buffer = buffer;
		this.end = end;
	}

	/** The bytes of `bytes`. */
	static of(bytes: Buffer): CacheBytes {
		return new CacheBytes(bytes, bytes.length, bytes.length, undefined);
	}

	/** The bytes of an open file of `size` bytes, read `chunk` bytes at a time. */
	static read(fd: number, size: number, chunk = READ_BYTES): CacheBytes {
		return new CacheBytes(Buffer.allocUnsafe(chunk), 0, size, fd);
	}

	/** Bytes not taken yet. */
	get left(): number {
		return this.size - this.taken;
	}

	/** The next `n` bytes (counted into `crc` unless `crc` is false), or undefined past the end. */
	take(n: number, crc = true): Buffer | undefined {
		if (n > this.left) {
			return undefined;
		}
		if (this.end - this.start < n) {
			this.fill(n);
		}
		const piece = this.buffer.subarray(this.start, this.start + n);
		this.start += n;
		this.taken += n;
		if (crc) {
			this.crc = crc32(piece, this.crc);
		}
		return piece;
	}

	/** Reads on until `n` bytes wait (the file holds them: `take` checked). */
	private fill(n: number): void {
		const waiting = this.buffer.subarray(this.start, this.end);
		const into = n > this.buffer.length ? Buffer.allocUnsafe(Math.max(n, this.buffer.length * 2)) : this.buffer;
		waiting.copy(into, 0);
		this.buffer = into;
		this.end = waiting.length;
		this.start = 0;
		while (this.end < n) {
			const got = readSync(this.fd!, this.buffer, this.end, this.buffer.length - this.end, this.readFrom);
			if (got === 0) {
				throw new Error('the cache file ended early');
			}
			this.readFrom += got;
			this.end += got;
		}
	}
}

/**
 * The files a cache holds, by display path, when it was written for `setup` by this format;
 * otherwise why not. Checks every length against the bytes there are, so damaged bytes are
 * refused, never read past; the CRC is checked at the end, and a damaged cache's signatures are
 * dropped with it. Each signature goes into a store of the seed's own, which the index takes over.
 */
export function decodeSearchCache(bytes: Buffer | CacheBytes, setup: IndexSetup): SeedFiles | CacheRejection {
	const source = bytes instanceof CacheBytes ? bytes : CacheBytes.of(bytes);
	const magic = source.left >= MAGIC.length + 12 ? source.take(MAGIC.length) : undefined;
	if (!magic?.equals(MAGIC)) {
		return 'not a cache file';
	}
	if (source.take(4)!.readUInt32LE(0) !== CACHE_FORMAT_VERSION) {
		return 'another format version';
	}
	const headerLength = source.take(4)!.readUInt32LE(0);
	const header = headerLength + 8 <= source.left ? source.take(headerLength) : undefined;
	if (!header) {
		return 'damaged';
	}
	if (header.toString('utf8') !== headerOf(setup)) {
		return 'other folders';
	}
	const count = source.take(4)!.readUInt32LE(0);
	const files = new Map<string, CachedFile & { readonly address: number }>();
	const signatures = new SignatureStore();
	for (let i = 0; i < count; i++) {
		const fixed = source.left >= FIXED + 4 ? source.take(FIXED) : undefined;
		if (!fixed) {
			return 'damaged';
		}
		const size = fixed.readDoubleLE(0);
		const mtimeMs = fixed.readDoubleLE(8);
		const state = fixed.readUInt8(16);
		const signatureLength = fixed.readUInt32LE(17);
		const displayLength = fixed.readUInt32LE(21);
		if (displayLength + signatureLength + 4 > source.left || signatureLength % 4 !== 0 || (state !== 1 && state !== 2)) {
			return 'damaged';
		}
		const display = source.take(displayLength)!.toString('utf8');
		let signature: Int32Array | undefined;
		let address = -1;
		if (signatureLength > 0) {
			address = signatures.putBytes(source.take(signatureLength)!);
			signature = signatures.get(address, signatureLength / 4);
		}
		if (state === 1 && !signature) {
			return 'damaged';
		}
		files.set(display, { display, size, mtimeMs, state, signature, address });
	}
	if (source.left !== 4) {
		return 'damaged';
	}
	const crc = source.crc >>> 0;
	return source.take(4, false)!.readUInt32LE(0) === crc ? { files, signatures } : 'damaged';
}
