import type { FetchLike } from '@modelcontextprotocol/client';

/** Where VS Code's extension host keeps Node's own `fetch` when it replaces the global one. */
interface PatchedGlobal {
	readonly __vscodeOriginalFetch?: unknown;
}

/**
 * Node's own `fetch`, from before VS Code's extension host replaced the global one with its proxy
 * support (`http.proxySupport`, `http.fetchAdditionalSupport`), or undefined when it did not. The
 * replacement resolves a proxy and loads every system CA certificate before the first request,
 * whatever the URL: for the picker's loopback `http:` connection to its own window's server that is
 * work with no use that holds the extension host's loop, as is a proxy for a loopback URL.
 * VS Code's proxy resolver keeps the original on
 * `globalThis.__vscodeOriginalFetch` (not an API: test/vscode checks it is there); without it
 * the global `fetch` is used as before.
 */
export function unpatchedFetch(): FetchLike | undefined {
	const original = (globalThis as PatchedGlobal).__vscodeOriginalFetch;
	return typeof original === 'function' && original !== globalThis.fetch ? original as FetchLike : undefined;
}
