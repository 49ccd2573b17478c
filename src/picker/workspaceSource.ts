import type { FetchLike } from '@modelcontextprotocol/client';
import { Emitter, Event } from '../common/event';
import { Disposable } from '../common/lifecycle';
import { bearerAuthorization } from '../mcp/http/authorization';
import type { ConnectionInfo } from '../mcp/http/httpHost';
import type { ServerState } from '../mcp/serverRunner';
import { ConnectionSource, ConnectionTarget, SourceUnavailable } from '../client/connectionSource';

/** What the picker needs of the ServerRunner (structural, so tests can fake it). */
export interface RunnerLike {
	readonly state: ServerState;
	readonly onDidChangeState: Event<ServerState>;
	whenRunning(): Promise<ConnectionInfo>;
}

/**
 * "This workspace": the window's own server, reached over its loopback URL with its bearer
 * token like any other client. A restart ends every session (even at the same URL with the
 * same token), so the connection is told to reconnect whenever a new server runs or it stops.
 */
export class RunnerSource extends Disposable implements ConnectionSource {
	private readonly changeEmitter = this._register(new Emitter<void>());
	readonly onDidChange = this.changeEmitter.event;
	/** The running server's info: a new object on every start, so it tells servers apart. */
	private lastServer: ConnectionInfo | undefined;

	/**
	 * `fetch`: what reaches the window's own loopback server, when the host's global `fetch` is
	 * not the right one (VS Code's goes through its proxy support, which loads every system CA
	 * certificate on first use, even for a loopback `http:` URL).
	 */
	constructor(private readonly runner: RunnerLike, private readonly fetch?: FetchLike) {
		super();
		this.lastServer = runner.state.kind === 'running' ? runner.state.info : undefined;
		this._register(runner.onDidChangeState(state => {
			const server = state.kind === 'running' ? state.info : state.kind === 'starting' ? this.lastServer : undefined;
			if (server !== this.lastServer) {
				this.lastServer = server;
				this.changeEmitter.fire();
			}
		}));
	}

	async resolve(): Promise<ConnectionTarget> {
		const state = this.runner.state;
		if (state.kind === 'stopped') {
			throw new SourceUnavailable(state.reason === 'restricted'
				? 'Restricted Mode: trust this workspace to serve it'
				: state.reason === 'disabled' ? 'The server is disabled (mcpResources.enabled)' : 'The server is stopped');
		}
		if (state.kind === 'error') {
			throw new SourceUnavailable(state.message);
		}
		const info = await this.runner.whenRunning();
		return { kind: 'http', url: info.url, headers: bearerAuthorization(info.token), ...(this.fetch ? { fetch: this.fetch } : {}) };
	}
}
