import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { Emitter } from '../../common/event';
import { Disposable } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { ProviderRegistry } from '../../core/registry';
import { portClientsCanReach } from './fetchBlockedPorts';
import { readBody } from './readBody';
import { answeredNotJsonRpc, sendJsonRpcError } from './httpReplies';
import { HttpSessions } from './httpSessions';
import { StatelessHttp } from './statelessHttp';
import { ToolSwitch } from '../tools/toolSwitch';

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
	/** Whether tools are offered now; on when absent. */
	readonly tools?: ToolSwitch;
}

export interface ConnectionInfo {
	readonly url: string;
	readonly token: string;
	readonly port: number;
}

const LOOPBACK = '127.0.0.1';
const MCP_PATH = '/mcp';

/**
 * The Streamable HTTP front: 127.0.0.1 only, a bearer token on every request, Host and Origin
 * checked against DNS rebinding, then each request routed to its era: 2025 sessions
 * (HttpSessions) or the stateless 2026-07-28 handler (StatelessHttp).
 */
export class HttpHost extends Disposable {
	private server: http.Server | undefined;
	private info: ConnectionInfo | undefined;
	private tokenBytes: Buffer | undefined;
	/** The 2025 sessions; one set per start, closed on stop. */
	private legacy: HttpSessions | undefined;
	/** The stateless 2026-07-28 handler; one per start, closed (ending its listen streams) on stop. */
	private modern: StatelessHttp | undefined;
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
		return this.legacy?.count ?? 0;
	}

	/**
	 * Clients connected now: 2025 sessions, and 2026-07-28 clients holding a listen stream open
	 * (a stateless client between requests is not connected to anything).
	 */
	get clientCount(): number {
		return this.sessionCount + (this.modern?.listenStreams.length ?? 0);
	}

	/** The names connected clients gave (in `initialize`, or in a listen request's envelope), one per client. */
	clientNames(): string[] {
		return [
			...this.legacy?.clientNames() ?? [],
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
		this.tokenBytes = Buffer.from(token, 'utf8');
		// Node checks header/request timeouts on this interval (30 s by default), which would
		// let a slow sender hold a connection three times longer than the timeout says.
		const server = http.createServer({ connectionsCheckingInterval: Math.min(1000, this.options.headersTimeoutMs ?? 1000) }, (req, res) => this.onRequest(req, res));
		server.headersTimeout = this.options.headersTimeoutMs ?? 10_000;
		server.requestTimeout = this.options.requestTimeoutMs ?? 30_000;
		server.maxConnections = this.options.maxConnections ?? 256;
		server.keepAliveTimeout = 5_000;
		const wanted = portClientsCanReach(this.options.port ?? 0, this.options.log);
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
		const sessionOptions = { registry: this.options.registry, log: this.options.log, pageSize: this.options.pageSize, tools: this.options.tools };
		const legacy = new HttpSessions({ ...sessionOptions, maxSessions: this.options.maxSessions, sessionIdleMs: this.options.sessionIdleMs });
		legacy.onDidChange(() => this.sessionsEmitter.fire(this.clientCount));
		this.legacy = legacy;
		const modern = new StatelessHttp(sessionOptions, this.options.maxListenStreams);
		modern.onDidChangeListenStreams(() => this.sessionsEmitter.fire(this.clientCount));
		this.modern = modern;
		const port = (server.address() as AddressInfo).port;
		this.info = { url: `http://${LOOPBACK}:${port}${MCP_PATH}`, token, port };
		this.options.log.info(`MCP server listening on ${this.info.url}`);
		return this.info;
	}

	async stop(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		this.info = undefined;
		this.tokenBytes = undefined;
		// Closed before it is let go of, so each closing session still counts down clientCount.
		this.legacy?.dispose();
		this.legacy = undefined;
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
			return this.legacy ? this.legacy.serve(req, res) : sendJsonRpcError(res, 503, -32000, 'Server is stopping');
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
		const { legacy, modern } = this;
		if (!legacy || !modern) {
			return sendJsonRpcError(res, 503, -32000, 'Server is stopping');
		}
		// A request in a 2025 session stays there; anything else is classified by the SDK's own
		// rule (a per-request `_meta` envelope means 2026-07-28), so the two routes never disagree.
		if (req.headers['mcp-session-id'] === undefined && await modern.serveUnlessLegacy(req, res, message)) {
			return;
		}
		if (answeredNotJsonRpc(res, message)) {
			return;
		}
		return req.headers['mcp-session-id'] === undefined && isInitialize(message) ? legacy.start(req, res, message) : legacy.serve(req, res, message);
	}

	private isAuthorized(header: string | undefined): boolean {
		const expected = this.tokenBytes;
		if (!expected || !header) {
			return false;
		}
		const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
		if (match === null) {
			return false;
		}
		// Constant-time whatever the length sent: a token of another length is refused after
		// comparing the token with itself, so the time says nothing about how long it is (no
		// hashing of every request to get equal lengths).
		const given = Buffer.from(match[1], 'utf8');
		const sameLength = given.length === expected.length;
		return timingSafeEqual(sameLength ? given : expected, expected) && sameLength;
	}
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

/** A protocol-version header naming a revision newer than every 2025 one this server speaks. */
function isModernVersion(header: string | string[] | undefined): boolean {
	return typeof header === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(header) && header > SUPPORTED_PROTOCOL_VERSIONS[0];
}

function isInitialize(message: unknown): boolean {
	return Array.isArray(message) ? message.some(m => isInitializeRequest(m)) : isInitializeRequest(message);
}
