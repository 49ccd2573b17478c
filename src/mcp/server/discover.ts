import { SERVER_INFO_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { SERVER_ICONS } from './icons';

/**
 * What the SDK's `server/discover` answer leaves out, added on the way to the client. The SDK
 * names the 2026-07-28 revisions only, and reinstalls its handler on every instance it serves
 * (no public override); this endpoint also serves the 2025 revisions (through `initialize`), so
 * they are named too (clients pick the first of their own modern versions found in the list,
 * so the extra entries never lead one astray). And the server's icons ride here, once, rather
 * than in the serverInfo stamped on every 2026-07-28 result.
 */
export function amendDiscover(result: unknown): unknown {
	if (result === null || typeof result !== 'object') {
		return result;
	}
	const discovered = result as { supportedVersions?: unknown; _meta?: Record<string, unknown> };
	if (!Array.isArray(discovered.supportedVersions)) {
		return result;
	}
	const advertised: unknown[] = discovered.supportedVersions;
	const amended: Record<string, unknown> = {
		...discovered,
		supportedVersions: [...advertised, ...SUPPORTED_PROTOCOL_VERSIONS.filter(v => !advertised.includes(v))],
	};
	const serverInfo = discovered._meta?.[SERVER_INFO_META_KEY];
	if (serverInfo !== null && typeof serverInfo === 'object') {
		amended._meta = { ...discovered._meta, [SERVER_INFO_META_KEY]: { ...serverInfo, icons: [...SERVER_ICONS] } };
	}
	return amended;
}

/** A `server/discover` reply (a JSON-RPC response) with its result amended; an error reply is left as it is. */
export function amendDiscoverReply<T extends object>(reply: T): T {
	return 'result' in reply ? { ...reply, result: amendDiscover(reply.result) } : reply;
}
