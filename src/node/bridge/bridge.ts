import { Client } from '@modelcontextprotocol/client';
import {
	ProtocolError, ProtocolErrorCode, Result, Server, ServerCapabilities, Transport,
} from '@modelcontextprotocol/server';
import { serveStdio, StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { looseObject } from 'zod';
import { IDisposable } from '../../common/lifecycle';
import { Logger } from '../../common/logger';
import { bearerAuthorization } from '../../mcp/http/authorization';
import { SERVER_ICONS } from '../../mcp/server/icons';
import { discoveryHome, LockFileContent } from '../../mcp/lockFile';
import { COMPLETE_PARAMS, LIST_PARAMS, URI_PARAMS } from '../../mcp/server/paramSchemas';
import { LineTooLong, StdioTransport } from '../../mcp/stdio/stdioTransport';
import { checkUriLength } from '../../mcp/server/uriLimit';
import { ConnectTimeout, isRemoteError, isTransportFailure, methodNotFoundIn, shortMessage } from '../../client/clientErrors';
import { ConnectionSource, SourceUnavailable } from '../../client/connectionSource';
import { ReconnectingClient } from '../../client/reconnectingClient';
import { SERVER_NAME, VERSION } from '../../version';
import { Honoured, ListenRelayTransport } from './listenRelay';
import { forwardable, mirrorCapabilities, withoutModernFields } from './relayedMessages';
import { describeWindow, WindowFinder } from './windowFinder';
import { loopbackFetch } from '../../client/loopbackFetch';

/** Thrown when no running window or headless host serves the folder, or the one that does does not answer. */
export class NoServerError extends Error {}

export interface BridgeOptions {
	/** The folder whose window to reach; the current directory by default. */
	readonly workspace: string;
	readonly log: Logger;
	/** The discovery home (`$MCP_WORKSPACE_RESOURCES_HOME`). */
	readonly home?: string;
	/** The client side; stdin/stdout by default. */
	readonly downstream?: Transport;
	/** How long a request waits for a window to come back before it fails. */
	readonly requestWaitMs?: number;
	/** Longest pause between two looks for a window while reconnecting. */
	readonly maxRetryDelayMs?: number;
}

/** Any result, passed through as the window sent it (methods the bridge does not know). */
const ANY_RESULT = looseObject({});

/**
 * A stdio MCP server that relays to the window serving a folder: requests go up, notifications
 * come down, in both protocol eras on each side (the SDK's `serveStdio` picks the client's era,
 * the shared ReconnectingClient picks the window's). When the window restarts (new port, new
 * token) or closes, the bridge finds it again through the lock files, watches again what the
 * client watches (its 2025 subscriptions or its 2026 listen streams, which stay open), and tells
 * the client that the list and those resources changed.
 */
export class Bridge {
	private upstream: ReconnectingClient | undefined;
	private downstream: StdioServerHandle | undefined;
	/** The instance serving the client, and its era. */
	private server: { readonly instance: Server; readonly era: 'legacy' | 'modern' } | undefined;
	/** A 2025 client's subscriptions, each holding its URI upstream. */
	private readonly subscriptions = new Map<string, IDisposable>();
	private closed = false;
	private readonly windows: WindowFinder;
	private readonly onClosed: (() => void)[] = [];
	/** The lock file the current (or latest) connection came from. */
	private lock: LockFileContent | undefined;
	/** Every request of the client is relayed over loopback HTTP: Node's `http`, not `fetch` (see loopbackFetch). */
	private readonly fetch = loopbackFetch();

	constructor(private readonly options: BridgeOptions) {
		this.windows = new WindowFinder(options.workspace, options.home ?? discoveryHome(), options.log);
	}

	/** The window currently relayed to. */
	get target(): LockFileContent | undefined {
		return this.upstream?.connected ? this.lock : undefined;
	}

	/** Connects to the window, then serves the client. Throws `NoServerError` when there is no window. */
	async start(): Promise<void> {
		if (!await this.windows.find()) {
			throw new NoServerError(await this.windows.describeMissing());
		}
		const maxDelay = this.options.maxRetryDelayMs ?? 2_000;
		const source: ConnectionSource = {
			resolve: async () => {
				const lock = await this.windows.find();
				if (!lock) {
					throw new SourceUnavailable(`no window serves ${this.options.workspace}`);
				}
				this.lock = lock;
				return { kind: 'http', url: lock.url, headers: bearerAuthorization(lock.token), fetch: this.fetch };
			},
		};
		const upstream = new ReconnectingClient(source, {
			log: this.options.log, label: `the window serving ${this.options.workspace}`, logPrefix: 'upstream', clientName: `${SERVER_NAME}-bridge`,
			backoffMs: [100, 200, 400, 800, 1600].map(d => Math.min(d, maxDelay)).concat(maxDelay),
		});
		this.upstream = upstream;
		let client: Client;
		try {
			client = await upstream.connect();
		} catch (err) {
			upstream.dispose();
			// e.g. a lock file left by a window that crashed, whose pid another process has now
			throw new NoServerError(`the ${this.lock ? describeWindow(this.lock) : `window serving ${this.options.workspace}`} does not answer: ${shortMessage(err)}`);
		}
		this.options.log.info(`relaying to ${describeWindow(this.lock!)}`);
		// Registered after the first connect: every connect it hears is a reconnect.
		upstream.onDidConnect(() => void this.afterReconnect());
		upstream.onDidChangeList(() => void this.server?.instance.sendResourceListChanged().catch(() => undefined));
		upstream.onDidChangeTools(() => void this.server?.instance.sendToolListChanged().catch(() => undefined));
		upstream.onDidUpdateResource(uri => this.relayUpdated(uri));

		const capabilities = mirrorCapabilities(client.getServerCapabilities());
		const instructions = client.getInstructions();
		const wire = this.options.downstream
			// Like `serve --stdio`: lines the SDK would drop silently get a JSON-RPC error answer.
			?? new StdioTransport(process.stdin, process.stdout);
		this.downstream = serveStdio(({ era }) => this.buildServer(era, capabilities, instructions), {
			transport: new ListenRelayTransport(wire, uris => this.honour(uris), message => this.options.log.warn(message), () => void this.close()),
			// As in `serve --stdio`: an over-long line ends the bridge, which the user must be able to see.
			onerror: err => err instanceof LineTooLong
				? this.options.log.warn(`client side: ${err.message}; closing the connection`)
				: this.options.log.debug(`client side: ${shortMessage(err)}`),
		});
	}

	/** Resolves when the bridge has closed (the client went away, or `close()`). */
	whenClosed(): Promise<void> {
		return this.closed ? Promise.resolve() : new Promise(resolve => this.onClosed.push(resolve));
	}

	async close(): Promise<void> {
		if (this.closed) {
			return;
		}
		this.closed = true;
		await this.downstream?.close().catch(() => undefined);
		this.subscriptions.forEach(s => s.dispose());
		this.subscriptions.clear();
		this.upstream?.dispose();
		this.onClosed.splice(0).forEach(resolve => resolve());
	}

	private buildServer(era: 'legacy' | 'modern', capabilities: ServerCapabilities, instructions: string | undefined): Server {
		const instance = new Server(
			{ name: `${SERVER_NAME}-bridge`, title: 'MCP Workspace Resources', version: VERSION, icons: [...SERVER_ICONS] },
			{ capabilities, instructions },
		);
		// The factory also builds a throwaway instance for a `server/discover` probe; the last one
		// built serves. (So an instance closing says nothing about the client: the wire does.)
		this.server = { instance, era };
		// A 2026-07-28 window's results carry that revision's fields (caching hints, resultType);
		// a 2025 client must not see them, as our own server never sends them in that era.
		const shape = era === 'legacy' ? withoutModernFields : <T>(result: T) => result;
		// Params are checked here, as the server checks them (a short -32602, not the SDK's -32603
		// dump), and a URI over the limit is refused before it goes up in a header.
		const relayed = (method: 'resources/list' | 'resources/read' | 'resources/templates/list' | 'completion/complete') =>
			(params: Record<string, unknown>, ctx: { mcpReq: { signal: AbortSignal } }) => {
				if (method === 'resources/read') {
					checkedUri(params.uri as string);
				}
				return this.relay(c => c.request({ method, params: forwardable(params) } as never, { signal: ctx.mcpReq.signal }), method, ctx.mcpReq.signal).then(shape);
			};
		if (capabilities.resources) {
			instance.setRequestHandler('resources/list', { params: LIST_PARAMS }, relayed('resources/list'));
			instance.setRequestHandler('resources/read', { params: URI_PARAMS }, relayed('resources/read'));
			instance.setRequestHandler('resources/templates/list', { params: LIST_PARAMS }, relayed('resources/templates/list'));
		}
		if (capabilities.resources?.subscribe && era === 'legacy') {
			instance.setRequestHandler('resources/subscribe', { params: URI_PARAMS }, params => this.subscribe(checkedUri(params.uri)));
			instance.setRequestHandler('resources/unsubscribe', { params: URI_PARAMS }, async params => {
				this.subscriptions.get(params.uri)?.dispose();
				this.subscriptions.delete(params.uri);
				return {};
			});
		}
		if (capabilities.completions) {
			instance.setRequestHandler('completion/complete', { params: COMPLETE_PARAMS }, relayed('completion/complete'));
		}
		// Anything else the window may offer (tools, prompts) passes through unchanged.
		instance.fallbackRequestHandler = async (req, ctx) =>
			this.relay(c => c.request({ method: req.method, params: forwardable(req.params) }, ANY_RESULT, { signal: ctx.mcpReq.signal }), req.method, ctx.mcpReq.signal).then(shape) as Promise<Result>;
		return instance;
	}

	/**
	 * Sends a request to the window. Error answers come back to the client as the window sent
	 * them; a lost connection makes the bridge find the window again and retry once.
	 */
	private async relay<T>(call: (client: Client) => Promise<T>, method: string, signal: AbortSignal): Promise<T> {
		const upstream = this.upstream!;
		const waitMs = this.options.requestWaitMs ?? 15_000;
		for (let attempt = 0; ; attempt++) {
			let client: Client;
			try {
				client = await upstream.whenConnected(waitMs, signal);
			} catch (err) {
				if (err instanceof ConnectTimeout) {
					throw new ProtocolError(ProtocolErrorCode.InternalError,
						`No window serves ${this.options.workspace} right now (waited ${Math.round(waitMs / 1000)} s); the bridge keeps looking`);
				}
				throw new ProtocolError(ProtocolErrorCode.InternalError, `Request cancelled: ${shortMessage(err)}`);
			}
			try {
				return await upstream.request(call, client);
			} catch (err) {
				if (isRemoteError(err) || signal.aborted) {
					throw err;
				}
				const notFound = methodNotFoundIn(err);
				if (notFound) {
					throw notFound;
				}
				if (!isTransportFailure(err)) {
					// The window answered, with something that is not MCP: asking again would get the same.
					throw new ProtocolError(ProtocolErrorCode.InternalError, `The window serving ${this.options.workspace} sent an unusable answer: ${shortMessage(err)}`);
				}
				if (attempt > 0 || this.closed) {
					throw new ProtocolError(ProtocolErrorCode.InternalError, `The window serving ${this.options.workspace} is not reachable: ${shortMessage(err)}`);
				}
				this.options.log.warn(`request ${method} failed (${shortMessage(err)}); looking for the window again`);
			}
		}
	}

	/** A 2025 client's `resources/subscribe`: the window's answer is the bridge's answer. */
	private async subscribe(uri: string): Promise<Record<string, never>> {
		const upstream = this.upstream!;
		await upstream.whenConnected(this.options.requestWaitMs ?? 15_000).catch(() => undefined);
		const watch = upstream.watch(uri);
		const outcome = await upstream.whenWatched(uri);
		if (!outcome.honoured) {
			watch.dispose();
			if (isRemoteError(outcome.error)) {
				throw outcome.error;
			}
			throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Resource not found', { uri });
		}
		this.subscriptions.get(uri)?.dispose();
		this.subscriptions.set(uri, watch);
		return {};
	}

	/** A 2026 client's listen URIs: watched upstream, and the ones the window honours. */
	private async honour(uris: readonly string[]): Promise<Honoured> {
		const upstream = this.upstream!;
		await upstream.whenConnected(this.options.requestWaitMs ?? 15_000).catch(() => undefined);
		const unique = [...new Set(uris)];
		const watches = unique.map(uri => ({ uri, watch: upstream.watch(uri) }));
		const outcomes = await Promise.all(watches.map(w => upstream.whenWatched(w.uri)));
		const kept: IDisposable[] = [];
		const honoured: string[] = [];
		watches.forEach((w, i) => {
			if (outcomes[i].honoured) {
				honoured.push(w.uri);
				kept.push(w.watch);
			} else {
				w.watch.dispose();
			}
		});
		if (honoured.length < unique.length) {
			this.options.log.debug(`the window does not honour ${unique.length - honoured.length} of ${unique.length} listened URI(s)`);
		}
		return { uris: honoured, release: { dispose: () => kept.forEach(k => k.dispose()) } };
	}

	private relayUpdated(uri: string): void {
		const server = this.server;
		// A 2026 client's listen streams filter by URI in the SDK's router; a 2025 client hears what it subscribed.
		if (server && (server.era === 'modern' || this.subscriptions.has(uri))) {
			void server.instance.sendResourceUpdated({ uri }).catch(() => undefined);
		}
	}

	/** The client missed whatever changed while the window was away: the list, and what it watches. */
	private async afterReconnect(): Promise<void> {
		this.options.log.info(`reconnected to ${describeWindow(this.lock!)}`);
		const server = this.server;
		if (!server) {
			return;
		}
		const watched = this.upstream!.watchedUris;
		await Promise.all(watched.map(uri => this.upstream!.whenWatched(uri)));
		await server.instance.sendResourceListChanged().catch(() => undefined);
		// The window may have come back with its tools turned the other way.
		await server.instance.sendToolListChanged().catch(() => undefined);
		for (const uri of watched) {
			this.relayUpdated(uri);
		}
	}

}

/** `uri`, unless it is over the limit: then the server's own -32602, without relaying it. */
function checkedUri(uri: string): string {
	try {
		checkUriLength(uri);
	} catch (err) {
		throw new ProtocolError(ProtocolErrorCode.InvalidParams, (err as Error).message);
	}
	return uri;
}
