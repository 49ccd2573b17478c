import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo, RequestId, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { amendDiscoverReply } from '../server/discover';
import { ListenGate } from '../subscriptions/listenGate';

/**
 * Sits between the stdio wire and the SDK's `serveStdio`, which picks the era per connection
 * and answers `server/discover` and `subscriptions/listen` itself. It does what the SDK leaves
 * to us, through the same gate as the HTTP front: listen URIs are filtered to what this server
 * would serve before the SDK acknowledges them (the gate's `listened` holds those of open
 * streams), and discover names the 2025 revisions too. Messages keep their order: each waits
 * for the one before it.
 */
export class FilteringStdioTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
	private queue: Promise<void> = Promise.resolve();
	/** Messages queued behind a listen request whose URIs are being checked. */
	private waiting = 0;
	private readonly discoverIds = new Set<RequestId>();
	private readonly listens = new Map<RequestId, () => void>();
	/** The wire closed: a listen admitted after that is let go of at once (nothing will end it). */
	private closed = false;

	constructor(private readonly wire: Transport, private readonly gate: ListenGate) {
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
			this.closed = true;
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
			if (this.discoverIds.delete(message.id)) {
				return this.wire.send(amendDiscoverReply(message), options);
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
				// A cancelled discover gets no answer, so its id would be kept for good.
				this.discoverIds.delete(cancelled);
			}
		}
		this.onmessage?.(message, extra);
	}

	private async receiveListen(message: JSONRPCRequest, extra?: MessageExtraInfo): Promise<void> {
		const admission = await this.gate.admit(message);
		if ('refusal' in admission) {
			await this.wire.send({ jsonrpc: '2.0', id: message.id, error: admission.refusal });
			return;
		}
		if (this.closed) {
			admission.release();
			return;
		}
		this.listens.set(message.id, admission.release);
		this.onmessage?.(admission.request, extra);
	}
}

function isListen(message: JSONRPCMessage): message is JSONRPCRequest {
	return 'method' in message && 'id' in message && message.method === 'subscriptions/listen';
}
