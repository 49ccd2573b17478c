import { ProviderRegistry } from '../../core/registry';
import { HonouredSubscriptions, honouredSubscriptions, ListenRefused, withSubscriptions } from './listenFilter';
import { ListenedUris } from './listenedUris';

/** A listen request over the per-stream caps, answered with this JSON-RPC error (HTTP 400 on the HTTP front). */
export interface ListenRefusal {
	readonly code: number;
	readonly message: string;
}

export type ListenAdmission<T> =
	| { readonly refusal: ListenRefusal }
	/** `release` lets go of the stream's URIs (in `listened` and the providers) when the stream ends. */
	| { readonly request: T; readonly release: () => void };

/**
 * What the SDK leaves to us on a `subscriptions/listen` request, the same on the HTTP and stdio
 * fronts: over the caps it is refused with -32602; otherwise its `resourceSubscriptions` are cut
 * to the URIs this server would serve (before the SDK acknowledges them) and held in `listened`,
 * and by the providers (spellings, template URIs), while the stream is open.
 */
export class ListenGate {
	constructor(private readonly registry: ProviderRegistry, readonly listened: ListenedUris) {}

	async admit<T extends { readonly params?: unknown }>(request: T): Promise<ListenAdmission<T>> {
		let honoured: HonouredSubscriptions | undefined;
		try {
			honoured = await honouredSubscriptions(this.registry, request.params);
		} catch (err) {
			if (err instanceof ListenRefused) {
				return { refusal: { code: -32602, message: err.message } };
			}
			throw err;
		}
		if (honoured === undefined) {
			return { request, release: () => undefined };
		}
		const listened = this.listened.hold(honoured.uris);
		const { hold } = honoured;
		return {
			request: { ...request, params: withSubscriptions(request.params, honoured.uris) },
			release: () => {
				listened();
				hold.dispose();
			},
		};
	}
}
