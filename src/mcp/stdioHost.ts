import type { Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { EraAwareStdio } from './stdioEras';
import { ListenGate } from './listenGate';
import { ListenInterest } from './listenInterest';
import { McpSession, SessionOptions } from './session';

/** Open `subscriptions/listen` streams one stdio connection may hold. */
export const MAX_STDIO_LISTEN_STREAMS = 16;

export interface StdioHost {
	/** Ends listen streams and the connection, and lets go of the session. */
	close(): Promise<void>;
}

/**
 * MCP over one stdio connection, either era: the SDK's `serveStdio` pins the connection to the
 * era its first message speaks (`initialize` = 2025, a `_meta` envelope = 2026-07-28) and to
 * one long-lived session built here, so nothing is rebuilt per request.
 */
export function serveStdioEras(options: SessionOptions, wire: Transport): StdioHost {
	const interest = new ListenInterest();
	const sessions = new Set<McpSession>();
	const transport = new EraAwareStdio(wire, new ListenGate(options.registry, interest));
	const handle = serveStdio(({ era }) => {
		const session = new McpSession(options, era, interest);
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
		onerror: err => options.log.debug(`stdio: ${err.message}`),
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
