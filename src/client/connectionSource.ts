import type { FetchLike } from '@modelcontextprotocol/client';
import { Event } from '../common/event';

export type ConnectionTarget =
	/**
	 * `fetch`: what the transport fetches with, when not the global `fetch` (see RunnerSource);
	 * `maxMessageBytes`: for servers the user did not write (see cappedFetch).
	 */
	| { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly fetch?: FetchLike; readonly maxMessageBytes?: number }
	| { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>>; readonly cwd?: string };

/** Thrown by a source that has no server to offer right now (not an error to retry at once). */
export class SourceUnavailable extends Error {}

/**
 * Where a connection's server is. `resolve` may wait; `onDidChange` asks for a reconnect. A
 * source without `onDidChange` (the bridge's lock files) is asked again on the backoff schedule.
 */
export interface ConnectionSource {
	resolve(): Promise<ConnectionTarget>;
	readonly onDidChange?: Event<void>;
}
