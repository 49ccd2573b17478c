import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
	ErrorCode, McpError, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Emitter, Event } from '../common/event';
import { Disposable, IDisposable, toDisposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { VERSION } from '../version';
import { ReadContent } from './contextBundle';
import { IconStore, SafeIcon } from './icons';
import { ListedResource, ListedTemplate, toListedResource, toListedTemplate } from './listedItems';
import { ListingGuard, TEMPLATE_LIMITS } from './listingGuard';
import { formatSize } from './tokenEstimate';

export type { ListedResource, ListedTemplate } from './listedItems';

export type ConnectionTarget =
	| { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> }
	| { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>>; readonly cwd?: string };

/** Thrown by a source that has no server to offer right now (not an error to retry). */
export class SourceUnavailable extends Error {}

/** Where a connection's server is. `resolve` may wait; `onDidChange` asks for a reconnect. */
export interface ConnectionSource {
	resolve(): Promise<ConnectionTarget>;
	readonly onDidChange?: Event<void>;
}

export type ConnectionState =
	| { readonly kind: 'idle' }
	| { readonly kind: 'connecting' }
	| { readonly kind: 'connected' }
	/** No server to reach (e.g. this window's server is stopped); waits for the source to change. */
	| { readonly kind: 'unavailable'; readonly message: string }
	| { readonly kind: 'error'; readonly message: string; readonly retryAt?: number };

/**
 * Largest read result the picker takes from a server (text characters plus decoded binary
 * bytes): a bundle is pasted into a chat or an editor, and no one pastes more than this.
 */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

/** A read result over MAX_READ_BYTES: refused whole rather than cut, so nothing half-read is pasted. */
export class ReadTooLarge extends Error {
	constructor(readonly bytes: number) {
		super(`the server returned ${formatSize(bytes)}, more than the picker's ${formatSize(MAX_READ_BYTES)} limit for one resource, so it was not pasted`);
	}
}

export interface ServerConnectionOptions {
	readonly log: Logger;
	/** Delays between reconnect attempts after a failure; the last one repeats. */
	readonly backoffMs?: readonly number[];
}

const DEFAULT_BACKOFF = [500, 1000, 2000, 5000, 10_000, 30_000];

/**
 * The picker's MCP client for one server: an SDK `Client` over Streamable HTTP (bearer header)
 * or stdio. Connects on first use, reconnects with backoff after failures and at once when the
 * source changes (this window's server restarted with a new token), and keeps subscriptions
 * (reference counted) across reconnects.
 */
export class ServerConnection extends Disposable {
	private client: Client | undefined;
	private connecting: Promise<Client> | undefined;
	private current: ConnectionState = { kind: 'idle' };
	private attempt = 0;
	private retryTimer: NodeJS.Timeout | undefined;
	private generation = 0;
	private stderrTail = '';
	private readonly subscriptions = new Map<string, number>();
	/** The last subscribe request per URI, so callers can wait until the server has it. */
	private readonly subscribing = new Map<string, Promise<void>>();
	private readonly icons = new IconStore();
	private serverIconValue: SafeIcon | undefined;

	private readonly stateEmitter = this._register(new Emitter<ConnectionState>());
	readonly onDidChangeState = this.stateEmitter.event;
	private readonly connectedEmitter = this._register(new Emitter<void>());
	/** Fires after every successful (re)connect: lists may differ, reload them. */
	readonly onDidConnect = this.connectedEmitter.event;
	private readonly listChangedEmitter = this._register(new Emitter<void>());
	readonly onDidChangeList = this.listChangedEmitter.event;
	private readonly updatedEmitter = this._register(new Emitter<string>());
	/** A subscribed resource changed. */
	readonly onDidUpdateResource = this.updatedEmitter.event;

	constructor(
		readonly id: string,
		readonly label: string,
		private readonly source: ConnectionSource,
		private readonly options: ServerConnectionOptions,
	) {
		super();
		if (source.onDidChange) {
			this._register(source.onDidChange(() => void this.reconnect('the server changed')));
		}
		this._register(toDisposable(() => {
			this.clearRetry();
			void this.closeClient();
		}));
	}

	get state(): ConnectionState {
		return this.current;
	}

	/** The server's own icon (`serverInfo.icons`), when it sent an acceptable one. */
	get serverIcon(): SafeIcon | undefined {
		return this.serverIconValue;
	}

	/** Connects if needed; resolves when connected, rejects with the reason otherwise. */
	async connect(): Promise<void> {
		await this.ensureClient();
	}

	/** Drops the connection and connects again now, forgetting the backoff. */
	async reconnect(reason = 'retry'): Promise<void> {
		this.options.log.info(`picker: reconnecting to ${this.label} (${reason})`);
		this.clearRetry();
		this.attempt = 0;
		this.generation++;
		await this.closeClient();
		this.connecting = undefined;
		await this.ensureClient().catch(() => undefined);
	}

	/** One page of `resources/list`, each entry reduced to what the picker keeps. */
	async listPage(cursor?: string): Promise<{ resources: ListedResource[]; nextCursor?: string }> {
		const page = await this.request(c => c.listResources(cursor ? { cursor } : {}));
		return { resources: page.resources.map(r => toListedResource(r, this.icons)), nextCursor: page.nextCursor };
	}

	/** Every template, page by page, within TEMPLATE_LIMITS; `notice` says why it stopped early. */
	async listTemplates(): Promise<{ templates: ListedTemplate[]; notice?: string }> {
		const capabilities = await this.request(async c => c.getServerCapabilities());
		if (!capabilities?.resources) {
			return { templates: [] };
		}
		const guard = new ListingGuard(TEMPLATE_LIMITS, 'templates');
		const byTemplate = new Map<string, ListedTemplate>();
		let cursor: string | undefined;
		do {
			const page = await this.request(c => c.listResourceTemplates(cursor ? { cursor } : {}));
			const before = byTemplate.size;
			for (const template of guard.admit(page.resourceTemplates.map(t => toListedTemplate(t, this.icons)))) {
				if (!byTemplate.has(template.uriTemplate)) {
					byTemplate.set(template.uriTemplate, template);
				}
			}
			cursor = guard.next(page.nextCursor, page.resourceTemplates.length, byTemplate.size - before) ? page.nextCursor : undefined;
		} while (cursor);
		return { templates: [...byTemplate.values()], ...(guard.notice ? { notice: guard.notice } : {}) };
	}

	/** The contents of `uri`; rejects with ReadTooLarge past MAX_READ_BYTES. */
	async read(uri: string): Promise<ReadContent[]> {
		const result = await this.request(c => c.readResource({ uri }));
		let bytes = 0;
		for (const content of result.contents) {
			const text = (content as { text?: unknown }).text;
			const blob = (content as { blob?: unknown }).blob;
			bytes += typeof text === 'string' ? text.length : typeof blob === 'string' ? Math.floor(blob.length * 3 / 4) : 0;
		}
		if (bytes > MAX_READ_BYTES) {
			throw new ReadTooLarge(bytes);
		}
		return result.contents as ReadContent[];
	}

	/** Values for a template variable from `completion/complete`; [] when the server offers none. */
	async complete(uriTemplate: string, argument: string, value: string, context: Record<string, string> = {}): Promise<string[]> {
		const capabilities = await this.request(async c => c.getServerCapabilities());
		if (!capabilities?.completions) {
			return [];
		}
		const result = await this.request(c => c.complete({
			ref: { type: 'ref/resource', uri: uriTemplate },
			argument: { name: argument, value },
			...(Object.keys(context).length > 0 ? { context: { arguments: context } } : {}),
		}));
		return result.completion.values;
	}

	/** Subscribes to `uri` (once per server however many holders); dispose the result to release. */
	subscribe(uri: string): IDisposable {
		const count = this.subscriptions.get(uri) ?? 0;
		this.subscriptions.set(uri, count + 1);
		if (count === 0 && this.client) {
			this.subscribing.set(uri, this.sendSubscribe(this.client, uri));
		}
		return toDisposable(() => {
			const left = (this.subscriptions.get(uri) ?? 1) - 1;
			if (left > 0) {
				this.subscriptions.set(uri, left);
				return;
			}
			this.subscriptions.delete(uri);
			this.subscribing.delete(uri);
			const client = this.client;
			if (client && client.getServerCapabilities()?.resources?.subscribe) {
				void client.unsubscribeResource({ uri }).catch(() => undefined);
			}
		});
	}

	/** Resolves once the latest subscribe request for `uri` was answered (or failed). */
	whenSubscribed(uri: string): Promise<void> {
		return this.subscribing.get(uri) ?? Promise.resolve();
	}

	get subscribedUris(): string[] {
		return [...this.subscriptions.keys()];
	}

	private async sendSubscribe(client: Client, uri: string): Promise<void> {
		if (!client.getServerCapabilities()?.resources?.subscribe) {
			return;
		}
		try {
			await client.subscribeResource({ uri });
		} catch (err) {
			this.options.log.warn(`picker: could not subscribe to ${uri} on ${this.label}: ${(err as Error).message}`);
		}
	}

	/** Runs a request; a transport failure (not an MCP error answer) starts a reconnect. */
	private async request<T>(call: (client: Client) => Promise<T>): Promise<T> {
		const client = await this.ensureClient();
		try {
			return await call(client);
		} catch (err) {
			if (isTransportFailure(err) && this.client === client) {
				this.fail(err, client);
			}
			throw err;
		}
	}

	private ensureClient(): Promise<Client> {
		if (this.isDisposed) {
			return Promise.reject(new Error('The picker connection is closed'));
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
		this.clearRetry();
		this.setState({ kind: 'connecting' });
		let target: ConnectionTarget;
		try {
			target = await this.source.resolve();
		} catch (err) {
			if (err instanceof SourceUnavailable) {
				if (generation === this.generation) {
					this.setState({ kind: 'unavailable', message: err.message });
				}
				throw err;
			}
			throw this.failOpen(err, generation);
		}
		if (generation !== this.generation || this.isDisposed) {
			throw new Error('superseded');
		}
		const client = new Client({ name: 'mcp-workspace-resources-picker', version: VERSION });
		client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.listChangedEmitter.fire());
		client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => this.updatedEmitter.fire(n.params.uri));
		client.onerror = err => this.options.log.debug(`picker: ${this.label}: ${err.message}`);
		try {
			await client.connect(this.createTransport(target));
		} catch (err) {
			await client.close().catch(() => undefined);
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
		this.serverIconValue = this.icons.icon(client.getServerVersion()?.icons);
		this.attempt = 0;
		this.setState({ kind: 'connected' });
		this.options.log.info(`picker: connected to ${this.label}`);
		for (const uri of this.subscriptions.keys()) {
			this.subscribing.set(uri, this.sendSubscribe(client, uri));
		}
		this.connectedEmitter.fire();
		return client;
	}

	private createTransport(target: ConnectionTarget): Transport {
		if (target.kind === 'http') {
			return new StreamableHTTPClientTransport(new URL(target.url), {
				requestInit: { headers: { ...target.headers } },
				reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 30_000, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
			});
		}
		this.stderrTail = '';
		const transport = new StdioClientTransport({
			command: target.command,
			args: [...target.args],
			env: { ...getDefaultEnvironment(), ...target.env },
			cwd: target.cwd,
			stderr: 'pipe',
		});
		transport.stderr?.on('data', (chunk: Buffer) => {
			this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
		});
		return transport;
	}

	private failOpen(err: unknown, generation: number): Error {
		const error = err instanceof Error ? err : new Error(String(err));
		if (generation === this.generation) {
			this.scheduleRetry(describeFailure(error, this.stderrTail));
		}
		return error;
	}

	private fail(err: unknown, client: Client): void {
		if (this.client !== client) {
			return;
		}
		this.client = undefined;
		this.generation++;
		this.connecting = undefined;
		void client.close().catch(() => undefined);
		this.scheduleRetry(describeFailure(err instanceof Error ? err : new Error(String(err)), this.stderrTail));
	}

	private scheduleRetry(message: string): void {
		if (this.isDisposed) {
			return;
		}
		const backoff = this.options.backoffMs ?? DEFAULT_BACKOFF;
		const delay = backoff[Math.min(this.attempt, backoff.length - 1)];
		this.attempt++;
		this.clearRetry();
		this.options.log.warn(`picker: ${this.label}: ${message}; retrying in ${delay} ms`);
		this.setState({ kind: 'error', message, retryAt: Date.now() + delay });
		this.retryTimer = setTimeout(() => {
			this.retryTimer = undefined;
			void this.ensureClient().catch(() => undefined);
		}, delay);
		this.retryTimer.unref?.();
	}

	private clearRetry(): void {
		if (this.retryTimer) {
			clearTimeout(this.retryTimer);
			this.retryTimer = undefined;
		}
	}

	private async closeClient(): Promise<void> {
		const client = this.client;
		this.client = undefined;
		if (client) {
			client.onclose = undefined;
			const transport = client.transport;
			if (transport instanceof StreamableHTTPClientTransport) {
				await transport.terminateSession().catch(() => undefined);
			}
			await client.close().catch(() => undefined);
		}
	}

	private setState(state: ConnectionState): void {
		this.current = state;
		this.stateEmitter.fire(state);
	}
}

/** True for failures of the connection itself, as opposed to an error answer from the server. */
function isTransportFailure(err: unknown): boolean {
	if (err instanceof McpError) {
		return err.code === ErrorCode.ConnectionClosed;
	}
	return true;
}

function describeFailure(err: Error, stderr: string): string {
	const cause = (err as { cause?: { code?: string } }).cause;
	let message = err.message;
	if (cause?.code === 'ECONNREFUSED') {
		message = 'connection refused (is the server running?)';
	} else if (/\b401\b|Unauthorized/.test(message)) {
		message = 'unauthorized: check the Authorization header';
	}
	const lastLine = stderr.trim().split('\n').pop();
	return lastLine ? `${message} (stderr: ${lastLine.slice(0, 200)})` : message;
}
