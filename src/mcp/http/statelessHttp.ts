import type * as http from 'node:http';
import { CLIENT_INFO_META_KEY, createMcpHandler, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { Emitter } from '../../common/event';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { Logger } from '../../common/logger';
import { amendDiscoverReply } from '../server/discover';
import { requestId, sendJsonRpcError } from './httpReplies';
import { ListenGate } from '../subscriptions/listenGate';
import { ListenedUris } from '../subscriptions/listenedUris';
import { createWorkspaceServer, SessionOptions } from '../server/workspaceServer';
import { onDidTurnTools } from '../tools/toolSwitch';
import { abortedWhenClientGoes, streamCutMessage, webRequestOf, writeResponse } from './webExchange';

/** Open `subscriptions/listen` streams the HTTP front holds at once, over every client. */
export const MAX_LISTEN_STREAMS = 64;

/** A refusal answered here, before the SDK sees the request. */
interface Refusal {
	readonly status: number;
	readonly code: number;
	readonly message: string;
}

/**
 * The stateless 2026-07-28 half of the HTTP endpoint: every request through the SDK's
 * `createMcpHandler` (modern only; 2025 traffic goes to HttpSessions), with what the SDK
 * leaves to us around it:
 * `subscriptions/listen` URIs filtered to what this server would serve, `server/discover`
 * naming the 2025 revisions this endpoint also speaks, and the registry's changes published
 * to the listen streams.
 */
export class StatelessHttp extends Disposable {
	private readonly handler: McpHttpHandler;
	private readonly gate: ListenGate;
	/** The client name of each open listen stream (undefined when it gave none). */
	private readonly streams = new Set<{ readonly clientName: string | undefined }>();
	private readonly streamsEmitter = this._register(new Emitter<void>());
	readonly onDidChangeListenStreams = this.streamsEmitter.event;

	private readonly log: Logger;

	constructor(options: SessionOptions, maxListenStreams = MAX_LISTEN_STREAMS) {
		super();
		this.log = options.log;
		this.gate = new ListenGate(options.registry, new ListenedUris());
		this.handler = createMcpHandler(() => createWorkspaceServer(options, 'modern'), {
			legacy: 'reject',
			maxSubscriptions: maxListenStreams,
			onerror: err => options.log.debug(`2026-07-28 request: ${err.message}`),
		});
		this._register(options.registry.onDidChange(change => {
			for (const uri of this.gate.listened.among(change.updated)) {
				void this.handler.notify.resourceUpdated(uri);
			}
			if (change.listChanged) {
				void this.handler.notify.resourcesChanged();
			}
		}));
		this._register(onDidTurnTools(options.tools, () => this.handler.notify.toolsChanged()));
		this._register(toDisposable(() => void this.close()));
	}

	/** The client names of the open listen streams, one entry per stream. */
	get listenStreams(): (string | undefined)[] {
		return [...this.streams].map(s => s.clientName);
	}

	/** Ends every listen stream with the graceful empty result and aborts requests in flight. */
	async close(): Promise<void> {
		await this.handler.close().catch(() => undefined);
	}

	/**
	 * Serves a POST outside any 2025 session if it is 2026-07-28 traffic by the SDK's own rule (a
	 * per-request `_meta` envelope), and returns true; returns false, having sent nothing, for
	 * 2025 traffic.
	 */
	async serveUnlessLegacy(req: http.IncomingMessage, res: http.ServerResponse, message: unknown): Promise<boolean> {
		// The SDK ends a listen stream (and drops work in flight) when the request's signal aborts.
		const request = webRequestOf(req, abortedWhenClientGoes(res));
		if (await isLegacyRequest(request, message)) {
			return false;
		}
		const refusal = await this.serve(request, message, res);
		if (refusal) {
			sendJsonRpcError(res, refusal.status, refusal.code, refusal.message, requestId(message));
		}
		return true;
	}

	/**
	 * Serves one request the SDK classified as 2026-07-28 (`isLegacyRequest` false) through the
	 * SDK's entry. Returns a refusal to send when the request is over this server's limits.
	 */
	private async serve(request: Request, message: unknown, res: http.ServerResponse): Promise<Refusal | undefined> {
		const method = singleMethod(message);
		let body = message;
		let release: (() => void) | undefined;
		if (method === 'subscriptions/listen') {
			const admission = await this.gate.admit(message as { params?: unknown });
			if ('refusal' in admission) {
				return { status: 400, ...admission.refusal };
			}
			({ request: body, release } = admission);
		}
		const stream = method === 'subscriptions/listen' ? { clientName: envelopeClientName(message) } : undefined;
		try {
			let response = await this.handler.fetch(request, { parsedBody: body });
			if (method === 'server/discover') {
				response = await amendDiscoverResponse(response);
			}
			if (stream && response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
				this.streams.add(stream);
				this.streamsEmitter.fire();
			}
			await writeResponse(response, res, false, unread => this.log.warn(streamCutMessage('a subscriptions/listen stream', unread)));
		} finally {
			release?.();
			if (stream && this.streams.delete(stream)) {
				this.streamsEmitter.fire();
			}
		}
		return undefined;
	}
}

function envelopeClientName(message: unknown): string | undefined {
	const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
	const name = (meta?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined)?.name;
	return typeof name === 'string' ? name : undefined;
}

function singleMethod(message: unknown): string | undefined {
	if (message === null || typeof message !== 'object' || Array.isArray(message)) {
		return undefined;
	}
	const method = (message as { method?: unknown }).method;
	return typeof method === 'string' ? method : undefined;
}

/** Amends a successful discover reply (see `amendDiscoverReply`). */
async function amendDiscoverResponse(response: Response): Promise<Response> {
	if (!response.ok || !(response.headers.get('content-type') ?? '').includes('application/json')) {
		return response;
	}
	const amended = amendDiscoverReply(await response.json() as object);
	const headers = new Headers(response.headers);
	headers.delete('content-length');
	return new Response(JSON.stringify(amended), { status: response.status, headers });
}
