import { setMaxListeners } from 'node:events';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { AnySchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
	ClientRequest, CompleteRequestSchema, CompleteResultSchema, EmptyResultSchema, ErrorCode, ListResourcesRequestSchema,
	ListResourcesResultSchema, ListResourceTemplatesRequestSchema, ListResourceTemplatesResultSchema, McpError,
	PingRequestSchema, ReadResourceRequestSchema, ReadResourceResultSchema, ResultSchema, ServerCapabilities,
	SubscribeRequestSchema, UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Logger } from '../common/logger';
import { SERVER_ICONS } from '../mcp/icons';
import { discoveryHome, LockFileContent } from '../mcp/lockFile';
import { pickLockFile, readLockFiles } from '../mcp/lockFileDiscovery';
import { answerInvalidLines } from '../mcp/stdioFraming';
import { SERVER_NAME, VERSION } from '../version';

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

interface Upstream {
	readonly client: Client;
	readonly transport: StreamableHTTPClientTransport;
	readonly lock: LockFileContent;
}

/**
 * A stdio MCP server that relays to the window serving a folder: requests go up, notifications
 * come down. When the window restarts (new port, new token) or closes, the bridge finds it again
 * through the lock files, subscribes again to what the client subscribed, and tells the client
 * that the list changed.
 */
export class Bridge {
	private upstream: Upstream | undefined;
	private server: Server | undefined;
	private readonly subscriptions = new Set<string>();
	private reconnecting: Promise<void> | undefined;
	private closed = false;
	private readonly waiters = new Set<() => void>();
	private readonly home: string;
	private readonly onClosed: (() => void)[] = [];
	/** Skipped lock files already reported: the bridge looks again on every reconnect. */
	private readonly reported = new Set<string>();

	constructor(private readonly options: BridgeOptions) {
		this.home = options.home ?? discoveryHome();
	}

	/** The window currently relayed to. */
	get target(): LockFileContent | undefined {
		return this.upstream?.lock;
	}

	/** Connects to the window, then serves the client. Throws `NoServerError` when there is no window. */
	async start(): Promise<void> {
		const lock = await this.findLock();
		if (!lock) {
			throw new NoServerError(await this.describeMissing());
		}
		const upstream = await this.connectUpstream(lock);
		this.upstream = upstream;
		this.options.log.info(`relaying to ${describe(lock)}`);

		const capabilities = mirrorCapabilities(upstream.client.getServerCapabilities());
		const server = new Server(
			{ name: `${SERVER_NAME}-bridge`, title: 'MCP Workspace Resources', version: VERSION, icons: [...SERVER_ICONS] },
			{ capabilities, instructions: upstream.client.getInstructions() },
		);
		this.server = server;
		this.installHandlers(server, capabilities);
		server.onclose = () => void this.close();
		// Like `serve --stdio`: lines the SDK would drop silently get a JSON-RPC error answer.
		await server.connect(this.options.downstream ?? new StdioServerTransport(answerInvalidLines(process.stdin, process.stdout), process.stdout));
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
		this.wake();
		const upstream = this.upstream;
		this.upstream = undefined;
		if (upstream) {
			await closeUpstream(upstream);
		}
		await this.server?.close().catch(() => undefined);
		this.onClosed.splice(0).forEach(resolve => resolve());
	}

	private installHandlers(server: Server, capabilities: ServerCapabilities): void {
		if (capabilities.resources) {
			server.setRequestHandler(ListResourcesRequestSchema, (req, extra) => this.forward(req, ListResourcesResultSchema, extra.signal));
			server.setRequestHandler(ReadResourceRequestSchema, (req, extra) => this.forward(req, ReadResourceResultSchema, extra.signal));
			server.setRequestHandler(ListResourceTemplatesRequestSchema, (req, extra) => this.forward(req, ListResourceTemplatesResultSchema, extra.signal));
		}
		if (capabilities.resources?.subscribe) {
			server.setRequestHandler(SubscribeRequestSchema, async (req, extra) => {
				const result = await this.forward(req, EmptyResultSchema, extra.signal);
				this.subscriptions.add(req.params.uri);
				return result;
			});
			server.setRequestHandler(UnsubscribeRequestSchema, async (req, extra) => {
				this.subscriptions.delete(req.params.uri);
				return this.forward(req, EmptyResultSchema, extra.signal);
			});
		}
		if (capabilities.completions) {
			server.setRequestHandler(CompleteRequestSchema, (req, extra) => this.forward(req, CompleteResultSchema, extra.signal));
		}
		// Ping reaches the window when there is one; while reconnecting, the bridge itself answers.
		server.setRequestHandler(PingRequestSchema, async (req, extra) => this.upstream ? this.forward(req, EmptyResultSchema, extra.signal) : {});
		// Anything else the window may offer (tools, prompts) passes through unchanged.
		server.fallbackRequestHandler = async (req, extra) => this.forward({ method: req.method, params: req.params }, ResultSchema, extra.signal);
	}

	/**
	 * Sends a request to the window. JSON-RPC errors come back to the client as the window sent
	 * them; a lost connection makes the bridge find the window again and retry once.
	 */
	private async forward<T extends AnySchema>(
		request: { method: string; params?: Record<string, unknown> },
		schema: T,
		signal: AbortSignal,
	): Promise<SchemaOutput<T>> {
		for (let attempt = 0; ; attempt++) {
			const upstream = this.upstream ?? await this.waitForUpstream(signal);
			try {
				return await upstream.client.request(request as ClientRequest, schema, { signal });
			} catch (err) {
				if (isRemoteError(err) || signal.aborted) {
					throw relayedError(err as McpError);
				}
				if (attempt > 0 || this.closed) {
					throw new McpError(ErrorCode.InternalError, `The window serving ${this.options.workspace} is not reachable: ${shortMessage(err)}`);
				}
				this.options.log.warn(`request ${request.method} failed (${shortMessage(err)}); looking for the window again`);
				this.lost(upstream);
			}
		}
	}

	private waitForUpstream(signal: AbortSignal): Promise<Upstream> {
		const waitMs = this.options.requestWaitMs ?? 15_000;
		return new Promise((resolve, reject) => {
			const done = (err?: Error) => {
				clearTimeout(timer);
				this.waiters.delete(check);
				signal.removeEventListener('abort', onAbort);
				if (err) {
					reject(err);
				} else {
					resolve(this.upstream!);
				}
			};
			const check = () => {
				if (this.closed) {
					done(new McpError(ErrorCode.ConnectionClosed, 'The bridge is closing'));
				} else if (this.upstream) {
					done();
				}
			};
			const onAbort = () => done(new McpError(ErrorCode.RequestTimeout, 'Request cancelled'));
			const timer = setTimeout(() => done(new McpError(ErrorCode.InternalError,
				`No window serves ${this.options.workspace} right now (waited ${Math.round(waitMs / 1000)} s); the bridge keeps looking`)), waitMs);
			this.waiters.add(check);
			signal.addEventListener('abort', onAbort);
			check();
		});
	}

	private wake(): void {
		for (const waiter of [...this.waiters]) {
			waiter();
		}
	}

	/** The connection to `upstream` is gone: drop it and look for the window again (once). */
	private lost(upstream: Upstream): void {
		if (this.upstream !== upstream || this.closed) {
			return;
		}
		this.upstream = undefined;
		void closeUpstream(upstream);
		this.reconnecting ??= this.reconnect().finally(() => {
			this.reconnecting = undefined;
		});
	}

	private async reconnect(): Promise<void> {
		const maxDelay = this.options.maxRetryDelayMs ?? 2_000;
		let delay = 100;
		let announced = false;
		while (!this.closed) {
			const lock = await this.findLock();
			if (lock) {
				try {
					const upstream = await this.connectUpstream(lock);
					if (this.closed) {
						await closeUpstream(upstream);
						return;
					}
					await this.resubscribe(upstream);
					this.upstream = upstream;
					this.options.log.info(`reconnected to ${describe(lock)}`);
					this.wake();
					// The client missed whatever changed meanwhile: the list, and its subscribed resources.
					const server = this.server;
					if (server) {
						await server.sendResourceListChanged().catch(() => undefined);
						for (const uri of this.subscriptions) {
							await server.sendResourceUpdated({ uri }).catch(() => undefined);
						}
					}
					return;
				} catch (err) {
					this.options.log.debug(`could not connect to ${describe(lock)}: ${shortMessage(err)}`);
				}
			}
			if (!announced) {
				announced = true;
				this.options.log.warn(`lost the window serving ${this.options.workspace}; waiting for it to come back`);
			}
			await new Promise(resolve => setTimeout(resolve, delay));
			delay = Math.min(delay * 2, maxDelay);
		}
	}

	private async resubscribe(upstream: Upstream): Promise<void> {
		for (const uri of [...this.subscriptions]) {
			try {
				await upstream.client.subscribeResource({ uri });
			} catch (err) {
				if (!isRemoteError(err)) {
					throw err;
				}
				// The resource is gone or now refused: the client hears list_changed and re-reads.
				this.subscriptions.delete(uri);
				this.options.log.debug(`could not subscribe again to ${uri}: ${shortMessage(err)}`);
			}
		}
	}

	private async connectUpstream(lock: LockFileContent): Promise<Upstream> {
		const transport = new StreamableHTTPClientTransport(new URL(lock.url), {
			requestInit: { headers: { Authorization: `Bearer ${lock.token}` } },
			// The bridge reconnects itself, through the lock files: a restarted window has a new port and token.
			reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
			fetch: fetchWithoutListenerWarnings,
		});
		const client = new Client({ name: `${SERVER_NAME}-bridge`, version: VERSION }, { capabilities: {} });
		const upstream: Upstream = { client, transport, lock };
		client.fallbackNotificationHandler = async notification => {
			if (this.upstream === upstream && this.server) {
				await this.server.notification(notification).catch(err => this.options.log.debug(`could not relay ${notification.method}: ${shortMessage(err)}`));
			}
		};
		client.onerror = err => {
			// The standalone SSE stream carries notifications; when it ends the window is gone or restarting.
			if (this.upstream === upstream && isConnectionLoss(err)) {
				this.options.log.debug(`connection to ${describe(lock)} lost: ${shortMessage(err)}`);
				this.lost(upstream);
			}
		};
		client.onclose = () => this.lost(upstream);
		try {
			await client.connect(transport);
		} catch (err) {
			await client.close().catch(() => undefined);
			throw err;
		}
		return upstream;
	}

	private async findLock(): Promise<LockFileContent | undefined> {
		return pickLockFile(await this.readLocks(), this.options.workspace);
	}

	private readLocks(): Promise<LockFileContent[]> {
		return readLockFiles(this.home, message => {
			if (!this.reported.has(message)) {
				this.reported.add(message);
				this.options.log.warn(message);
			}
		});
	}

	private async describeMissing(): Promise<string> {
		const running = await this.readLocks();
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

async function closeUpstream(upstream: Upstream): Promise<void> {
	upstream.client.onerror = undefined;
	upstream.client.onclose = undefined;
	upstream.client.fallbackNotificationHandler = undefined;
	await upstream.transport.terminateSession().catch(() => undefined);
	await upstream.client.close().catch(() => undefined);
}

/** A JSON-RPC error answered by the window (as opposed to a lost connection or a timeout). */
function isRemoteError(err: unknown): boolean {
	return err instanceof McpError && err.code !== ErrorCode.ConnectionClosed && err.code !== ErrorCode.RequestTimeout;
}

/** The error as the window sent it: the SDK client prefixes "MCP error <code>: " once more. */
function relayedError(err: McpError): Error {
	if (!(err instanceof McpError)) {
		return err;
	}
	const message = err.message.replace(/^MCP error -?\d+: /, '');
	return Object.assign(new Error(message), { code: err.code, data: err.data });
}

function isConnectionLoss(err: Error): boolean {
	const code = (err as { code?: unknown }).code;
	if (code === 404 || code === 401) {
		return true; // session gone (server restarted) or token changed
	}
	return /SSE stream disconnected|Maximum reconnection attempts|Failed to (re)?open SSE stream|Failed to reconnect|fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|terminated/i.test(err.message);
}

function shortMessage(err: unknown): string {
	const message = err instanceof Error ? err.message : String(err);
	return message.split('\n')[0].slice(0, 300);
}

function describe(lock: LockFileContent): string {
	const kind = lock.host === 'vscode' ? 'VS Code window' : 'headless server';
	return `${kind} (pid ${lock.pid}) at ${lock.url} for ${lock.workspaceFolders.join(', ')}`;
}

const widened = new WeakSet<AbortSignal>();

/**
 * The SDK client passes one AbortSignal to every fetch; each in-flight fetch adds an abort
 * listener to it, and past ten Node prints MaxListenersExceededWarning on every request. The
 * listeners are legitimate (they are removed when each fetch settles), so lift the limit on that
 * one signal instead of silencing warnings process-wide.
 */
function fetchWithoutListenerWarnings(url: string | URL, init?: RequestInit): Promise<Response> {
	const signal = init?.signal;
	if (signal && !widened.has(signal)) {
		widened.add(signal);
		setMaxListeners(0, signal);
	}
	return fetch(url, init);
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
 * (the SDK HTTP client under load; see fetchWithoutListenerWarnings) is reported once, every
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
