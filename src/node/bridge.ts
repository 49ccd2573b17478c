import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import {
	ProtocolError, ProtocolErrorCode, Result, Server, ServerCapabilities, Transport,
} from '@modelcontextprotocol/server';
import { serveStdio, StdioServerHandle, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { looseObject } from 'zod';
import { IDisposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { bearerAuthorization } from '../mcp/authorization';
import { SERVER_ICONS } from '../mcp/icons';
import { discoveryHome, LockFileContent } from '../mcp/lockFile';
import { findLockFile, readLockFiles } from '../mcp/lockFileDiscovery';
import { answerInvalidLines } from '../mcp/stdioFraming';
import { ConnectTimeout, ConnectionSource, isRemoteError, ReconnectingClient, shortMessage, SourceUnavailable } from '../picker/reconnectingClient';
import { SERVER_NAME, VERSION } from '../version';
import { Honoured, ListenRelayTransport } from './listenRelay';

/** Thrown when no running window or headless host serves the folder. */
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
	private readonly home: string;
	private readonly onClosed: (() => void)[] = [];
	/** Skipped lock files already reported: the bridge looks again on every reconnect. */
	private readonly reported = new Set<string>();
	/** The lock file the current (or latest) connection came from. */
	private lock: LockFileContent | undefined;

	constructor(private readonly options: BridgeOptions) {
		this.home = options.home ?? discoveryHome();
	}

	/** The window currently relayed to. */
	get target(): LockFileContent | undefined {
		return this.upstream?.connected ? this.lock : undefined;
	}

	/** Connects to the window, then serves the client. Throws `NoServerError` when there is no window. */
	async start(): Promise<void> {
		if (!await this.findLock()) {
			throw new NoServerError(await this.describeMissing());
		}
		const maxDelay = this.options.maxRetryDelayMs ?? 2_000;
		const source: ConnectionSource = {
			resolve: async () => {
				const lock = await this.findLock();
				if (!lock) {
					throw new SourceUnavailable(`no window serves ${this.options.workspace}`);
				}
				this.lock = lock;
				return { kind: 'http', url: lock.url, headers: bearerAuthorization(lock.token) };
			},
		};
		const upstream = new ReconnectingClient(source, {
			log: this.options.log, label: `the window serving ${this.options.workspace}`, logPrefix: 'upstream', clientName: `${SERVER_NAME}-bridge`,
			backoffMs: [100, 200, 400, 800, 1600].map(d => Math.min(d, maxDelay)).concat(maxDelay),
		});
		this.upstream = upstream;
		const client = await upstream.connect();
		this.options.log.info(`relaying to ${describe(this.lock!)}`);
		// Registered after the first connect: every connect it hears is a reconnect.
		upstream.onDidConnect(() => void this.afterReconnect());
		upstream.onDidChangeList(() => void this.server?.instance.sendResourceListChanged().catch(() => undefined));
		upstream.onDidUpdateResource(uri => this.relayUpdated(uri));

		const capabilities = mirrorCapabilities(client.getServerCapabilities());
		const instructions = client.getInstructions();
		const wire = this.options.downstream
			// Like `serve --stdio`: lines the SDK would drop silently get a JSON-RPC error answer.
			?? new StdioServerTransport(answerInvalidLines(process.stdin, process.stdout), process.stdout);
		this.downstream = serveStdio(({ era }) => this.buildServer(era, capabilities, instructions), {
			transport: new ListenRelayTransport(wire, uris => this.honour(uris), message => this.options.log.warn(message), () => void this.close()),
			onerror: err => this.options.log.debug(`client side: ${shortMessage(err)}`),
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
		if (capabilities.resources) {
			instance.setRequestHandler('resources/list', (req, ctx) => this.relay(c => c.request({ method: 'resources/list', params: forwardable(req.params) }, { signal: ctx.mcpReq.signal }), req.method, ctx.mcpReq.signal).then(shape));
			instance.setRequestHandler('resources/read', (req, ctx) => this.relay(c => c.request({ method: 'resources/read', params: forwardable(req.params) }, { signal: ctx.mcpReq.signal }), req.method, ctx.mcpReq.signal).then(shape));
			instance.setRequestHandler('resources/templates/list', (req, ctx) => this.relay(c => c.request({ method: 'resources/templates/list', params: forwardable(req.params) }, { signal: ctx.mcpReq.signal }), req.method, ctx.mcpReq.signal).then(shape));
		}
		if (capabilities.resources?.subscribe && era === 'legacy') {
			instance.setRequestHandler('resources/subscribe', req => this.subscribe(req.params.uri));
			instance.setRequestHandler('resources/unsubscribe', async req => {
				this.subscriptions.get(req.params.uri)?.dispose();
				this.subscriptions.delete(req.params.uri);
				return {};
			});
		}
		if (capabilities.completions) {
			instance.setRequestHandler('completion/complete', (req, ctx) => this.relay(c => c.request({ method: 'completion/complete', params: forwardable(req.params) }, { signal: ctx.mcpReq.signal }), req.method, ctx.mcpReq.signal).then(shape));
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
		this.options.log.info(`reconnected to ${describe(this.lock!)}`);
		const server = this.server;
		if (!server) {
			return;
		}
		const watched = this.upstream!.watchedUris;
		await Promise.all(watched.map(uri => this.upstream!.whenWatched(uri)));
		await server.instance.sendResourceListChanged().catch(() => undefined);
		for (const uri of watched) {
			this.relayUpdated(uri);
		}
	}

	private async findLock(): Promise<LockFileContent | undefined> {
		return findLockFile(this.options.workspace, this.home, message => this.reportOnce(message));
	}

	private reportOnce(message: string): void {
		if (!this.reported.has(message)) {
			this.reported.add(message);
			this.options.log.warn(message);
		}
	}

	private async describeMissing(): Promise<string> {
		const running = await readLockFiles(this.home, message => this.reportOnce(message));
		const where = running.length === 0
			? 'No MCP Workspace Resources server is running for this user'
			: `Running servers serve: ${running.flatMap(l => l.workspaceFolders).join(', ')}`;
		return `no running VS Code window or headless server has ${this.options.workspace} open. ${where}. ` +
			'Open the folder in VS Code with the MCP Workspace Resources extension (and trust the workspace), ' +
			`or run "mcp-workspace-resources serve --root ${this.options.workspace} --http". Lock files are read from ${path.join(this.home, 'servers')}.`;
	}
}

/** The bridge offers what the window offers (resources, subscriptions, completions), nothing more. */
function mirrorCapabilities(upstream: ServerCapabilities | undefined): ServerCapabilities {
	const capabilities: ServerCapabilities = {};
	for (const key of ['resources', 'completions', 'tools', 'prompts'] as const) {
		if (upstream?.[key]) {
			(capabilities as Record<string, unknown>)[key] = upstream[key];
		}
	}
	return capabilities;
}

/**
 * A client's params without its own protocol envelope: the upstream client adds the envelope of
 * the window's era (a 2026 client's `_meta` sent to a 2025 window would claim the wrong era).
 */
function forwardable(params: Record<string, unknown> | undefined): Record<string, unknown> {
	if (!params) {
		return {};
	}
	const { _meta: meta, ...rest } = params as { _meta?: Record<string, unknown> };
	if (!meta) {
		return rest;
	}
	const kept = Object.fromEntries(Object.entries(meta).filter(([key]) => !key.startsWith('io.modelcontextprotocol/')));
	return Object.keys(kept).length > 0 ? { ...rest, _meta: kept } : rest;
}

function describe(lock: LockFileContent): string {
	const kind = lock.host === 'vscode' ? 'VS Code window' : 'headless server';
	return `${kind} (pid ${lock.pid}) at ${lock.url} for ${lock.workspaceFolders.join(', ')}`;
}

/**
 * A logger for the user's terminal or a client's log file: at most `burst` lines per `windowMs`,
 * then one line saying how many were dropped.
 */
export class RateLimitedLogger implements Logger {
	private windowStart = 0;
	private count = 0;
	private dropped = 0;

	constructor(private readonly inner: Logger, private readonly burst = 20, private readonly windowMs = 10_000, private readonly now = () => Date.now()) {}

	debug(message: string): void {
		this.emit(() => this.inner.debug(message));
	}
	info(message: string): void {
		this.emit(() => this.inner.info(message));
	}
	warn(message: string): void {
		this.emit(() => this.inner.warn(message));
	}
	error(message: string, err?: unknown): void {
		this.emit(() => this.inner.error(message, err));
	}

	private emit(write: () => void): void {
		const now = this.now();
		if (now - this.windowStart >= this.windowMs) {
			if (this.dropped > 0) {
				this.inner.warn(`${this.dropped} log line(s) dropped to keep the terminal readable`);
			}
			this.windowStart = now;
			this.count = 0;
			this.dropped = 0;
		}
		if (this.count < this.burst) {
			this.count++;
			write();
		} else {
			this.dropped++;
		}
	}
}

/**
 * Replaces Node's default warning printer in the bridge process: MaxListenersExceededWarning
 * (SDK v1's HTTP client flooded it under load; v2's does not, see reconnectingClient.ts) is reported once, every
 * other warning still goes to the log, rate-limited with everything else.
 */
export function installWarningFilter(log: Logger): void {
	let listenerWarnings = 0;
	process.removeAllListeners('warning');
	process.on('warning', warning => {
		if (warning.name === 'MaxListenersExceededWarning') {
			if (listenerWarnings++ === 0) {
				log.debug(`${warning.name}: ${warning.message} (reported once)`);
			}
			return;
		}
		log.warn(`${warning.name}: ${warning.message}`);
	});
}

/** A result as a 2025 client expects it: without the 2026-07-28 revision's own fields. */
function withoutModernFields<T>(result: T): T {
	if (result === null || typeof result !== 'object') {
		return result;
	}
	const rest = { ...(result as Record<string, unknown>) };
	delete rest.ttlMs;
	delete rest.cacheScope;
	delete rest.resultType;
	return rest as T;
}
