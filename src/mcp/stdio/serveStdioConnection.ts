import type { Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { FilteringStdioTransport } from './filteringStdioTransport';
import { LineTooLong } from './stdioTransport';
import { ListenGate } from '../subscriptions/listenGate';
import { ListenedUris } from '../subscriptions/listenedUris';
import { McpSession } from '../server/mcpSession';
import { SessionOptions } from '../server/workspaceServer';

/** Open `subscriptions/listen` streams one stdio connection may hold. */
export const MAX_STDIO_LISTEN_STREAMS = 16;

export interface StdioConnection {
	/** Ends listen streams and the connection, and lets go of the session. */
	close(): Promise<void>;
}

/**
 * MCP over one stdio connection, either era: the SDK's `serveStdio` pins the connection to the
 * era its first message speaks (`initialize` = 2025, a `_meta` envelope = 2026-07-28) and to
 * one long-lived session built here, so nothing is rebuilt per request.
 */
export function serveStdioConnection(options: SessionOptions, wire: Transport): StdioConnection {
	const listened = new ListenedUris();
	const sessions = new Set<McpSession>();
	const transport = new FilteringStdioTransport(wire, new ListenGate(options.registry, listened));
	const handle = serveStdio(({ era }) => {
		const session = new McpSession(options, era, listened);
		sessions.add(session);
		const onclose = session.server.onclose;
		// The SDK closes the instance of a discarded discovery probe, and the pinned one at the end.
		session.server.onclose = () => {
			onclose?.();
			sessions.delete(session);
			session.dispose();
		};
		return session.server;
	}, {
		transport,
		maxSubscriptions: MAX_STDIO_LISTEN_STREAMS,
		// Most wire errors are a client going away (EPIPE), not worth a line. An over-long line ends
		// the connection and the process with it: the user must be able to see why at the default level.
		onerror: err => err instanceof LineTooLong
			? options.log.warn(`stdio: ${err.message}; closing the connection`)
			: options.log.debug(`stdio: ${err.message}`),
	});
	return {
		close: async () => {
			await handle.close().catch(() => undefined);
			for (const session of sessions) {
				session.dispose();
			}
			sessions.clear();
		},
	};
}
