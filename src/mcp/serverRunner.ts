import { Emitter } from '../common/event';
import { Disposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { ProviderRegistry } from '../core/registry';
import { VERSION } from '../version';
import { ConnectionInfo, HttpHost } from './http/httpHost';
import { discoveryHome, lockFilePath, removeLockFile, writeLockFile } from './lockFile';
import { ToolSwitch } from './tools/toolSwitch';

export type ServerState =
	| { readonly kind: 'stopped'; readonly reason?: string }
	| { readonly kind: 'starting' }
	| { readonly kind: 'running'; readonly info: ConnectionInfo; readonly sessions: number; readonly lockFile?: string }
	| { readonly kind: 'error'; readonly message: string };

export interface ServerRunnerOptions {
	readonly registry: ProviderRegistry;
	readonly log: Logger;
	/** The configured port as written (a settings file may hold anything); 0 lets the OS choose. */
	readonly port: () => unknown;
	readonly workspaceFolders: () => readonly string[];
	readonly hostKind: 'vscode' | 'headless';
	readonly home?: string;
	/** Whether tools are offered now; on when absent. */
	readonly tools?: ToolSwitch;
}

/**
 * Runs the HTTP host and keeps its discovery lock file in step: written on start, rewritten
 * when folders change, removed on stop. States drive the status bar.
 *
 * The token and (with port 0) the port live as long as the runner, that is the window: a
 * restart comes back at the same address with the same token, so VS Code's own client and
 * HTTP clients configured by hand stay connected. Only `rotateToken()` makes a new token.
 */
export class ServerRunner extends Disposable {
	private host: HttpHost | undefined;
	private current: ServerState = { kind: 'stopped' };
	private readonly stateEmitter = this._register(new Emitter<ServerState>());
	readonly onDidChangeState = this.stateEmitter.event;
	private readonly runningEmitter = this._register(new Emitter<ConnectionInfo>());
	private queue: Promise<unknown> = Promise.resolve();
	private token: string | undefined;
	private lastPort: number | undefined;

	constructor(private readonly options: ServerRunnerOptions) {
		super();
	}

	get state(): ServerState {
		return this.current;
	}

	/** The names the clients of the running server gave in `initialize`. */
	clientNames(): readonly string[] {
		return this.host?.clientNames() ?? [];
	}

	get connectionInfo(): ConnectionInfo | undefined {
		return this.current.kind === 'running' ? this.current.info : undefined;
	}

	/** Resolves with the connection info once the server runs (now or later). */
	whenRunning(): Promise<ConnectionInfo> {
		const info = this.connectionInfo;
		if (info) {
			return Promise.resolve(info);
		}
		return new Promise(resolve => {
			const sub = this.runningEmitter.event(i => {
				sub.dispose();
				resolve(i);
			});
		});
	}

	start(): Promise<void> {
		return this.serialized(() => this.doStart());
	}

	stop(reason?: string): Promise<void> {
		return this.serialized(() => this.doStop(reason));
	}

	/** Stops and starts again at the same address with the same token. */
	restart(): Promise<void> {
		return this.serialized(async () => {
			await this.doStop(undefined, true);
			await this.doStart();
		});
	}

	/** Restarts with a new token: every client must be given the new one. */
	rotateToken(): Promise<void> {
		return this.serialized(async () => {
			await this.doStop(undefined, true);
			this.token = undefined;
			await this.doStart();
		});
	}

	/** Rewrites the lock file (workspace folders changed). */
	refreshLockFile(): Promise<void> {
		return this.serialized(async () => {
			if (this.current.kind === 'running') {
				await this.writeLock(this.current.info);
			}
		});
	}

	private serialized(step: () => Promise<void>): Promise<void> {
		const next = this.queue.then(step, step);
		this.queue = next.catch(() => undefined);
		return next;
	}

	private async doStart(): Promise<void> {
		if (this.host || this.isDisposed) {
			return;
		}
		this.setState({ kind: 'starting' });
		// A configured port wins; otherwise come back where clients last found us.
		const port = this.configuredPort() || this.lastPort || 0;
		const host = new HttpHost({ registry: this.options.registry, log: this.options.log, port, token: this.token, tools: this.options.tools });
		try {
			const info = await host.start();
			this.host = host;
			this.token = info.token;
			this.lastPort = info.port;
			host.onDidChangeSessions(sessions => {
				if (this.host === host && this.current.kind === 'running') {
					this.setState({ ...this.current, sessions });
				}
			});
			const lockFile = await this.writeLock(info);
			this.setState({ kind: 'running', info, sessions: host.clientCount, lockFile });
			this.runningEmitter.fire(info);
		} catch (err) {
			host.dispose();
			const message = (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
				? 'The port is in use'
				: `The server could not start: ${(err as Error).message}`;
			// A system error (a port this user may not bind) says it all; a stack is for a bug.
			if (typeof (err as NodeJS.ErrnoException).code === 'string') {
				this.options.log.error(`server failed to start: ${(err as Error).message}`);
			} else {
				this.options.log.error('server failed to start', err);
			}
			this.setState({ kind: 'error', message });
		}
	}

	/**
	 * The configured port, or 0 when it is not one: Node would take "abc" for a Unix socket's
	 * path and throw its argument error at 70000, leaving no server.
	 */
	private configuredPort(): number {
		const port = this.options.port() ?? 0;
		if (typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65535) {
			return port;
		}
		this.options.log.warn(`port ${JSON.stringify(port)} is not a port number (an integer from 0 to 65535); using a free port instead (change mcpResources.port or --port)`);
		return 0;
	}

	private async writeLock(info: ConnectionInfo): Promise<string | undefined> {
		const home = this.options.home ?? discoveryHome();
		try {
			await writeLockFile({
				url: info.url,
				token: info.token,
				workspaceFolders: this.options.workspaceFolders(),
				pid: process.pid,
				version: VERSION,
				host: this.options.hostKind,
				startedAt: new Date().toISOString(),
			}, this.options.log, home);
			return lockFilePath(process.pid, home);
		} catch (err) {
			this.options.log.warn(`could not write the discovery lock file in ${home}: ${String(err)}`);
			return undefined;
		}
	}

	/** With `restarting`, the state goes straight to starting: watchers never see a stop. */
	private async doStop(reason?: string, restarting = false): Promise<void> {
		const host = this.host;
		this.host = undefined;
		if (restarting) {
			this.setState({ kind: 'starting' });
		}
		if (host) {
			await removeLockFile(process.pid, this.options.home ?? discoveryHome()).catch(() => undefined);
			await host.stop();
			host.dispose();
		}
		if (!restarting) {
			this.setState({ kind: 'stopped', reason });
		}
	}

	private setState(state: ServerState): void {
		this.current = state;
		this.stateEmitter.fire(state);
	}

	override dispose(): void {
		void this.stop();
		super.dispose();
	}
}
