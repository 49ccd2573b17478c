import { Client, ListResourcesResult } from '@modelcontextprotocol/client';
import { Emitter } from '../common/event';
import { Disposable, IDisposable, toDisposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { describeFailure, isConnectionLoss, isTransportFailure } from './clientErrors';
import { waitForConnection } from './connectionWait';
import { connectClient, endConnection } from './connectedClient';
import { ConnectionSource, ConnectionTarget, SourceUnavailable } from './connectionSource';
import { ConnectionState, ProtocolEra } from './connectionState';
import { LiveWatches, WatchOutcome } from './liveWatches';
import { RetrySchedule } from './retrySchedule';

export interface ReconnectingClientOptions {
	readonly log: Logger;
	/** Names the connection in log lines. */
	readonly label: string;
	/** Prefix of every log line, e.g. `picker` or `bridge`. */
	readonly logPrefix: string;
	/** `clientInfo.name` sent to the server. */
	readonly clientName: string;
	/** Delays between reconnect attempts after a failure; the last one repeats. */
	readonly backoffMs?: readonly number[];
}

const DEFAULT_BACKOFF = [500, 1000, 2000, 5000, 10_000, 30_000];

/**
 * One MCP client connection that stays up: an SDK v2 `Client` over Streamable HTTP (headers such
 * as the bearer token on every request) or stdio, negotiating the era itself (2026-07-28 where the
 * server offers it, 2025 otherwise). It connects on first use, reconnects with backoff after a
 * failure and at once when the source changes (once something has asked for a connection), and
 * keeps the watched URIs (reference counted) live in either era: one `subscriptions/listen` stream
 * on 2026-07-28 (closed and opened again when the set changes or the stream drops),
 * `resources/subscribe` per URI on 2025. The picker and the bridge both reach servers through it.
 */
export class ReconnectingClient extends Disposable {
	private client: Client | undefined;
	private connecting: Promise<Client> | undefined;
	private current: ConnectionState = { kind: 'idle' };
	private readonly retries: RetrySchedule;
	private generation = 0;
	private stderrTail = '';

	private readonly watches: LiveWatches;

	private readonly stateEmitter = this._register(new Emitter<ConnectionState>());
	readonly onDidChangeState = this.stateEmitter.event;
	private readonly connectedEmitter = this._register(new Emitter<void>());
	/** Fires after every successful (re)connect: lists may differ, reload them. */
	readonly onDidConnect = this.connectedEmitter.event;
	private readonly listChangedEmitter = this._register(new Emitter<void>());
	readonly onDidChangeList = this.listChangedEmitter.event;
	private readonly toolsChangedEmitter = this._register(new Emitter<void>());
	/** The server's tool list changed (or may have: the connection came back). */
	readonly onDidChangeTools = this.toolsChangedEmitter.event;
	private readonly updatedEmitter = this._register(new Emitter<string>());
	/** A watched resource changed (or may have: its stream dropped and came back). */
	readonly onDidUpdateResource = this.updatedEmitter.event;

	constructor(private readonly source: ConnectionSource, private readonly options: ReconnectingClientOptions) {
		super();
		this.retries = new RetrySchedule(options.backoffMs ?? DEFAULT_BACKOFF);
		this.watches = new LiveWatches({
			log: options.log, logPrefix: options.logPrefix, label: options.label, backoffMs: options.backoffMs ?? DEFAULT_BACKOFF,
			current: () => this.client,
			fail: (err, client) => this.fail(err, client),
			missed: uris => {
				this.listChangedEmitter.fire();
				uris.forEach(uri => this.updatedEmitter.fire(uri));
			},
		});
		if (source.onDidChange) {
			this._register(source.onDidChange(() => {
				// Nothing has asked for a connection yet (e.g. the picker's view was never shown):
				// the first request connects to whatever the source names then. Connecting here
				// would put a session, and the server's first-request costs, into the window's
				// start-up, while it indexes, for a view nobody opened.
				if (this.current.kind !== 'idle') {
					void this.reconnect('the server changed');
				}
			}));
		}
		this._register(toDisposable(() => {
			this.retries.cancel();
			void this.closeClient();
		}));
	}

	get state(): ConnectionState {
		return this.current;
	}

	/** The connected client, if any; use `request` to run calls that should survive a restart. */
	get connected(): Client | undefined {
		return this.client;
	}

	/** The era of the current connection. */
	get era(): ProtocolEra | undefined {
		return this.client?.getProtocolEra();
	}

	/** Connects if needed; resolves when connected, rejects with the reason otherwise. */
	async connect(): Promise<Client> {
		return this.ensureClient();
	}

	/** Drops the connection and connects again now, forgetting the backoff. */
	async reconnect(reason = 'retry'): Promise<void> {
		this.options.log.info(`${this.options.logPrefix}: reconnecting to ${this.options.label} (${reason})`);
		this.retries.cancel();
		this.retries.reset();
		this.generation++;
		await this.closeClient();
		this.connecting = undefined;
		await this.ensureClient().catch(() => undefined);
	}

	/**
	 * Resolves with the client once connected, waiting up to `waitMs` for a (re)connect that is
	 * under way or scheduled; rejects on timeout, on `signal`, or when this is disposed.
	 */
	whenConnected(waitMs: number, signal?: AbortSignal): Promise<Client> {
		if (this.client) {
			return Promise.resolve(this.client);
		}
		void this.ensureClient().catch(() => undefined);
		return waitForConnection({ onDidChangeState: this.onDidChangeState, current: () => this.client, closed: () => this.isDisposed }, waitMs, signal);
	}

	/**
	 * Runs a call on the connected client; a transport failure (not an error answer) starts a
	 * reconnect. A call given `signal` that fails once it is aborted was cancelled by its caller
	 * (the SDK reports that as a timeout): the connection is fine.
	 */
	async request<T>(call: (client: Client) => Promise<T>, client?: Client, signal?: AbortSignal): Promise<T> {
		const target = client ?? await this.ensureClient();
		try {
			return await call(target);
		} catch (err) {
			if (isTransportFailure(err) && this.client === target && !signal?.aborted) {
				this.fail(err, target);
			}
			throw err;
		}
	}

	/**
	 * One page of `resources/list` from one request. (The SDK's `listResources()` without a
	 * cursor walks every page; a huge workspace must not be listed whole to show its first page.)
	 */
	listPage(cursor?: string, client?: Client): Promise<ListResourcesResult> {
		return this.request(c => c.request({ method: 'resources/list', params: cursor ? { cursor } : {} }), client);
	}

	/** Watches `uri` for `resources/updated` (once however many holders); dispose the result to release. */
	watch(uri: string): IDisposable {
		return this.watches.watch(uri);
	}

	/** Resolves once the server answered the latest watch request for `uri` (or it failed). */
	whenWatched(uri: string): Promise<WatchOutcome> {
		return this.watches.whenWatched(uri);
	}

	/** Resolves once the listen stream (2026-07-28) is open for the current set of watched URIs. */
	whenListening(): Promise<void> {
		return this.watches.whenListening();
	}

	get watchedUris(): string[] {
		return this.watches.uris;
	}

	private ensureClient(): Promise<Client> {
		if (this.isDisposed) {
			return Promise.reject(new Error('The connection is closed'));
		}
		if (this.client) {
			return Promise.resolve(this.client);
		}
		if (!this.connecting) {
			const generation = this.generation;
			this.connecting = this.open(generation).finally(() => {
				if (this.generation === generation) {
					this.connecting = undefined;
				}
			});
		}
		return this.connecting;
	}

	private async open(generation: number): Promise<Client> {
		this.retries.cancel();
		this.setState({ kind: 'connecting' });
		let target: ConnectionTarget;
		try {
			target = await this.source.resolve();
		} catch (err) {
			if (err instanceof SourceUnavailable) {
				if (generation === this.generation) {
					this.setState({ kind: 'unavailable', message: err.message });
					if (!this.source.onDidChange) {
						this.scheduleRetry(err.message, { kind: 'unavailable', message: err.message });
					}
				}
				throw err;
			}
			throw this.failOpen(err, generation);
		}
		if (generation !== this.generation || this.isDisposed) {
			throw new Error('superseded');
		}
		if (target.kind === 'stdio') {
			this.stderrTail = '';
		}
		let client: Client;
		try {
			client = await connectClient(target, this.options.clientName, {
				listChanged: () => this.listChangedEmitter.fire(),
				toolsChanged: () => this.toolsChangedEmitter.fire(),
				updated: uri => {
					if (this.watches.has(uri)) {
						this.updatedEmitter.fire(uri);
					}
				},
				error: (err, erring) => {
					this.options.log.debug(`${this.options.logPrefix}: ${this.options.label}: ${err.message}`);
					// On 2025 HTTP the standalone SSE stream carries notifications; when it ends the server is gone or restarting.
					if (this.client === erring && isConnectionLoss(err)) {
						this.fail(err, erring);
					}
				},
				stderr: text => {
					this.stderrTail = (this.stderrTail + text).slice(-2000);
				},
			});
		} catch (err) {
			throw this.failOpen(err, generation);
		}
		if (generation !== this.generation || this.isDisposed) {
			await client.close().catch(() => undefined);
			throw new Error('superseded');
		}
		client.onclose = () => {
			if (this.client === client) {
				this.fail(new Error('the connection closed'), client);
			}
		};
		this.client = client;
		this.retries.reset();
		this.setState({ kind: 'connected' });
		this.options.log.info(`${this.options.logPrefix}: connected to ${this.options.label}`);
		this.options.log.debug(`${this.options.logPrefix}: ${this.options.label} speaks the ${client.getProtocolEra() === 'modern' ? '2026-07-28' : '2025'} protocol`);
		this.watches.connected(client);
		this.connectedEmitter.fire();
		return client;
	}

	/** Schedules the retry, and says why in the error the caller gets (a 401 reads as unauthorized). */
	private failOpen(err: unknown, generation: number): Error {
		const error = err instanceof Error ? err : new Error(String(err));
		const message = describeFailure(error, this.stderrTail);
		if (generation === this.generation) {
			this.scheduleRetry(message);
		}
		return new Error(message, { cause: error });
	}

	private fail(err: unknown, client: Client): void {
		if (this.client !== client) {
			return;
		}
		this.client = undefined;
		this.generation++;
		this.connecting = undefined;
		this.watches.disconnected();
		client.onclose = undefined;
		client.onerror = undefined;
		void client.close().catch(() => undefined);
		this.scheduleRetry(describeFailure(err instanceof Error ? err : new Error(String(err)), this.stderrTail));
	}

	private scheduleRetry(message: string, state?: ConnectionState): void {
		if (this.isDisposed) {
			return;
		}
		const delay = this.retries.nextDelay();
		this.retries.cancel();
		if (state) {
			this.options.log.debug(`${this.options.logPrefix}: ${this.options.label}: ${message}; looking again in ${delay} ms`);
			this.setState(state);
		} else {
			this.options.log.warn(`${this.options.logPrefix}: ${this.options.label}: ${message}; retrying in ${delay} ms`);
			this.setState({ kind: 'error', message, retryAt: Date.now() + delay });
		}
		this.retries.start(delay, () => void this.ensureClient().catch(() => undefined));
	}

	private async closeClient(): Promise<void> {
		const client = this.client;
		this.client = undefined;
		if (client) {
			client.onclose = undefined;
			client.onerror = undefined;
			this.watches.disconnected();
			await endConnection(client);
		}
	}

	private setState(state: ConnectionState): void {
		this.current = state;
		this.stateEmitter.fire(state);
	}
}
