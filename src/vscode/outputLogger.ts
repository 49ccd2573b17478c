import * as vscode from 'vscode';
import { describeError, Logger } from '../common/logger';

/** The "MCP Resources" log output channel (levels follow the user's log level). */
export class OutputLogger implements Logger, vscode.Disposable {
	readonly channel: vscode.LogOutputChannel;
	/** Shutdown steps may still log after the channel is gone ("Channel has been closed"). */
	private disposed = false;

	constructor(name: string) {
		this.channel = vscode.window.createOutputChannel(name, { log: true });
	}

	debug(message: string): void {
		if (!this.disposed) {
			this.channel.debug(message);
		}
	}
	info(message: string): void {
		if (!this.disposed) {
			this.channel.info(message);
		}
	}
	warn(message: string): void {
		if (!this.disposed) {
			this.channel.warn(message);
		}
	}
	error(message: string, err?: unknown): void {
		if (this.disposed) {
			return;
		}
		this.channel.error(err === undefined ? message : `${message}: ${describeError(err)}`);
	}

	dispose(): void {
		this.disposed = true;
		this.channel.dispose();
	}
}
