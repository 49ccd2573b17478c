import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';

/**
 * A transport that records what is sent through it, for tests of the layers that wrap a wire:
 * the test plays the other side by calling the `onmessage` (and `onclose`) its user set.
 */
export class RecordingTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	readonly sent: JSONRPCMessage[] = [];
	started = false;

	async start(): Promise<void> {
		this.started = true;
	}

	async send(message: JSONRPCMessage): Promise<void> {
		this.sent.push(message);
	}

	async close(): Promise<void> {
		this.onclose?.();
	}
}
