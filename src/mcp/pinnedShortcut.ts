import { Server } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, MessageExtraInfo, RequestId, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

/**
 * The requests that may skip the SDK's entry (`serveStdio`, or a 2025 session's HTTP transport)
 * once it has pinned an instance: pure reads, which the entry would hand to the instance untouched,
 * and which can be served again if need be. Everything else (listen, cancellations, `initialize`,
 * discover, subscribe, completion) keeps going through the entry.
 */
export const SHORTCUT_METHODS: ReadonlySet<string> = new Set(['resources/read', 'resources/list', 'resources/templates/list']);

/**
 * A way round the per-message work of the SDK's `serveStdio` entry for the hot reads, on a
 * connection the entry has already pinned to one instance. On such a connection the entry only
 * forwards a read to the instance, but on 2026-07-28 it first runs up to four Zod schema checks
 * on it (`isJSONRPCRequest` twice, and `isJSONRPCNotification`, which fails and builds its
 * issues), awaits a listen check, and checks each answer again on the way out
 * (`isJSONRPCResultResponse`, and `isJSONRPCNotification` in the listen router's intercept):
 * about half of what a 2026-07-28 read cost the server more than a 2025 one. Here a read goes
 * straight to the instance's side of the channel the entry connected it to, and its answer
 * straight to the wire: the instance (the SDK's `Protocol`) still does the whole protocol, the
 * envelope check and the result stamping included, exactly as when the entry forwards.
 *
 * The instance counts as pinned once the entry has delivered it a request other than
 * `server/discover`: the entry does that only after it pinned the instance (a discovery probe
 * gets discover requests and notifications alone until the next request pins or discards it).
 */
export class PinnedShortcut {
	private pinned: ShortcutChannel | undefined;

	/** `wire` is the transport the entry serves (what the entry writes answers to). */
	constructor(private readonly wire: Transport) {}

	/** Wraps the channel the entry connects an instance to (see `ShortcutServer`). */
	wrap(channel: Transport): Transport {
		return new ShortcutChannel(channel, this.wire, pinned => {
			this.pinned = pinned;
		}, closed => {
			if (this.pinned === closed) {
				this.pinned = undefined;
			}
		});
	}

	/** Hands `message` to the pinned instance if it is a read that may skip the entry. */
	tryDeliver(message: JSONRPCMessage): boolean {
		const pinned = this.pinned;
		if (!pinned || !('method' in message) || !('id' in message) || !SHORTCUT_METHODS.has(message.method)) {
			return false;
		}
		return pinned.deliverDirect(message.id, message);
	}
}

/** A `Server` whose transport (the channel the entry connects it to) has the shortcut's side door. */
export class ShortcutServer extends Server {
	constructor(private readonly shortcut: PinnedShortcut, ...args: ConstructorParameters<typeof Server>) {
		super(...args);
	}

	override connect(transport: Transport): Promise<void> {
		return super.connect(this.shortcut.wrap(transport));
	}
}

/**
 * The instance's transport: the entry's channel, plus a side door for shortcut reads whose
 * answers go to the wire directly. The channel would only have passed them on: its own
 * bookkeeping is for requests the entry delivered, which still answer through it.
 */
class ShortcutChannel implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
	/** Shortcut requests not answered yet. */
	private readonly direct = new Set<RequestId>();
	private isPinned = false;
	private closed = false;

	constructor(
		private readonly channel: Transport,
		private readonly wire: Transport,
		private readonly onPinned: (channel: ShortcutChannel) => void,
		private readonly onClosed: (channel: ShortcutChannel) => void,
	) {}

	start(): Promise<void> {
		// Callbacks its owner set on the channel before (a 2025 session's close) keep being
		// called, as the SDK's Protocol keeps them when it connects to a transport directly.
		const { onerror, onclose } = this.channel;
		this.channel.onmessage = (message, extra) => this.fromEntry(message, extra);
		this.channel.onerror = error => {
			onerror?.(error);
			this.onerror?.(error);
		};
		this.channel.onclose = () => {
			onclose?.();
			this.ended();
		};
		return this.channel.start();
	}

	send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
		if ('id' in message && !('method' in message) && message.id !== undefined && this.direct.delete(message.id)) {
			// The channel drops answers once it is closed; so does its side door.
			return this.closed ? Promise.resolve() : this.wire.send(message, options);
		}
		return this.channel.send(message, options);
	}

	close(): Promise<void> {
		return this.channel.close();
	}

	setProtocolVersion = (version: string): void => {
		this.channel.setProtocolVersion?.(version);
	};

	setSupportedProtocolVersions = (versions: string[]): void => {
		this.channel.setSupportedProtocolVersions?.(versions);
	};

	/** The channel's session (a 2025 HTTP session's id), which the instance gives its handlers. */
	get sessionId(): string | undefined {
		return this.channel.sessionId;
	}

	deliverDirect(id: RequestId, message: JSONRPCMessage): boolean {
		if (this.closed || !this.onmessage) {
			return false;
		}
		this.direct.add(id);
		this.onmessage(message);
		return true;
	}

	private fromEntry(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
		if ('method' in message) {
			if ('id' in message && message.method !== 'server/discover' && !this.isPinned) {
				this.isPinned = true;
				this.onPinned(this);
			} else if (message.method === 'notifications/cancelled') {
				// A cancelled request gets no answer: forget it here too.
				const cancelled = (message.params as { requestId?: RequestId } | undefined)?.requestId;
				if (cancelled !== undefined) {
					this.direct.delete(cancelled);
				}
			}
		}
		this.onmessage?.(message, extra);
	}

	private ended(): void {
		this.closed = true;
		this.direct.clear();
		this.onClosed(this);
		this.onclose?.();
	}
}
