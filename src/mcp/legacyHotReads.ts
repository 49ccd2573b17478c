import type * as http from 'node:http';
import { isJSONRPCRequest, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { PinnedShortcut, SHORTCUT_METHODS } from './pinnedShortcut';
import { SideDoorCalls, SideDoorRequest } from './sideDoorCalls';
import { writeAnswer } from './webExchange';

/** The headers of the SDK's web-standard transport on a POST's answer stream, in the order it sends them. */
const SSE_HEADERS = { 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'content-type': 'text/event-stream' } as const;
/** The transport's framing of an answer: one `message` event. */
const SSE_EVENT = ['event: message\ndata: ', '\n\n'] as const;

/**
 * The hot reads of one 2025 HTTP session, past the SDK's web-standard transport. For each POST
 * that transport builds a web `Request`, checks it, opens a web stream for the answer, encodes
 * the answer into bytes and hands them over the stream: about a third of the server's CPU per
 * read, and it stringifies a listing's page again where our writer splices the text encoded
 * ahead. Here a read that the transport would take exactly so goes to the session's own
 * instance through its side door (the SDK's `Protocol` still does the protocol), and its answer
 * is written as the transport writes it: one `message` event on a `text/event-stream` answer.
 * Everything else (other methods, any header the transport would refuse, notifications, a batch)
 * keeps going through the transport, which owns every refusal.
 */
export class LegacyHotReads {
	/** Built into the session's instance (see `McpSession`); pinned once `initialize` came through the transport. */
	readonly shortcut: PinnedShortcut;
	private readonly calls = new SideDoorCalls();

	constructor() {
		this.shortcut = new PinnedShortcut(new AnswerWire(message => this.calls.answer(message)));
	}

	/**
	 * The request if it may take the side door: a single request for a hot method, with no
	 * `_meta` (a progress token asks for notifications on the request's own stream), from a
	 * client that accepts both answer types, naming a protocol version the transport accepts or
	 * none. `Content-Type` and the session were checked before.
	 */
	accepts(req: http.IncomingMessage, message: unknown): SideDoorRequest | undefined {
		if (!isJSONRPCRequest(message) || !SHORTCUT_METHODS.has(message.method)) {
			return undefined;
		}
		const { params } = message;
		if (params !== undefined && '_meta' in params) {
			return undefined;
		}
		const accept = req.headers.accept;
		if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream')) {
			return undefined;
		}
		const version = req.headers['mcp-protocol-version'];
		if (version !== undefined && !(typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version))) {
			return undefined;
		}
		return { id: message.id, method: message.method, ...params !== undefined && { params } };
	}

	/**
	 * Serves an accepted request and writes its answer (a result or a JSON-RPC error, as the
	 * transport would). False, with nothing written, when the instance could not take it (not
	 * pinned yet, or the session ended): the caller leaves it to the transport.
	 */
	async serve(request: SideDoorRequest, sessionId: string, res: http.ServerResponse): Promise<boolean> {
		const answer = await this.calls.call(request, message => this.shortcut.tryDeliver(message));
		if (!answer) {
			return false;
		}
		writeAnswer(res, answer, { ...SSE_HEADERS, 'mcp-session-id': sessionId, 'x-accel-buffering': 'no' }, SSE_EVENT);
		return true;
	}

	/** The session ended: requests waiting for the instance are left to the transport. */
	end(): void {
		this.calls.end();
	}
}

/** Where the instance's answers to side-door requests go (`PinnedShortcut`'s wire). */
class AnswerWire implements Transport {
	constructor(private readonly onAnswer: (message: JSONRPCMessage) => void) {}

	async start(): Promise<void> {}

	async send(message: JSONRPCMessage): Promise<void> {
		this.onAnswer(message);
	}

	async close(): Promise<void> {}
}
