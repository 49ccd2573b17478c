import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { VERSION } from '../version';
import { createClientTransport } from './clientTransport';
import { ConnectionTarget } from './connectionSource';

const STDIO_PROBE_MS = 5_000;
const HTTP_PROBE_MS = 15_000;

/** What a connected client hears besides answers, and its server's stderr (stdio). */
export interface ClientListeners {
	readonly listChanged: () => void;
	/** `notifications/tools/list_changed` (the bridge relays it; the picker has no use for it). */
	readonly toolsChanged?: () => void;
	readonly updated: (uri: string) => void;
	/** The SDK's `onerror`, from the start of the connect. */
	readonly error: (err: Error, client: Client) => void;
	readonly stderr: (text: string) => void;
}

/**
 * An SDK v2 `Client` named `clientName`, connected to `target`, negotiating the era itself
 * (2026-07-28 where the server offers it, 2025 otherwise). Closed again when the connect fails.
 */
export async function connectClient(target: ConnectionTarget, clientName: string, listeners: ClientListeners): Promise<Client> {
	const client = new Client(
		{ name: clientName, version: VERSION },
		// The probe's wait: on stdio a silent server is a 2025 one (the SDK then falls back), so
		// don't make the user wait the SDK's default minute for it; on HTTP silence is an outage.
		{ capabilities: {}, versionNegotiation: { mode: 'auto', probe: { timeoutMs: target.kind === 'stdio' ? STDIO_PROBE_MS : HTTP_PROBE_MS } } },
	);
	client.setNotificationHandler('notifications/resources/list_changed', () => listeners.listChanged());
	client.setNotificationHandler('notifications/resources/updated', n => listeners.updated(n.params.uri));
	const { toolsChanged } = listeners;
	if (toolsChanged) {
		client.setNotificationHandler('notifications/tools/list_changed', () => toolsChanged());
	}
	client.onerror = err => listeners.error(err, client);
	try {
		await client.connect(createClientTransport(target, listeners.stderr));
	} catch (err) {
		await client.close().catch(() => undefined);
		throw err;
	}
	return client;
}

/**
 * Ends a client's connection on purpose: an HTTP session is terminated first, so the server
 * frees it now rather than when it expires. Never fails.
 */
export async function endConnection(client: Client): Promise<void> {
	const transport = client.transport;
	if (transport instanceof StreamableHTTPClientTransport) {
		await transport.terminateSession().catch(() => undefined);
	}
	await client.close().catch(() => undefined);
}
