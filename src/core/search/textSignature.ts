import { Buffer, isUtf8 } from 'node:buffer';
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

/** Text as the files provider serves it: no NUL near the start, and valid UTF-8. */
function isText(bytes: Buffer): boolean {
	return !bytes.subarray(0, BINARY_SNIFF).includes(0) && isUtf8(bytes);
}
