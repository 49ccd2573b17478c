import type { Server, Transport } from '@modelcontextprotocol/server';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { ListenedUris } from '../subscriptions/listenedUris';
import { SessionSubscriptions, subscribedAmong, SubscriptionLimit } from '../subscriptions/sessionSubscriptions';
import { InvalidRequest } from './protocolErrors';
import { onDidTurnTools } from '../tools/toolSwitch';
import { createWorkspaceServer, Era, SessionOptions } from './workspaceServer';

/**
 * One long-lived MCP connection: a 2025 HTTP session, or a stdio connection of either era. It
 * keeps the connection's subscriptions and forwards the registry's changes: on the 2025 era only
 * to subscribed URIs; on 2026-07-28 the SDK's listen router stamps and filters what the instance
 * sends, and `listened` (URIs some listen stream of this connection acknowledged) keeps a burst
 * of changes from producing a notification per changed file.
 */
export class McpSession extends Disposable {
	readonly server: Server;
	readonly subscriptions = new SessionSubscriptions();
	/** The registry's list version at this client's first listing; -1 before it. */
	private firstListedVersion = -1;

	constructor(private readonly options: SessionOptions, private readonly era: Era = 'legacy', private readonly listened?: ListenedUris) {
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
		// A 2025 client hears nothing before its `initialize` (a stdio peer may ping first).
		if (!this.server.transport || (this.era === 'legacy' && this.server.getClientVersion() === undefined)) {
			return;
		}
		const uris = this.era === 'legacy' ? subscribedAmong(this.subscriptions, updated) : this.listened?.among(updated) ?? [];
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
