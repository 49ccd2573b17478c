import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/server';

/** A request for a server instance's side door (see `PinnedShortcut`), under its caller's id. */
export interface SideDoorRequest {
	readonly id: RequestId;
	readonly method: string;
	readonly params?: Record<string, unknown>;
}

/**
 * Requests handed to a server instance through a side door, each under a wire id of its own,
 * and their answers given back under the caller's id. Wire ids are strings under a prefix random
 * to this instance: two HTTP clients may both send id 1, and the instance may also serve its
 * client's own requests through the SDK's transport (a 2025 session), whose ids must never meet
 * ours in the instance's bookkeeping.
 */
export class SideDoorCalls {
	private readonly prefix = `${randomUUID()}:`;
	private nextId = 0;
	private readonly waiting = new Map<string, { readonly id: RequestId; readonly settle: (answer: JSONRPCMessage | undefined) => void }>();
	private ended = false;

	/**
	 * Hands `request` to `deliver` under a wire id; resolves with the instance's answer (a result
	 * or an error) under the caller's id, or undefined when it was not delivered or the instance
	 * went away first.
	 */
	call(request: SideDoorRequest, deliver: (message: JSONRPCRequest) => boolean): Promise<JSONRPCMessage | undefined> {
		if (this.ended) {
			return Promise.resolve(undefined);
		}
		const wireId = `${this.prefix}${this.nextId++}`;
		return new Promise(settle => {
			this.waiting.set(wireId, { id: request.id, settle });
			const message: JSONRPCRequest = { jsonrpc: '2.0', id: wireId, method: request.method, ...request.params !== undefined && { params: request.params } };
			if (!deliver(message)) {
				this.waiting.delete(wireId);
				settle(undefined);
			}
		});
	}

	/** Takes what the instance sent: true when it answered one of ours (handed back to its caller). */
	answer(message: JSONRPCMessage): boolean {
		if (!('id' in message) || 'method' in message || typeof message.id !== 'string') {
			return false;
		}
		const waiter = this.waiting.get(message.id);
		if (!waiter) {
			return false;
		}
		this.waiting.delete(message.id);
		waiter.settle({ ...message, id: waiter.id });
		return true;
	}

	/** The instance went away: callers still waiting get undefined, and so does every later call. */
	end(): void {
		this.ended = true;
		for (const waiter of this.waiting.values()) {
			waiter.settle(undefined);
		}
		this.waiting.clear();
	}
}
