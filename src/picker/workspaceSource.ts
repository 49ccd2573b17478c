import { Emitter, Event } from '../common/event';
import { Disposable } from '../common/lifecycle';
import type { ConnectionInfo } from '../mcp/httpHost';
import type { ServerState } from '../mcp/serverRunner';
import { ConnectionSource, ConnectionTarget, SourceUnavailable } from './serverConnection';

/** What the picker needs of the ServerRunner (structural, so tests can fake it). */
export interface RunnerLike {
	readonly state: ServerState;
	readonly onDidChangeState: Event<ServerState>;
	whenRunning(): Promise<ConnectionInfo>;
}

/**
 * "This workspace": the window's own server, reached over its loopback URL with its bearer
 * token like any other client. A restart brings a new token, so the connection is told to
 * reconnect whenever the running server's URL or token changes or it stops.
 */
export class RunnerSource extends Disposable implements ConnectionSource {
	private readonly changeEmitter = this._register(new Emitter<void>());
	readonly onDidChange = this.changeEmitter.event;
	private lastToken: string | undefined;

	constructor(private readonly runner: RunnerLike) {
		super();
		this.lastToken = runner.state.kind === 'running' ? runner.state.info.token : undefined;
		this._register(runner.onDidChangeState(state => {
			const token = state.kind === 'running' ? state.info.token : state.kind === 'starting' ? this.lastToken : undefined;
			if (token !== this.lastToken) {
				this.lastToken = token;
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
		return { kind: 'http', url: info.url, headers: { Authorization: `Bearer ${info.token}` } };
	}
}
