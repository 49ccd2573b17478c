import { randomUUID } from 'node:crypto';
import type * as http from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { Emitter } from '../../common/event';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { sendJsonRpcError } from './httpReplies';
import { McpSession } from '../server/mcpSession';
import { SessionOptions } from '../server/workspaceServer';
import { abortedWhenClientGoes, OnStreamCut, streamCutMessage, webRequestOf, writeResponse } from './webExchange';

export interface HttpSessionsOptions extends SessionOptions {
	/** Open sessions at most; a newcomer over it takes the place of an idle one, or gets 503. */
	readonly maxSessions?: number;
	/** Sessions with no request for this long are closed. */
	readonly sessionIdleMs?: number;
}

interface HostedSession {
	readonly session: McpSession;
	readonly transport: WebStandardStreamableHTTPServerTransport;
	lastSeen: number;
	/** Open responses (SSE streams, requests in flight): a listening client is not idle. */
	open: number;
}

/**
 * The 2025 sessions of the HTTP endpoint: one McpSession per `Mcp-Session-Id`, a cap (an idle
 * session makes room for a newcomer; a connected client is never dropped for one), and idle
 * sessions reaped.
 */
export class HttpSessions extends Disposable {
	private readonly sessions = new Map<string, HostedSession>();
	private readonly changeEmitter = this._register(new Emitter<void>());
	/** Fires when a session opens or closes. */
	readonly onDidChange = this.changeEmitter.event;

	constructor(private readonly options: HttpSessionsOptions) {
		super();
		const idleMs = options.sessionIdleMs ?? 30 * 60_000;
		const reaper = setInterval(() => this.reapIdle(idleMs), Math.min(idleMs, 60_000));
		reaper.unref();
		this._register(toDisposable(() => {
			clearInterval(reaper);
			for (const id of [...this.sessions.keys()]) {
				this.close(id);
			}
		}));
	}

	get count(): number {
		return this.sessions.size;
	}

	/** The names the clients gave in `initialize`, one per session that gave one. */
	clientNames(): string[] {
		return [...this.sessions.values()].flatMap(h => h.session.clientName ?? []);
	}

	/** Serves an `initialize` POST: a new session, or 503 when every place is taken by a connected client. */
	async start(req: http.IncomingMessage, res: http.ServerResponse, message: unknown): Promise<void> {
		const max = this.options.maxSessions ?? 64;
		if (this.sessions.size >= max) {
			this.makeRoom(this.sessions.size - max + 1);
		}
		if (this.sessions.size >= max) {
			// Every session is listening or busy: a connected client is never dropped for a newcomer.
			res.setHeader('Retry-After', '30');
			return sendJsonRpcError(res, 503, -32000,
				`Too many sessions: all ${max} are in use by connected clients; close one (DELETE with its Mcp-Session-Id) or try again later`);
		}
		const session = new McpSession({ registry: this.options.registry, log: this.options.log, pageSize: this.options.pageSize, tools: this.options.tools }, 'legacy');
		const transport = new WebStandardStreamableHTTPServerTransport({
			sessionIdGenerator: () => randomUUID(),
			onsessioninitialized: id => {
				this.sessions.set(id, { session, transport, lastSeen: Date.now(), open: 0 });
				this.changeEmitter.fire();
			},
		});
		transport.onclose = () => {
			const id = transport.sessionId;
			if (id && this.sessions.get(id)?.transport === transport) {
				this.sessions.delete(id);
				this.changeEmitter.fire();
			}
			session.dispose();
		};
		await session.connect(transport);
		await handle(transport, req, res, message);
		if (!transport.sessionId || !this.sessions.has(transport.sessionId)) {
			// The initialize request was refused: nothing to keep.
			session.dispose();
		}
	}

	/**
	 * Serves a request within the session its `Mcp-Session-Id` names (a POST with its parsed
	 * body, the GET stream, DELETE): 400 without the header, 404 for a session that is gone.
	 */
	async serve(req: http.IncomingMessage, res: http.ServerResponse, message?: unknown): Promise<void> {
		const id = req.headers['mcp-session-id'];
		if (typeof id !== 'string' || id === '') {
			return sendJsonRpcError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; start with an initialize request');
		}
		const hosted = this.sessions.get(id);
		if (!hosted) {
			return sendJsonRpcError(res, 404, -32001, 'Session not found: it expired or the server restarted; initialize again');
		}
		hosted.lastSeen = Date.now();
		hosted.open++;
		res.once('close', () => {
			hosted.open--;
			hosted.lastSeen = Date.now();
		});
		await handle(hosted.transport, req, res, message, unread => this.options.log.warn(streamCutMessage("a 2025 session's GET stream", unread)));
	}

	private close(id: string): void {
		const hosted = this.sessions.get(id);
		if (hosted) {
			this.sessions.delete(id);
			void hosted.transport.close().catch(() => undefined);
			hosted.session.dispose();
			this.changeEmitter.fire();
		}
	}

	/** Closes sessions with nothing open and no request for `idleMs`. */
	private reapIdle(idleMs: number): void {
		const now = Date.now();
		for (const [id, hosted] of [...this.sessions]) {
			if (hosted.open === 0 && now - hosted.lastSeen >= idleMs) {
				this.close(id);
			}
		}
	}

	/**
	 * Closes up to `count` sessions with nothing open, least recently seen first. A session with
	 * an open stream or a request in flight is never closed to make room.
	 */
	private makeRoom(count: number): void {
		const idle = [...this.sessions.entries()].filter(([, hosted]) => hosted.open === 0).sort((a, b) => a[1].lastSeen - b[1].lastSeen);
		for (const [id] of idle.slice(0, count)) {
			this.close(id);
		}
	}
}

/**
 * Hands one request to a session's transport and writes its answer. The request carries the
 * signal that aborts when the client goes (handlers see it as `ctx.http.req.signal`), as on the
 * 2026-07-28 route, and a stream whose client has gone is released. The SDK's web-standard
 * transport is driven through the same Node request/response conversion as the 2026-07-28 route
 * (`webExchange`), which also cuts a stream whose client stopped reading.
 */
async function handle(transport: WebStandardStreamableHTTPServerTransport, req: http.IncomingMessage, res: http.ServerResponse, message: unknown, onCut?: OnStreamCut): Promise<void> {
	const request = webRequestOf(req, abortedWhenClientGoes(res));
	await writeResponse(await transport.handleRequest(request, message === undefined ? undefined : { parsedBody: message }), res, req.method === 'GET', onCut);
}
