import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ResourceNotFound } from './errors';

/** The canonical `file:` URI of an absolute path, as every part of the product spells it. */
export function fileUri(absPath: string): string {
	return pathToFileURL(absPath).href;
}

/**
 * Turns a client-supplied `file:` URI into an absolute path, refusing anything that is not a
 * plain absolute path: other hosts, queries, fragments, `.`/`..` segments (plain or
 * percent-encoded), encoded separators, NUL, malformed escapes. (A backslash is an ordinary
 * file-name character on POSIX, a separator on Windows.) Containment in the workspace
 * is checked separately. Every refusal is a ResourceNotFound carrying only the client's URI.
 */
export function fileUriToPath(uri: string): string {
	const match = /^file:\/\/([^/?#]*)(\/[^?#]*)$/i.exec(uri);
	if (!match) {
		throw new ResourceNotFound(uri);
	}
	const host = match[1].toLowerCase();
	if (host !== '' && host !== 'localhost') {
		throw new ResourceNotFound(uri);
	}
	const segments: string[] = [];
	const rawSegments = match[2].split('/').slice(1);
	for (let i = 0; i < rawSegments.length; i++) {
		const raw = rawSegments[i];
		let segment: string;
		try {
			segment = decodeURIComponent(raw);
		} catch {
			throw new ResourceNotFound(uri);
		}
		if (segment === '' && i === rawSegments.length - 1 && i > 0) {
			throw new ResourceNotFound(uri); // trailing slash: a directory, not a file
		}
		if (segment === '' || segment === '.' || segment === '..' ||
			segment.includes('/') || segment.includes('\0') || (path.sep === '\\' && segment.includes('\\'))) {
			throw new ResourceNotFound(uri);
		}
		segments.push(segment);
	}
	if (segments.length === 0) {
		throw new ResourceNotFound(uri);
	}
	const absPath = path.sep + segments.join(path.sep);
	if (path.normalize(absPath) !== absPath) {
		throw new ResourceNotFound(uri);
	}
	return absPath;
}
