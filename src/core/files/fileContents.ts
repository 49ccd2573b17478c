import { base64Bytes, fitsJson, MAX_ANSWER_BYTES, MAX_RANGE_SOURCE_BYTES } from '../answerBudget';
import { formatBytes, ResourceNotFound, ResourceTooLarge } from '../errors';
import { decodeText, isBinaryMime, mimeTypeForName, BINARY_MIME, TEXT_MIME } from '../mime';
import { FileSettings, FileSystemReader, OpenDocuments } from '../ports';
import { ResourceContent } from '../resource';
import { LocatedFile, ServedPaths } from './servedPaths';
import * as path from 'node:path';

/**
 * Errors of opening a path that mean no file is there to serve: missing, a directory, a path
 * through a file, a link loop, a name too long to exist (a client may send 8 KB URIs), or a
 * socket (open(2) says ENXIO). The client gets not-found with its URI, not an internal error.
 */
const NO_FILE_THERE = new Set(['ENOENT', 'EISDIR', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG', 'ENXIO']);

/** What reading a file's contents needs. */
export interface FileContentsPorts {
	readonly reader: FileSystemReader;
	readonly documents: OpenDocuments;
	readonly settings: FileSettings;
	readonly served: ServedPaths;
}

/**
 * A located file's contents as `resources/read` returns them under `uri`: the editor's unsaved
 * text when it is dirty, else the file as opened (and checked) on disk, text or base64 blob,
 * both held to the read cap and, whatever the cap says, to the answer budget.
 */
export async function fileContents(uri: string, located: LocatedFile, { reader, documents, settings, served }: FileContentsPorts): Promise<ResourceContent[]> {
	const { absPath, index } = located;
	const mimeType = mimeTypeForName(path.basename(absPath));
	const dirty = documents.dirtyText(absPath);
	if (dirty !== undefined) {
		// The editor's buffer, not the disk: nothing is opened, so the name is checked.
		await served.checkTarget(uri, located);
		// The same cap as for the saved file: a big file edited, or a big paste, is no exception.
		const size = Buffer.byteLength(dirty, 'utf8');
		if (size > settings.maxFileSize) {
			throw overSetting(uri, size, settings);
		}
		if (!fitsJson(dirty, size)) {
			throw overBudget(uri, size, 'as JSON text', settings);
		}
		return [{ uri, mimeType: mimeType ?? TEXT_MIME, text: dirty }];
	}
	// The file is opened first and what was opened is checked: a link renamed over the
	// file after a check by name would otherwise be followed by the read.
	const accept = (realPath: string) => realPath === absPath || served.isServedTarget(realPath, index);
	const result = await reader.readFileUpTo(absPath, Math.min(settings.maxFileSize, MAX_ANSWER_BYTES), accept).catch((err: NodeJS.ErrnoException) => {
		if (err?.code !== undefined && NO_FILE_THERE.has(err.code)) {
			throw new ResourceNotFound(uri);
		}
		throw err;
	});
	if (result.kind === 'not-a-file' || result.kind === 'refused') {
		throw new ResourceNotFound(uri);
	}
	if (result.kind === 'too-large') {
		if (result.size > settings.maxFileSize) {
			throw overSetting(uri, result.size, settings);
		}
		throw overBudget(uri, result.size, 'on disk', settings);
	}
	const bytes = result.bytes;
	const text = isBinaryMime(mimeType) ? undefined : decodeText(bytes);
	if (text !== undefined) {
		if (!fitsJson(text, bytes.length)) {
			throw overBudget(uri, bytes.length, 'as JSON text', settings);
		}
		return [{ uri, mimeType: mimeType ?? TEXT_MIME, text }];
	}
	if (base64Bytes(bytes.length) > MAX_ANSWER_BYTES) {
		throw overBudget(uri, bytes.length, 'in base64', settings);
	}
	// Bytes that are not UTF-8 text go as a blob, still under the type the name gives: the one
	// `resources/list` announced for this file (a Latin-1 `.txt` is text/plain in either answer).
	return [{ uri, mimeType: mimeType ?? BINARY_MIME, blob: Buffer.from(bytes).toString('base64') }];
}

/**
 * What a client can do about a file over MAX_RANGE_SOURCE_BYTES: nothing a setting or a range
 * changes, so the error must not send it to either.
 */
export const NO_READ_TAKES_IT = `no read takes a file over ${formatBytes(MAX_RANGE_SOURCE_BYTES)}, whole or in ranges: it is listed, and its name and size are all that is served`;

/**
 * Over the read cap the setting sets: raising it helps only while the file stays within the
 * answer budget; past that, only ranges read it.
 */
function overSetting(uri: string, size: number, settings: FileSettings): ResourceTooLarge {
	if (size > MAX_RANGE_SOURCE_BYTES) {
		return new ResourceTooLarge(uri, size, settings.maxFileSize, settings.maxFileSizeSetting, NO_READ_TAKES_IT);
	}
	return size > MAX_ANSWER_BYTES
		? new ResourceTooLarge(uri, size, settings.maxFileSize, settings.maxFileSizeSetting,
			`read it in ranges (?lines=N-M): a whole read answers at most ${formatBytes(MAX_ANSWER_BYTES)}, whatever ${settings.maxFileSizeSetting} says`)
		: new ResourceTooLarge(uri, size, settings.maxFileSize, settings.maxFileSizeSetting);
}

/**
 * A whole read whose answer would pass {@link MAX_ANSWER_BYTES} written into JSON, the too-large
 * error pointing at ranges: a read cap set above the budget must not send a message the SDK's
 * stdio client drops with the whole connection. `size` is the file's, so a range (which reads
 * files up to 16 MB) still takes the file.
 */
function overBudget(uri: string, size: number, how: string, settings: FileSettings): ResourceTooLarge {
	if (size > MAX_RANGE_SOURCE_BYTES) {
		// A read cap set above 16 MB: ranges would refuse this file too, so they are no advice.
		return new ResourceTooLarge(uri, size, MAX_ANSWER_BYTES, settings.maxFileSizeSetting, NO_READ_TAKES_IT);
	}
	return new ResourceTooLarge(uri, size, MAX_ANSWER_BYTES, settings.maxFileSizeSetting,
		`a whole read answers at most ${formatBytes(MAX_ANSWER_BYTES)} ${how}, whatever ${settings.maxFileSizeSetting} says (more would overflow stdio clients); read it in ranges (?lines=N-M)`);
}
