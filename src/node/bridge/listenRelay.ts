import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { IDisposable, nothingToDispose } from '../../common/lifecycle';

/** What the upstream agreed to watch for one listen request, and how to let it go. */
export interface Honoured {
	readonly uris: readonly string[];
	readonly release: IDisposable;
}

/**
 * The bridge's downstream wire, wrapped so a 2026-07-28 `subscriptions/listen` acknowledges only
 * the URIs the window honours. The SDK's listen router acknowledges every URI when the server
 * advertises `resources.subscribe` and has no per-URI hook (typescript-sdk #2827), so each listen
 * request is held here until the window has answered for its URIs (its own listen
 * acknowledgement, or its `resources/subscribe` results), then handed on with only those URIs.
 * Everything else passes straight through, in order; a request that arrives while a listen is
 * held is not kept waiting behind it.
 */
export class ListenRelayTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

	/** Listen requests being held, and whether the client cancelled one meanwhile. */
	private readonly held = new Map<RequestId, { cancelled: boolean }>();
	/** Open listen requests and what they hold upstream. */
	private readonly open = new Map<RequestId, IDisposable>();

	constructor(
		private readonly inner: Transport,
		private readonly honour: (uris: readonly string[]) => Promise<Honoured>,
		private readonly report: (message: string) => void,
		/** The client side went away (the wire closed). */
		private readonly onDidClose: () => void = () => undefined,
	) {
		inner.onmessage = (message, extra) => this.inbound(message, extra);
		inner.onclose = () => {
			this.releaseAll();
			this.onclose?.();
			this.onDidClose();
		};
		inner.onerror = error => this.onerror?.(error);
	}

	start(): Promise<void> {
		return this.inner.start();
	}

	send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
		// The router's graceful end of a listen stream (an empty result for its id) releases it.
		if ('id' in message && message.id !== undefined && ('result' in message || 'error' in message)) {
			this.release(message.id);
		}
		return this.inner.send(message, options);
	}

	async close(): Promise<void> {
		this.releaseAll();
		await this.inner.close();
	}

	setProtocolVersion = (version: string): void => {
		this.inner.setProtocolVersion?.(version);
	};

	private inbound(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
		const uris = listenUris(message);
		if (uris && 'id' in message) {
			void this.hold(message as JSONRPCMessage & { id: RequestId; params: Record<string, unknown> }, uris, extra);
			return;
		}
		if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
			const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
			if (id !== undefined) {
				const held = this.held.get(id);
				if (held) {
					held.cancelled = true; // never handed on: nothing downstream knows it
					return;
				}
				this.release(id);
			}
		}
		this.onmessage?.(message, extra);
	}

	private async hold(message: JSONRPCMessage & { id: RequestId; params: Record<string, unknown> }, uris: readonly string[], extra?: MessageExtraInfo): Promise<void> {
		const state = { cancelled: false };
		this.held.set(message.id, state);
		let honoured: Honoured;
		try {
			honoured = await this.honour(uris);
		} catch (err) {
			this.report(`could not ask the window about ${uris.length} URI(s): ${(err as Error).message}`);
			honoured = { uris: [], release: nothingToDispose };
		} finally {
			this.held.delete(message.id);
		}
		if (state.cancelled) {
			honoured.release.dispose();
			return;
		}
		this.open.get(message.id)?.dispose();
		this.open.set(message.id, honoured.release);
		const notifications = { ...(message.params.notifications as Record<string, unknown>), resourceSubscriptions: [...honoured.uris] };
		this.onmessage?.({ ...message, params: { ...message.params, notifications } }, extra);
	}

	private release(id: RequestId): void {
		const held = this.open.get(id);
		if (held) {
			this.open.delete(id);
			held.dispose();
		}
	}

	private releaseAll(): void {
		for (const id of [...this.open.keys()]) {
			this.release(id);
		}
		for (const held of this.held.values()) {
			held.cancelled = true;
		}
	}
}

/** The URIs of a `subscriptions/listen` request that asks for resource updates, or undefined. */
function listenUris(message: JSONRPCMessage): string[] | undefined {
	if (!('method' in message) || message.method !== 'subscriptions/listen' || !('id' in message)) {
		return undefined;
	}
	const requested = (message.params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)?.notifications?.resourceSubscriptions;
	if (!Array.isArray(requested) || !requested.every(u => typeof u === 'string')) {
		return undefined; // malformed: the SDK answers it
	}
	return requested as string[];
}
