import { ServerCapabilities } from '@modelcontextprotocol/server';

// How requests and results are reshaped between the client's era and the window's.

/** The bridge offers what the window offers (resources, subscriptions, completions), nothing more. */
export function mirrorCapabilities(upstream: ServerCapabilities | undefined): ServerCapabilities {
	const capabilities: ServerCapabilities = {};
	for (const key of ['resources', 'completions', 'tools', 'prompts'] as const) {
		if (upstream?.[key]) {
			(capabilities as Record<string, unknown>)[key] = upstream[key];
		}
	}
	return capabilities;
}

/**
 * A client's params without its own protocol envelope: the upstream client adds the envelope of
 * the window's era (a 2026 client's `_meta` sent to a 2025 window would claim the wrong era).
 */
export function forwardable(params: Record<string, unknown> | undefined): Record<string, unknown> {
	if (!params) {
		return {};
	}
	const { _meta: meta, ...rest } = params as { _meta?: Record<string, unknown> };
	if (!meta) {
		return rest;
	}
	const kept = Object.fromEntries(Object.entries(meta).filter(([key]) => !key.startsWith('io.modelcontextprotocol/')));
	return Object.keys(kept).length > 0 ? { ...rest, _meta: kept } : rest;
}

/** A result as a 2025 client expects it: without the 2026-07-28 revision's own fields. */
export function withoutModernFields<T>(result: T): T {
	if (result === null || typeof result !== 'object') {
		return result;
	}
	const rest = { ...(result as Record<string, unknown>) };
	delete rest.ttlMs;
	delete rest.cacheScope;
	delete rest.resultType;
	return rest as T;
}
