import { Client } from '@modelcontextprotocol/client';
import { Event } from '../common/event';
import { IDisposable } from '../common/lifecycle';
import { ConnectTimeout } from './clientErrors';

/** What waiting for a connection watches: the client once there is one, and whether the connection was closed for good. */
export interface AwaitedConnection {
	readonly onDidChangeState: Event<unknown>;
	current(): Client | undefined;
	closed(): boolean;
}

/**
 * Resolves with the client once `connection` has one, waiting up to `waitMs`; rejects with
 * {@link ConnectTimeout} on timeout, and on `signal` or when the connection closes for good.
 */
export function waitForConnection(connection: AwaitedConnection, waitMs: number, signal?: AbortSignal): Promise<Client> {
	return new Promise((resolve, reject) => {
		const subscriptions: IDisposable[] = [];
		const done = (err?: Error) => {
			clearTimeout(timer);
			signal?.removeEventListener('abort', onAbort);
			subscriptions.forEach(s => s.dispose());
			if (err) {
				reject(err);
			} else {
				resolve(connection.current()!);
			}
		};
		const onAbort = () => done(new Error('cancelled'));
		const timer = setTimeout(() => done(new ConnectTimeout(waitMs)), waitMs);
		subscriptions.push(connection.onDidChangeState(() => {
			if (connection.closed()) {
				done(new Error('the connection is closed'));
			} else if (connection.current()) {
				done();
			}
		}));
		signal?.addEventListener('abort', onAbort);
		if (connection.current()) {
			done();
		}
	});
}
