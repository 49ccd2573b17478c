import { formatBytes, InvalidParams } from '../../core/errors';

/**
 * Longest URI a request may name. Far above any real path or ref, and small enough that what
 * a session holds per URI (a subscription, a cache key, an error's `data`) stays small.
 */
export const MAX_URI_BYTES = 8 * 1024;

/** Refuses an over-long URI before any work is done for it, without echoing it back. */
export function checkUriLength(uri: string): void {
	const bytes = Buffer.byteLength(uri, 'utf8');
	if (bytes > MAX_URI_BYTES) {
		throw new InvalidParams(`URI is ${formatBytes(bytes)}, over the ${formatBytes(MAX_URI_BYTES)} limit for a resource URI`);
	}
}
