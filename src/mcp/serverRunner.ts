import { Emitter } from '../common/event';
import { Disposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { ProviderRegistry } from '../core/registry';
import { VERSION } from '../version';
import { ConnectionInfo, HttpHost } from './httpHost';
import { discoveryHome, lockFilePath, removeLockFile, writeLockFile } from './lockFile';

export type ServerState =
	| { readonly kind: 'stopped'; readonly reason?: string }
	| { readonly kind: 'starting' }
	| { readonly kind: 'running'; readonly info: ConnectionInfo; readonly sessions: number; readonly lockFile?: string }
	| { readonly kind: 'error'; readonly message: string };

export interface ServerRunnerOptions {
	readonly registry: ProviderRegistry;
	readonly log: Logger;
	readonly port: () => number;
	readonly workspaceFolders: () => readonly string[];
	readonly hostKind: 'vscode' | 'headless';
	readonly home?: string;
}

/**
 * Runs the HTTP host and keeps its discovery lock file in step: written on start (fresh
 * token), rewritten when folders change, removed on stop. States drive the status bar.
 */
export class ServerRunner extends Disposable {
	private host: HttpHost | undefined;
	private current: ServerState = { kind: 'stopped' };
	private readonly stateEmitter = this._register(new Emitter<ServerState>());
	readonly onDidChangeState = this.stateEmitter.event;
	private readonly runningEmitter = this._register(new Emitter<ConnectionInfo>());
	private queue: Promise<unknown> = Promise.resolve();

	constructor(private readonly options: ServerRunnerOptions) {
		super();
	}

	get state(): ServerState {
		return this.current;
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

	restart(): Promise<void> {
		return this.serialized(async () => {
			await this.doStop();
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
		const host = new HttpHost({ registry: this.options.registry, log: this.options.log, port: this.options.port() });
		try {
			const info = await host.start();
			this.host = host;
			host.onDidChangeSessions(sessions => {
				if (this.host === host && this.current.kind === 'running') {
					this.setState({ ...this.current, sessions });
				}
			});
			const lockFile = await this.writeLock(info);
			this.setState({ kind: 'running', info, sessions: host.sessionCount, lockFile });
			this.runningEmitter.fire(info);
		} catch (err) {
			host.dispose();
			const message = (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
				? 'The port is in use'
				: `The server could not start: ${(err as Error).message}`;
			this.options.log.error('server failed to start', err);
			this.setState({ kind: 'error', message });
		}
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

	private async doStop(reason?: string): Promise<void> {
		const host = this.host;
		this.host = undefined;
		if (host) {
			await removeLockFile(process.pid, this.options.home ?? discoveryHome()).catch(() => undefined);
			await host.stop();
			host.dispose();
		}
		this.setState({ kind: 'stopped', reason });
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
