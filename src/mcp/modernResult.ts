import { SERVER_INFO_META_KEY, type Implementation } from '@modelcontextprotocol/server';
import { CACHE_HINTS } from './cacheHints';

/** Makes a handler's fresh result object into the result its era answers; may add to it in place. */
export type ResultFinisher = <R extends object>(method: string, result: R) => R;

/** 2025 results go out as the handlers made them. */
export const asMade: ResultFinisher = (_method, result) => result;

/**
 * 2026-07-28 results with the members the SDK's encoder would otherwise add: `resultType`, the
 * cache fields of a cacheable result, and the server's identity in `_meta`. The encoder keeps
 * what a handler wrote (the more specific author wins, its documented order), so an answer is
 * made once here instead of copied by each of its steps; and the members come in the encoder's
 * own order, so the bytes on the wire are the same. Results are fresh objects with no `_meta`
 * of their own (every handler builds its result as a literal).
 */
export function modernResultFinisher(serverInfo: Implementation): ResultFinisher {
	return (method, result) => {
		const fields = result as Record<string, unknown>;
		fields.resultType = 'complete';
		const hint = CACHE_HINTS[method];
		if (hint) {
			fields.ttlMs = hint.ttlMs;
			fields.cacheScope = hint.cacheScope;
		}
		fields._meta = { [SERVER_INFO_META_KEY]: serverInfo };
		return result;
	};
}
