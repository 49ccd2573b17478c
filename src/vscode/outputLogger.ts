import * as vscode from 'vscode';
import { describeError, Logger } from '../common/logger';

/** The "MCP Resources" log output channel (levels follow the user's log level). */
export class OutputLogger implements Logger, vscode.Disposable {
	readonly channel: vscode.LogOutputChannel;

	constructor(name: string) {
		this.channel = vscode.window.createOutputChannel(name, { log: true });
	}

	debug(message: string): void {
		this.channel.debug(message);
	}
	info(message: string): void {
		this.channel.info(message);
	}
	warn(message: string): void {
		this.channel.warn(message);
	}
	error(message: string, err?: unknown): void {
		this.channel.error(err === undefined ? message : `${message}: ${describeError(err)}`);
	}

	dispose(): void {
		this.channel.dispose();
	}
}
