import { DisposableStore, IDisposable } from '../../common/lifecycle';
import { formatBytes } from '../../core/errors';
import { ProviderRegistry } from '../../core/registry';
import { MAX_SUBSCRIPTION_BYTES_PER_SESSION, MAX_SUBSCRIPTIONS_PER_SESSION } from './sessionSubscriptions';
import { MAX_URI_BYTES } from '../server/uriLimit';

/** A listen request over the per-stream caps, or naming something that is not a URI: refused with this message (-32602). */
export class ListenRefused extends RangeError {}

/** The URIs a listen stream is acknowledged for, and what the providers hold to notify them while it is open. */
export interface HonouredSubscriptions {
	readonly uris: string[];
	/** Dispose when the stream ends. */
	readonly hold: IDisposable;
}

/**
 * Which of a `subscriptions/listen` request's `resourceSubscriptions` this server honours: the
 * URIs it would serve. Secret, ignored, outside, unknown or over-long URIs are left out, so
 * the acknowledgement never claims them and they are never notified. The SDK's listen router
 * has no per-URI hook (typescript-sdk #2827), so this runs on the request before it does.
 * Returns undefined when the request names no URIs (nothing to filter).
 */
export async function honouredSubscriptions(registry: ProviderRegistry, params: unknown): Promise<HonouredSubscriptions | undefined> {
	const requested = requestedUris(params);
	if (requested === undefined) {
		return undefined;
	}
	const notUris = requested.filter(uri => typeof uri !== 'string').length;
	if (notUris > 0) {
		throw new ListenRefused(`resourceSubscriptions must be URIs, as strings: ${notUris} of its entries are not`);
	}
	// A URI named twice is one subscription, and counts once against the caps.
	const unique = [...new Set(requested as string[])];
	if (unique.length > MAX_SUBSCRIPTIONS_PER_SESSION) {
		throw new ListenRefused(`At most ${MAX_SUBSCRIPTIONS_PER_SESSION} resourceSubscriptions per listen stream; listen to fewer`);
	}
	const bytes = unique.reduce((sum, uri) => sum + Buffer.byteLength(uri, 'utf8'), 0);
	if (bytes > MAX_SUBSCRIPTION_BYTES_PER_SESSION) {
		throw new ListenRefused(`At most ${formatBytes(MAX_SUBSCRIPTION_BYTES_PER_SESSION)} of resourceSubscriptions URIs per listen stream; listen to fewer`);
	}
	const holds = await Promise.all(unique.map(uri => subscribedIfServed(registry, uri)));
	const hold = new DisposableStore();
	holds.forEach(h => h && hold.add(h));
	return { uris: unique.filter((_, i) => holds[i] !== undefined), hold };
}

/** The same params with `resourceSubscriptions` replaced by `honoured`. */
export function withSubscriptions(params: unknown, honoured: readonly string[]): unknown {
	const p = params as { notifications: Record<string, unknown> };
	return { ...p, notifications: { ...p.notifications, resourceSubscriptions: [...honoured] } };
}

function requestedUris(params: unknown): unknown[] | undefined {
	if (params === null || typeof params !== 'object') {
		return undefined;
	}
	const filter = (params as { notifications?: unknown }).notifications;
	if (filter === null || typeof filter !== 'object') {
		return undefined;
	}
	const uris = (filter as { resourceSubscriptions?: unknown }).resourceSubscriptions;
	return Array.isArray(uris) ? uris : undefined;
}

/** What the providers hold to notify `uri` for the stream, or undefined when it is not served. */
async function subscribedIfServed(registry: ProviderRegistry, uri: string): Promise<IDisposable | undefined> {
	if (Buffer.byteLength(uri, 'utf8') > MAX_URI_BYTES || !registry.providers.some(p => p.handles(uri))) {
		return undefined; // a scheme no provider owns is never notified: don't claim it
	}
	try {
		return await registry.subscribe(uri);
	} catch {
		return undefined;
	}
}
