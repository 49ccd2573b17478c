import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo, RequestId, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { ProviderRegistry } from '../core/registry';
import { amendDiscover } from './discover';
import { honouredSubscriptions, ListenTooLarge, withSubscriptions } from './listenFilter';
import { ListenInterest } from './listenInterest';

/**
 * Sits between the stdio wire and the SDK's `serveStdio`, which picks the era per connection
 * and answers `server/discover` and `subscriptions/listen` itself. It does what the SDK leaves
 * to us (as the HTTP front does): listen URIs are filtered to what this server would serve
 * before the SDK acknowledges them, discover names the 2025 revisions too, and `interest`
 * holds the URIs of open listen streams. Messages keep their order: each waits for the one
 * before it.
 */
export class EraAwareStdio implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
	private queue: Promise<void> = Promise.resolve();
	/** Messages queued behind a listen request whose URIs are being checked. */
	private waiting = 0;
	private readonly discoverIds = new Set<RequestId>();
	private readonly listens = new Map<RequestId, () => void>();

	constructor(private readonly wire: Transport, private readonly registry: ProviderRegistry, readonly interest: ListenInterest) {
		wire.onmessage = (message, extra) => {
			if (this.waiting === 0 && !isListen(message)) {
				this.receive(message, extra); // the common case: nothing to wait for, no promise hop
				return;
			}
			this.waiting++;
			this.queue = this.queue
				.then(() => isListen(message) ? this.receiveListen(message, extra) : this.receive(message, extra))
				.catch(err => this.onerror?.(err as Error))
				.finally(() => { this.waiting--; });
		};
		wire.onerror = err => this.onerror?.(err);
		wire.onclose = () => {
			for (const release of this.listens.values()) {
				release();
			}
			this.listens.clear();
			this.onclose?.();
		};
	}

	start(): Promise<void> {
		return this.wire.start();
	}

	close(): Promise<void> {
		return this.wire.close();
	}

	setProtocolVersion = (version: string): void => {
		this.wire.setProtocolVersion?.(version);
	};

	send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
		if ('id' in message && !('method' in message) && message.id !== undefined) {
			this.listens.get(message.id)?.();
			this.listens.delete(message.id);
			if (this.discoverIds.delete(message.id) && 'result' in message) {
				return this.wire.send({ ...message, result: amendDiscover(message.result) as typeof message.result }, options);
			}
		}
		return this.wire.send(message, options);
	}

	private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
		if ('method' in message && 'id' in message && message.method === 'server/discover') {
			this.discoverIds.add(message.id);
		} else if ('method' in message && message.method === 'notifications/cancelled') {
			const cancelled = (message.params as { requestId?: RequestId } | undefined)?.requestId;
			if (cancelled !== undefined) {
				this.listens.get(cancelled)?.();
				this.listens.delete(cancelled);
			}
		}
		this.onmessage?.(message, extra);
	}

	private async receiveListen(message: JSONRPCRequest, extra?: MessageExtraInfo): Promise<void> {
		let honoured: string[] | undefined;
		try {
			honoured = await honouredSubscriptions(this.registry, message.params);
		} catch (err) {
			if (err instanceof ListenTooLarge) {
				await this.wire.send({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: err.message } });
				return;
			}
			throw err;
		}
		if (honoured !== undefined) {
			this.listens.set(message.id, this.interest.hold(honoured));
			message = { ...message, params: withSubscriptions(message.params, honoured) as typeof message.params };
		}
		this.onmessage?.(message, extra);
	}
}

function isListen(message: JSONRPCMessage): message is JSONRPCRequest {
	return 'method' in message && 'id' in message && message.method === 'subscriptions/listen';
}
