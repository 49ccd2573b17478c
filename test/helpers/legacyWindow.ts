import { randomBytes, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
	ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, McpError, ReadResourceRequestSchema, SubscribeRequestSchema,
	UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { listenOnLoopback, lockFileAdvert, resourcePage, StandInWindow, StandInWindowOptions } from './standInWindow';

/**
 * A 2025-only server on loopback, as servers built on SDK v1 are (sessions, `initialize`,
 * `resources/subscribe`, notifications on the GET stream): bearer token on every request, paged
 * `resources/list`, and subscribe refused (-32002) for URIs it does not serve. It records each
 * request's method.
 */
export interface LegacyWindow extends StandInWindow {
	/** URIs subscribed by any session. */
	readonly subscribed: Set<string>;
}

export async function startLegacyWindow(options: StandInWindowOptions): Promise<LegacyWindow> {
	const token = randomBytes(16).toString('hex');
	const methods: string[] = [];
	const refused = new Set(options.refused ?? []);
	const sessions = new Map<string, { server: Server; transport: StreamableHTTPServerTransport; subscribed: Set<string> }>();
	const subscribed = new Set<string>();
	const notFound = (uri: string) => new McpError(-32002, 'Resource not found', { uri });

	const newSession = () => {
		const server = new Server({ name: 'legacy-window', version: '1.0.0' }, { capabilities: { resources: { subscribe: true, listChanged: true } } });
		const own = new Set<string>();
		server.setRequestHandler(ListResourcesRequestSchema, async req => resourcePage(options, refused, req.params?.cursor));
		server.setRequestHandler(ReadResourceRequestSchema, async req => {
			const text = options.resources.get(req.params.uri);
			if (text === undefined || refused.has(req.params.uri)) {
				throw notFound(req.params.uri);
			}
			return { contents: [{ uri: req.params.uri, mimeType: 'text/plain', text }] };
		});
		server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
		server.setRequestHandler(SubscribeRequestSchema, async req => {
			if (!options.resources.has(req.params.uri) || refused.has(req.params.uri)) {
				throw notFound(req.params.uri);
			}
			own.add(req.params.uri);
			subscribed.add(req.params.uri);
			return {};
		});
		server.setRequestHandler(UnsubscribeRequestSchema, async req => {
			own.delete(req.params.uri);
			return {};
		});
		const transport = new StreamableHTTPServerTransport({
			sessionIdGenerator: () => randomUUID(),
			onsessioninitialized: id => void sessions.set(id, { server, transport, subscribed: own }),
		});
		transport.onclose = () => {
			if (transport.sessionId) {
				sessions.delete(transport.sessionId);
			}
		};
		return { server, transport };
	};

	const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
		if (req.headers.authorization !== `Bearer ${token}`) {
			res.writeHead(401).end();
			return;
		}
		let body: unknown;
		if (req.method === 'POST') {
			const chunks: Buffer[] = [];
			for await (const chunk of req) {
				chunks.push(chunk as Buffer);
			}
			body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
			const method = (body as { method?: string }).method;
			if (method) {
				methods.push(method);
			}
		}
		const sessionId = req.headers['mcp-session-id'];
		const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
		if (existing) {
			await existing.transport.handleRequest(req, res, body);
			return;
		}
		if ((body as { method?: string } | undefined)?.method === 'initialize') {
			const { server, transport } = newSession();
			await server.connect(transport);
			await transport.handleRequest(req, res, body);
			return;
		}
		// No session: what a 2025 server answers anything else before `initialize` (the 2026 probe included).
		res.writeHead(400, { 'content-type': 'application/json' })
			.end(JSON.stringify({ jsonrpc: '2.0', id: (body as { id?: unknown } | undefined)?.id ?? null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } }));
	};
	const { url, close } = await listenOnLoopback(serve);
	const lockFile = lockFileAdvert(url, token);
	return {
		url, token, methods, subscribed,
		updated: uri => {
			for (const session of sessions.values()) {
				if (session.subscribed.has(uri)) {
					void session.server.sendResourceUpdated({ uri }).catch(() => undefined);
				}
			}
		},
		listChanged: () => sessions.forEach(s => void s.server.sendResourceListChanged().catch(() => undefined)),
		advertise: lockFile.advertise,
		close: async () => {
			await lockFile.withdraw();
			await Promise.all([...sessions.values()].map(s => s.server.close().catch(() => undefined)));
			await close();
		},
	};
}
