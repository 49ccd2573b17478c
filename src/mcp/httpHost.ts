import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, isLegacyRequest, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { Emitter } from '../common/event';
import { Disposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { ProviderRegistry } from '../core/registry';
import { ModernHttpLeg } from './modernHttp';
import { McpSession } from './session';

export interface HttpHostOptions {
	readonly registry: ProviderRegistry;
	readonly log: Logger;
	/** 0 (default) lets the OS pick a free port. */
	readonly port?: number;
	/** The bearer token to require; a fresh random one when absent. */
	readonly token?: string;
	readonly pageSize?: number;
	/** Largest request body accepted, in bytes. */
	readonly maxBodyBytes?: number;
	readonly maxSessions?: number;
	/** Sessions with no request for this long are closed. */
	readonly sessionIdleMs?: number;
	/** A client must send its headers within this time (slow senders). */
	readonly headersTimeoutMs?: number;
	/** ... and its whole request within this time. */
	readonly requestTimeoutMs?: number;
	/** Open connections beyond this are refused (a flood stops by itself). */
	readonly maxConnections?: number;
	/** Open 2026-07-28 `subscriptions/listen` streams, over every client. */
	readonly maxListenStreams?: number;
}

export interface ConnectionInfo {
	readonly url: string;
	readonly token: string;
	readonly port: number;
}

interface HostedSession {
	readonly session: McpSession;
	readonly transport: NodeStreamableHTTPServerTransport;
	lastSeen: number;
	/** Open responses (SSE streams, requests in flight): a listening client is not idle. */
	open: number;
}

const LOOPBACK = '127.0.0.1';
const MCP_PATH = '/mcp';

/**
 * The Streamable HTTP front: 127.0.0.1 only, a bearer token on every request, Host and Origin
 * checked against DNS rebinding, one McpSession per MCP session id, idle sessions reaped.
 */
export class HttpHost extends Disposable {
	private server: http.Server | undefined;
	private info: ConnectionInfo | undefined;
	private tokenDigest: Buffer | undefined;
	private readonly sessions = new Map<string, HostedSession>();
	/** The stateless 2026-07-28 leg; one per start, closed (ending its listen streams) on stop. */
	private modern: ModernHttpLeg | undefined;
	private reaper: NodeJS.Timeout | undefined;
	private readonly sessionsEmitter = this._register(new Emitter<number>());
	/** Fires the number of connected clients (`clientCount`) when it changes. */
	readonly onDidChangeSessions = this.sessionsEmitter.event;

	constructor(private readonly options: HttpHostOptions) {
		super();
	}

	get connectionInfo(): ConnectionInfo | undefined {
		return this.info;
	}

	/** Open 2025 sessions. */
	get sessionCount(): number {
		return this.sessions.size;
	}

	/**
	 * Clients connected now: 2025 sessions, and 2026-07-28 clients holding a listen stream open
	 * (a stateless client between requests is not connected to anything).
	 */
	get clientCount(): number {
		return this.sessions.size + (this.modern?.listenStreams.length ?? 0);
	}

	/** The names connected clients gave (in `initialize`, or in a listen request's envelope), one per client. */
	clientNames(): string[] {
		return [
			...[...this.sessions.values()].flatMap(h => h.session.clientName ?? []),
			...(this.modern?.listenStreams ?? []).flatMap(name => name ?? []),
		];
	}

	/** Open TCP connections (diagnostics and tests). */
	connectionCount(): Promise<number> {
		const server = this.server;
		if (!server) {
			return Promise.resolve(0);
		}
		return new Promise(resolve => server.getConnections((err, count) => resolve(err ? 0 : count)));
	}

	/** Listens on 127.0.0.1 with the given or a fresh token. Falls back to an OS-assigned port when the wanted one is taken. */
	async start(): Promise<ConnectionInfo> {
		if (this.info) {
			return this.info;
		}
		const token = this.options.token ?? randomBytes(32).toString('hex');
		this.tokenDigest = digest(token);
		// Node checks header/request timeouts on this interval (30 s by default), which would
		// let a slow sender hold a connection three times longer than the timeout says.
		const server = http.createServer({ connectionsCheckingInterval: Math.min(1000, this.options.headersTimeoutMs ?? 1000) }, (req, res) => this.onRequest(req, res));
		server.headersTimeout = this.options.headersTimeoutMs ?? 10_000;
		server.requestTimeout = this.options.requestTimeoutMs ?? 30_000;
		server.maxConnections = this.options.maxConnections ?? 256;
		server.keepAliveTimeout = 5_000;
		const wanted = this.options.port ?? 0;
		try {
			await listen(server, wanted);
		} catch (err) {
			if (wanted === 0 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
				throw err;
			}
			this.options.log.warn(`port ${wanted} is in use; using a free port instead (change mcpResources.port or --port)`);
			await listen(server, 0);
		}
		this.server = server;
		const modern = new ModernHttpLeg({ registry: this.options.registry, log: this.options.log, pageSize: this.options.pageSize }, this.options.maxListenStreams);
		modern.onDidChangeListenStreams(() => this.sessionsEmitter.fire(this.clientCount));
		this.modern = modern;
		const port = (server.address() as AddressInfo).port;
		this.info = { url: `http://${LOOPBACK}:${port}${MCP_PATH}`, token, port };
		const idleMs = this.options.sessionIdleMs ?? 30 * 60_000;
		this.reaper = setInterval(() => this.reapIdle(idleMs), Math.min(idleMs, 60_000));
		this.reaper.unref();
		this.options.log.info(`MCP server listening on ${this.info.url}`);
		return this.info;
	}

	async stop(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		this.info = undefined;
		this.tokenDigest = undefined;
		if (this.reaper) {
			clearInterval(this.reaper);
			this.reaper = undefined;
		}
		for (const id of [...this.sessions.keys()]) {
			this.closeSession(id);
		}
		const modern = this.modern;
		this.modern = undefined;
		if (modern) {
			await modern.close();
			modern.dispose();
		}
		if (server) {
			await new Promise<void>(resolve => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
			this.options.log.info('MCP server stopped');
		}
	}

	override dispose(): void {
		void this.stop();
		super.dispose();
	}

	private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
		this.handle(req, res).catch(err => {
			this.options.log.error('request failed', err);
			if (!res.headersSent) {
				sendJsonRpcError(res, 500, -32603, 'Internal error');
			} else {
				res.end();
			}
		});
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const port = this.info?.port;
		if (port === undefined) {
			return sendJsonRpcError(res, 503, -32000, 'Server is stopping');
		}
		// DNS rebinding: a browser page on another site reaching 127.0.0.1 under its own name.
		if (!isAllowedHost(req.headers.host, port)) {
			return sendJsonRpcError(res, 403, -32000, 'Forbidden: Host header is not this server');
		}
		const origin = req.headers.origin;
		if (origin !== undefined && !isAllowedOrigin(origin, port)) {
			return sendJsonRpcError(res, 403, -32000, 'Forbidden: Origin not allowed');
		}
		if (!this.isAuthorized(req.headers.authorization)) {
			res.setHeader('WWW-Authenticate', 'Bearer realm="mcp-workspace-resources"');
			return sendJsonRpcError(res, 401, -32000, 'Unauthorized: send Authorization: Bearer <token> from the lock file or Copy Connection Info');
		}
		const pathname = (req.url ?? '').split('?')[0];
		if (pathname !== MCP_PATH) {
			return sendJsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}`);
		}
		if (req.method === 'POST') {
			return this.handlePost(req, res);
		}
		if (req.method === 'GET' || req.method === 'DELETE') {
			if (req.headers['mcp-session-id'] === undefined && isModernVersion(req.headers['mcp-protocol-version'])) {
				// 2026-07-28 is POST-only (the SDK classifies every body-less request as 2025).
				res.setHeader('Allow', 'POST');
				return sendJsonRpcError(res, 405, -32000, 'Method not allowed: protocol revision 2026-07-28 is POST only');
			}
			const hosted = this.sessionFor(req, res);
			if (hosted) {
				await hosted.transport.handleRequest(req, res);
			}
			return;
		}
		res.setHeader('Allow', 'GET, POST, DELETE');
		return sendJsonRpcError(res, 405, -32000, 'Method not allowed');
	}

	private async handlePost(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const contentType = (req.headers['content-type'] ?? '').toLowerCase();
		if (!contentType.startsWith('application/json')) {
			return sendJsonRpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
		}
		const limit = this.options.maxBodyBytes ?? 4 * 1024 * 1024;
		const body = await readBody(req, limit);
		if (body === 'too-large') {
			res.setHeader('Connection', 'close');
			return sendJsonRpcError(res, 413, -32000, `Payload too large: requests are limited to ${limit} bytes`);
		}
		if (body === 'aborted') {
			return;
		}
		let message: unknown;
		try {
			message = JSON.parse(body.toString('utf8'));
		} catch {
			return sendJsonRpcError(res, 400, -32700, 'Parse error: the body is not valid JSON');
		}
		// A request in a 2025 session stays there; anything else is classified by the SDK's own
		// rule (a per-request `_meta` envelope means 2026-07-28), so the two legs never disagree.
		if (req.headers['mcp-session-id'] === undefined) {
			if (await this.modern?.serveShared(req, message, res)) {
				return;
			}
			if (!(await this.isLegacy(req, res, message))) {
				return;
			}
		}
		if (req.headers['mcp-session-id'] === undefined && isInitialize(message)) {
			return this.startSession(req, res, message);
		}
		const hosted = this.sessionFor(req, res);
		if (hosted) {
			await hosted.transport.handleRequest(req, res, message);
		}
	}

	/**
	 * True for 2025 traffic (the caller serves it from a session). 2026-07-28 traffic is served
	 * here, on the stateless leg, and false is returned.
	 */
	private async isLegacy(req: http.IncomingMessage, res: http.ServerResponse, message: unknown): Promise<boolean> {
		// The SDK ends a listen stream (and drops work in flight) when the request's signal aborts:
		// abort it when the client goes away, not after a response that was sent in full.
		const abort = new AbortController();
		res.once('close', () => {
			if (!res.writableFinished) {
				abort.abort();
			}
		});
		const request = webRequestOf(req, abort.signal);
		if (await isLegacyRequest(request, message)) {
			return true;
		}
		const modern = this.modern;
		if (!modern) {
			sendJsonRpcError(res, 503, -32000, 'Server is stopping');
			return false;
		}
		const refusal = await modern.serve(request, message, res);
		if (refusal) {
			sendJsonRpcError(res, refusal.status, refusal.code, refusal.message, requestId(message));
		}
		return false;
	}

	private async startSession(req: http.IncomingMessage, res: http.ServerResponse, message: unknown): Promise<void> {
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
		const session = new McpSession({ registry: this.options.registry, log: this.options.log, pageSize: this.options.pageSize });
		const transport = new NodeStreamableHTTPServerTransport({
			sessionIdGenerator: () => randomUUID(),
			onsessioninitialized: id => {
				this.sessions.set(id, { session, transport, lastSeen: Date.now(), open: 0 });
				this.sessionsEmitter.fire(this.clientCount);
			},
		});
		transport.onclose = () => {
			const id = transport.sessionId;
			if (id && this.sessions.get(id)?.transport === transport) {
				this.sessions.delete(id);
				this.sessionsEmitter.fire(this.clientCount);
			}
			session.dispose();
		};
		await session.connect(transport);
		await transport.handleRequest(req, res, message);
		if (!transport.sessionId || !this.sessions.has(transport.sessionId)) {
			// The initialize request was refused: nothing to keep.
			session.dispose();
		}
	}

	private sessionFor(req: http.IncomingMessage, res: http.ServerResponse): HostedSession | undefined {
		const id = req.headers['mcp-session-id'];
		if (typeof id !== 'string' || id === '') {
			sendJsonRpcError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; start with an initialize request');
			return undefined;
		}
		const hosted = this.sessions.get(id);
		if (!hosted) {
			sendJsonRpcError(res, 404, -32001, 'Session not found: it expired or the server restarted; initialize again');
			return undefined;
		}
		hosted.lastSeen = Date.now();
		hosted.open++;
		res.once('close', () => {
			hosted.open--;
			hosted.lastSeen = Date.now();
		});
		return hosted;
	}

	private closeSession(id: string): void {
		const hosted = this.sessions.get(id);
		if (hosted) {
			this.sessions.delete(id);
			void hosted.transport.close().catch(() => undefined);
			hosted.session.dispose();
			this.sessionsEmitter.fire(this.clientCount);
		}
	}

	/** Closes sessions with nothing open and no request for `idleMs`. */
	private reapIdle(idleMs: number): void {
		const now = Date.now();
		for (const [id, hosted] of [...this.sessions]) {
			if (hosted.open === 0 && now - hosted.lastSeen >= idleMs) {
				this.closeSession(id);
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
			this.closeSession(id);
		}
	}

	private isAuthorized(header: string | undefined): boolean {
		if (!this.tokenDigest || !header) {
			return false;
		}
		const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
		// Compare digests so the comparison is constant-time whatever the length sent.
		return match !== null && timingSafeEqual(digest(match[1]), this.tokenDigest);
	}
}

function digest(value: string): Buffer {
	return createHash('sha256').update(value, 'utf8').digest();
}

function listen(server: http.Server, port: number): Promise<void> {
	return new Promise((resolve, reject) => {
		const onError = (err: Error) => reject(err);
		server.once('error', onError);
		server.listen(port, LOOPBACK, () => {
			server.off('error', onError);
			resolve();
		});
	});
}

function isAllowedHost(host: string | undefined, port: number): boolean {
	if (!host) {
		return false;
	}
	const lower = host.toLowerCase();
	return lower === `${LOOPBACK}:${port}` || lower === `localhost:${port}`;
}

function isAllowedOrigin(origin: string, port: number): boolean {
	const lower = origin.toLowerCase();
	return lower === `http://${LOOPBACK}:${port}` || lower === `http://localhost:${port}`;
}

/**
 * The web `Request` the SDK's classifier and 2026-07-28 handler take, without a body: both are
 * always given the body already parsed (`parsedBody`), so serialising it again into the request
 * (as `toWebRequest` does) would be work nobody reads.
 */
function webRequestOf(req: http.IncomingMessage, signal: AbortSignal): Request {
	const headers = new Headers();
	for (const [name, value] of Object.entries(req.headers)) {
		if (Array.isArray(value)) {
			for (const item of value) {
				headers.append(name, item);
			}
		} else if (value !== undefined) {
			headers.set(name, value);
		}
	}
	headers.delete('content-length');
	return new Request(`http://${req.headers.host ?? LOOPBACK}${req.url ?? MCP_PATH}`, { method: req.method, headers, signal });
}

/** A protocol-version header naming a revision newer than every 2025 one this server speaks. */
function isModernVersion(header: string | string[] | undefined): boolean {
	return typeof header === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(header) && header > SUPPORTED_PROTOCOL_VERSIONS[0];
}

function isInitialize(message: unknown): boolean {
	return Array.isArray(message) ? message.some(m => isInitializeRequest(m)) : isInitializeRequest(message);
}

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'aborted'> {
	return new Promise(resolve => {
		const declared = Number(req.headers['content-length']);
		if (Number.isFinite(declared) && declared > limit) {
			req.resume();
			resolve('too-large');
			return;
		}
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		req.on('data', (chunk: Buffer) => {
			if (done) {
				return;
			}
			size += chunk.length;
			if (size > limit) {
				done = true;
				req.resume();
				resolve('too-large');
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => {
			if (!done) {
				done = true;
				resolve(Buffer.concat(chunks));
			}
		});
		req.on('error', () => {
			if (!done) {
				done = true;
				resolve('aborted');
			}
		});
		req.on('aborted', () => {
			if (!done) {
				done = true;
				resolve('aborted');
			}
		});
	});
}

/** The id of a single request, echoed in an error answered before the SDK saw it. */
function requestId(message: unknown): string | number | null {
	const id = message !== null && typeof message === 'object' ? (message as { id?: unknown }).id : undefined;
	return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function sendJsonRpcError(res: http.ServerResponse, status: number, code: number, message: string, id: string | number | null = null): void {
	if (res.headersSent) {
		res.end();
		return;
	}
	const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });
	res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
	res.end(body);
}
