import type * as http from 'node:http';
import { classifyInboundRequest, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { PinnedShortcut, SHORTCUT_METHODS } from './pinnedShortcut';
import { createWorkspaceServer, SessionOptions } from './session';
import { SideDoorCalls, SideDoorRequest } from './sideDoorCalls';

/** The revision the shared instance is pinned to (the only modern one the SDK serves today). */
export const SHARED_REVISION = '2026-07-28';

/**
 * One long-lived 2026-07-28 server instance for the hot stateless reads. The SDK's
 * `createMcpHandler` builds a server, a per-request transport and web Request/Response objects
 * for every POST (about two thirds of the SDK's CPU per read); here every such read goes to one
 * instance that the SDK's own `serveStdio` entry pinned to 2026-07-28 over an in-process wire,
 * the way a stdio connection is served. The SDK still does the protocol (envelope, dispatch,
 * result stamping, cache hints); this class only gives each HTTP request a wire id of its own
 * (two clients may both send id 1) and hands the answer back.
 *
 * Only requests the SDK's entry would serve exactly so come here (`accepts`): everything else
 * (other methods, notifications, any header the SDK would refuse or has to decode) keeps going
 * through the entry, which owns every refusal and its HTTP status.
 */
export class SharedModernServer {
	private readonly wire = new InProcessWire();
	/** Once the entry pinned the instance, requests skip the entry's per-message checks. */
	private readonly shortcut = new PinnedShortcut(this.wire);
	private readonly handle: StdioServerHandle;
	/** Each HTTP request under a wire id of its own (two clients may both send id 1). */
	private readonly calls = new SideDoorCalls();
	private closed = false;

	constructor(options: SessionOptions, onerror: (err: Error) => void) {
		// The instance sends no notifications here (nobody listens on this wire): only answers.
		this.wire.onreply = message => this.calls.answer(message);
		// Should the SDK ever end the connection, the requests it held (and every later one) are
		// left to the SDK's entry rather than waiting for answers that will not come.
		this.wire.onended = () => this.end();
		this.handle = serveStdio(() => createWorkspaceServer(options, 'modern', {}, this.shortcut), { transport: this.wire, legacy: 'reject', onerror });
	}

	/**
	 * The request if the shared instance may answer it: a single request for one of the shared
	 * methods, classified modern by the SDK's own classifier, with the standard headers present
	 * and equal to the body, byte for byte (`Mcp-Name` without the Base64 form the entry decodes).
	 * Anything else is for the SDK's entry, which answers the refusals.
	 */
	accepts(req: http.IncomingMessage, message: unknown): SideDoorRequest | undefined {
		if (this.closed || message === null || typeof message !== 'object' || Array.isArray(message)) {
			return undefined;
		}
		const { method, params } = message as { method?: unknown; params?: unknown };
		if (typeof method !== 'string' || !SHORTCUT_METHODS.has(method) || params === null || typeof params !== 'object' || Array.isArray(params)) {
			return undefined;
		}
		const version = req.headers['mcp-protocol-version'];
		const methodHeader = req.headers['mcp-method'];
		if (version !== SHARED_REVISION || methodHeader !== method) {
			return undefined;
		}
		const nameHeader = req.headers['mcp-name'];
		if (method === 'resources/read') {
			const uri = (params as { uri?: unknown }).uri;
			if (typeof uri !== 'string' || nameHeader !== uri || uri.startsWith('=?')) {
				return undefined;
			}
		}
		const route = classifyInboundRequest({
			httpMethod: 'POST',
			protocolVersionHeader: version,
			mcpMethodHeader: methodHeader,
			...typeof nameHeader === 'string' && { mcpNameHeader: nameHeader },
			body: message,
		});
		if (route.kind !== 'modern' || route.messageKind !== 'request' || route.classification.revision !== SHARED_REVISION) {
			return undefined;
		}
		return { id: route.message.id, method, params: params as Record<string, unknown> };
	}

	/**
	 * Answers an accepted request: the SDK's result message, or `undefined` when the instance
	 * answered with an error (the caller serves the request through the SDK's entry, whose
	 * answer carries the HTTP status the entry gives that error).
	 */
	async serve(request: SideDoorRequest): Promise<JSONRPCMessage | undefined> {
		const reply = await this.calls.call(request, message => this.shortcut.tryDeliver(message) || this.wire.deliver(message));
		return reply && 'result' in reply ? reply : undefined;
	}

	/** Ends the instance; requests still waiting are left to the SDK's entry (closed too, on stop). */
	async close(): Promise<void> {
		this.end();
		await this.handle.close().catch(() => undefined);
	}

	private end(): void {
		this.closed = true;
		this.calls.end();
	}
}

/** The in-process wire between `SharedModernServer` and the SDK's `serveStdio`. */
class InProcessWire implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	/** What the SDK sends back (its side of the wire). */
	onreply?: (message: JSONRPCMessage) => void;
	/** The SDK closed the wire. */
	onended?: () => void;
	private open = true;

	async start(): Promise<void> {}

	async close(): Promise<void> {
		if (this.open) {
			this.open = false;
			this.onended?.();
			this.onclose?.();
		}
	}

	async send(message: JSONRPCMessage): Promise<void> {
		this.onreply?.(message);
	}

	/** Hands a message to the SDK; false when the wire is closed or nobody reads it. */
	deliver(message: JSONRPCMessage): boolean {
		if (!this.open || !this.onmessage) {
			return false;
		}
		this.onmessage(message);
		return true;
	}
}
