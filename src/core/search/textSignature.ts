import { Buffer, isUtf8 } from 'node:buffer';
import { ListedRead } from '../ports';
import { SignedFile } from './ports';
import { quadgramSignature } from './quadgrams';

/** Bytes a file's first NUL is looked for in, as git tells binaries (and `decodeText` does). */
const BINARY_SNIFF = 8000;

/**
 * The signature the index keeps for a file's bytes, or undefined when there is nothing to search
 * in them (binary, or over `maxFileSize`). The one decision, wherever the file was read.
 */
export function textSignature(bytes: Buffer, maxFileSize: number): Int32Array | undefined {
	return bytes.length <= maxFileSize && isText(bytes) ? quadgramSignature(bytes) : undefined;
}

/**
 * What a read of a listed file gives the index: the same in the index's thread and in the signer
 * threads. The bytes are a view of the reader's scratch buffer, so they are signed here and never kept.
 */
export function signedFile(read: ListedRead, maxFileSize: number): SignedFile {
	const { result, realPath } = read;
	if (result.kind !== 'ok') {
		return { realPath, size: 0, signature: undefined };
	}
	const bytes = Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
	return { realPath, size: bytes.length, signature: textSignature(bytes, maxFileSize) };
}

/** Text as the files provider serves it: no NUL near the start, and valid UTF-8. */
function isText(bytes: Buffer): boolean {
	return !bytes.subarray(0, BINARY_SNIFF).includes(0) && isUtf8(bytes);
}
