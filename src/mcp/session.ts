import { Server, type ServerOptions, type Transport } from '@modelcontextprotocol/server';
import { Disposable, toDisposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { DEFAULT_PAGE_SIZE, ProviderRegistry } from '../core/registry';
import { ResourceProvider } from '../core/resource';
import { SERVER_NAME, VERSION } from '../version';
import { SDK_ANSWERED_CACHE_HINTS } from './cacheHints';
import { installResourceHandlers, ResourceHandlerHooks } from './handlers';
import { SERVER_ICONS } from './icons';
import { ListenInterest } from './listenInterest';
import { asMade, modernResultFinisher } from './modernResult';
import { SessionSubscriptions, subscribedAmong, SubscriptionLimit } from './subscriptions';
import { InvalidRequest } from './errors';
import { PinnedShortcut, ShortcutServer } from './pinnedShortcut';
import { onDidTurnTools, ToolSwitch } from './tools/toolSwitch';
import { installToolHandlers, toolsOffered } from './tools/workspaceTools';

export interface SessionOptions {
	readonly registry: ProviderRegistry;
	readonly log: Logger;
	readonly pageSize?: number;
	/** Whether tools are offered now (see ToolSwitch); on when absent. */
	readonly tools?: ToolSwitch;
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
		`served. Models that cannot read resources get the same through read-only tools (${toolsOffered(providers).map(t => t.name).join(', ')}), ` +
		'under the same rules, unless the user turned them off. The prompts list is empty.';
}

const SERVER_INFO = { name: SERVER_NAME, title: 'MCP Workspace Resources', version: VERSION };
/** 2026-07-28 results name the server as the SDK would stamp it: `SERVER_INFO`, the instance's own identity. */
const modernFinisher = modernResultFinisher(SERVER_INFO);

const instructionsCache = new WeakMap<ProviderRegistry, string>();

/**
 * A v2 `Server` answering resources over the shared registry. Cheap to build (no registry
 * listener, handlers are closures over the registry): the SDK's stateless 2026-07-28 HTTP entry
 * builds one per request it serves (discover, listen, completion and the rest; the hot reads go
 * to one long-lived instance, see SharedModernServer). With `shortcut`, the instance's transport
 * gets the side door of an SDK stdio entry that pinned it (see PinnedShortcut).
 */
export function createWorkspaceServer(options: SessionOptions, era: Era, hooks: ResourceHandlerHooks = {}, shortcut?: PinnedShortcut): Server {
	let instructions = instructionsCache.get(options.registry);
	if (instructions === undefined) {
		instructions = instructionsFor(options.registry.providers);
		instructionsCache.set(options.registry, instructions);
	}
	// On 2026-07-28 the server identifies itself in every result's _meta: the icons ride
	// only on server/discover (see amendDiscover), not on every read.
	const info = era === 'legacy' ? { ...SERVER_INFO, icons: [...SERVER_ICONS] } : SERVER_INFO;
	const serverOptions: ServerOptions = {
		// prompts are declared (with an empty list) because some clients call the lists
		// unconditionally and give up on a server that answers -32601 (Codex CLI); tools are
		// declared even while turned off, for the same reason and to announce turning them on.
		capabilities: { resources: { subscribe: true, listChanged: true }, completions: {}, tools: { listChanged: true }, prompts: {} },
		instructions,
		// Only 2026-07-28 results carry cache hints, and our handlers write their own (see
		// modernResult): the SDK gets those of what it answers itself.
		...era === 'modern' && { cacheHints: SDK_ANSWERED_CACHE_HINTS },
	};
	const server = shortcut ? new ShortcutServer(shortcut, info, serverOptions) : new Server(info, serverOptions);
	// A server built with a shortcut answers through a wire of ours (StdioWire, the shared
	// instance's, whose answers modernHttp writes, or a 2025 session's hot reads, which
	// LegacyHotReads writes): those splice a page encoded ahead.
	const finish = era === 'modern' ? modernFinisher : asMade;
	installResourceHandlers(server, options.registry, options.log, options.pageSize ?? DEFAULT_PAGE_SIZE, hooks, shortcut !== undefined, finish);
	installToolHandlers(server, options.registry, { log: options.log, tools: options.tools, finish });
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

	constructor(private readonly options: SessionOptions, private readonly era: Era = 'legacy', private readonly interest?: ListenInterest, shortcut?: PinnedShortcut) {
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
		} : {}, shortcut);
		this._register(options.registry.onDidChange(change => this.notify(change.updated, change.listChanged)));
		this._register(onDidTurnTools(options.tools, () => {
			if (this.server.transport) {
				void this.server.sendToolListChanged().catch(() => undefined);
			}
		}));
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
