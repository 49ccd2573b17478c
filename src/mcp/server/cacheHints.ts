import type { ServerOptions } from '@modelcontextprotocol/server';

/**
 * How long a 2026-07-28 client may reuse a result (`ttlMs`) and who may (`cacheScope`).
 * Everything is `private`: it is one person's workspace, served behind their token. Lists and
 * reads are live (a file can change at any keystroke, and changes are announced on
 * `subscriptions/listen`), so they are never fresh for longer than the moment they were made.
 * Templates and the discovery result change only when the server restarts with another build
 * (a client that reconnects after a restart discovers again), so they keep for ten minutes.
 */
export const LIVE_TTL_MS = 0;
export const STATIC_TTL_MS = 10 * 60_000;

/** The cacheable results of 2026-07-28 (the SDK's closed list) and the hint each gets; the SDK stamps them. */
export const CACHE_HINTS: NonNullable<ServerOptions['cacheHints']> = {
	'resources/list': { ttlMs: LIVE_TTL_MS, cacheScope: 'private' },
	'resources/read': { ttlMs: LIVE_TTL_MS, cacheScope: 'private' },
	'resources/templates/list': { ttlMs: STATIC_TTL_MS, cacheScope: 'private' },
	'server/discover': { ttlMs: STATIC_TTL_MS, cacheScope: 'private' },
	'tools/list': { ttlMs: STATIC_TTL_MS, cacheScope: 'private' },
	'prompts/list': { ttlMs: STATIC_TTL_MS, cacheScope: 'private' },
};

