import { Server, type ServerOptions, type Transport } from '@modelcontextprotocol/server';
import { Disposable, toDisposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { DEFAULT_PAGE_SIZE, ProviderRegistry } from '../core/registry';
import { ResourceProvider } from '../core/resource';
import { SERVER_NAME, VERSION } from '../version';
import { CACHE_HINTS } from './cacheHints';
import { installResourceHandlers, ResourceHandlerHooks } from './handlers';
import { SERVER_ICONS } from './icons';
import { ListenInterest } from './listenInterest';
import { SessionSubscriptions, subscribedAmong, SubscriptionLimit } from './subscriptions';
import { InvalidRequest } from './errors';

export interface SessionOptions {
	readonly registry: ProviderRegistry;
	readonly log: Logger;
	readonly pageSize?: number;
}

/** The protocol era a connection speaks: `legacy` = 2025 revisions (initialize), `modern` = 2026-07-28. */
export type Era = 'legacy' | 'modern';

/**
 * What the server tells a client it offers, built from the providers this host registered: the
 * headless host has no problems or editor state, and a model must not be told they exist.
 */
export function instructionsFor(providers: readonly ResourceProvider[]): string {
	const families = providers.map(p => p.summary);
	const listed = families.length > 1 ? `${families.slice(0, -1).join('; ')}; and ${families[families.length - 1]}` : families.join('');
	return `Resources are the open workspace as it is now: ${listed}. Page through resources/list with nextCursor, ` +
		'read with resources/read, fill templates with completion/complete, and subscribe (resources/subscribe, or ' +
		'subscriptions/listen on 2026-07-28) to hear when something changes. Ignored and secret files are never ' +
		'served. This server offers resources only: its tools and prompts lists are empty.';
}

const SERVER_INFO = { name: SERVER_NAME, title: 'MCP Workspace Resources', version: VERSION };

const instructionsCache = new WeakMap<ProviderRegistry, string>();

/**
 * A v2 `Server` answering resources over the shared registry. Cheap to build (no registry
 * listener, handlers are closures over the registry): the SDK's stateless 2026-07-28 HTTP entry
 * builds one per request it serves.
 */
export function createWorkspaceServer(options: SessionOptions, era: Era, hooks: ResourceHandlerHooks = {}): Server {
	let instructions = instructionsCache.get(options.registry);
	if (instructions === undefined) {
		instructions = instructionsFor(options.registry.providers);
		instructionsCache.set(options.registry, instructions);
	}
	// On 2026-07-28 the server identifies itself in every result's _meta: the icons ride
	// only on server/discover (see amendDiscover), not on every read.
	const info = era === 'legacy' ? { ...SERVER_INFO, icons: [...SERVER_ICONS] } : SERVER_INFO;
	const serverOptions: ServerOptions = {
		// tools and prompts are declared (with empty lists) because some clients call
		// tools/list unconditionally and give up on a server that answers -32601 (Codex CLI).
		capabilities: { resources: { subscribe: true, listChanged: true }, completions: {}, tools: {}, prompts: {} },
		instructions,
		// Only 2026-07-28 results carry cache hints; the SDK stamps them.
		...era === 'modern' && { cacheHints: CACHE_HINTS },
	};
	const server = new Server(info, serverOptions);
	installResourceHandlers(server, options.registry, options.log, options.pageSize ?? DEFAULT_PAGE_SIZE, hooks);
	return server;
}

/**
 * One long-lived MCP connection: a 2025 HTTP session, or a stdio connection of either era. It
 * keeps the connection's subscriptions and forwards the registry's changes: on the 2025 era only
 * to subscribed URIs; on 2026-07-28 the SDK's listen router stamps and filters what the instance
 * sends, and `interest` (URIs some listen stream of this connection acknowledged) keeps a burst
 * of changes from producing a notification per changed file.
 */
export class McpSession extends Disposable {
	readonly server: Server;
	readonly subscriptions = new SessionSubscriptions();
	/** The registry's list version at this client's first listing; -1 before it. */
	private firstListedVersion = -1;

	constructor(private readonly options: SessionOptions, private readonly era: Era = 'legacy', private readonly interest?: ListenInterest) {
		super();
		this.server = createWorkspaceServer(options, era, era === 'legacy' ? {
			onFirstPage: version => {
				if (this.firstListedVersion < 0) {
					this.firstListedVersion = version;
				}
			},
			subscribe: (uri, hold) => {
				if (this.isDisposed) {
					hold.dispose(); // the session ended while the providers checked the URI
					return;
				}
				try {
					this.subscriptions.add(uri, hold);
				} catch (err) {
					throw err instanceof SubscriptionLimit ? new InvalidRequest(err.message) : err;
				}
			},
			unsubscribe: uri => this.subscriptions.delete(uri),
		} : {});
		this._register(options.registry.onDidChange(change => this.notify(change.updated, change.listChanged)));
		this._register(toDisposable(() => {
			this.subscriptions.clear();
			void this.server.close().catch(() => undefined);
		}));
	}

	/** The name the client gave (in `initialize`, or in a 2026-07-28 request's envelope). */
	get clientName(): string | undefined {
		return this.server.getClientVersion()?.name;
	}

	connect(transport: Transport): Promise<void> {
		return this.server.connect(transport);
	}

	private notify(updated: readonly string[], listChanged: boolean): void {
		if (!this.server.transport) {
			return;
		}
		const uris = this.era === 'legacy' ? subscribedAmong(this.subscriptions, updated) : this.interest?.among(updated) ?? [];
		for (const uri of uris) {
			void this.server.sendResourceUpdated({ uri }).catch(() => undefined);
		}
		// Changes from before the client's first listing (git found while that page waited for
		// it) are not news: announcing them would make every client list twice at startup. On
		// 2026-07-28 only a listening client hears it, and it asked to.
		if (listChanged && (this.era === 'modern' || this.firstListedVersion < this.options.registry.listVersion)) {
			void this.server.sendResourceListChanged().catch(() => undefined);
		}
	}
}
