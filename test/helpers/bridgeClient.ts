import { Readable } from 'node:stream';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { cliStdio } from './headlessHost';
import { HeardNotifications } from './heardNotifications';

/** A client on `dist/cli.js bridge --workspace …` over stdio, with what it heard and the bridge's stderr. */
export interface BridgeClient<C> {
	readonly client: C;
	readonly updates: string[];
	listChanged(): number;
	/** Resolves when `predicate` holds, re-checked on each notification; a timeout shows the bridge's stderr. */
	until(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
	stderr(): string;
	close(): Promise<void>;
}

function bridgeStdio(workspace: string, home: string) {
	return cliStdio(['bridge', '--workspace', workspace, '--log-level', 'debug'], home);
}

/** Collects what the child writes to stderr, and the notifications its client hears (timeouts quote the stderr). */
function listen(transport: { readonly stderr: unknown }): { heard: HeardNotifications; stderr: () => string } {
	let stderr = '';
	(transport.stderr as Readable).on('data', d => (stderr += d));
	return { heard: new HeardNotifications({ detail: () => `bridge stderr:\n${stderr}`, timeoutMs: 15_000 }), stderr: () => stderr };
}

function bridgeClient<C extends { close(): Promise<void> }>(client: C, heard: HeardNotifications, stderr: () => string): BridgeClient<C> {
	return {
		client, updates: heard.updates, stderr,
		listChanged: () => heard.listChanges,
		until: (predicate, what, timeoutMs) => heard.until(predicate, what, timeoutMs),
		close: () => client.close(),
	};
}

/** SDK v1's client (the 2025 era) on the bridge. */
export async function connectBridgeV1(workspace: string, home: string): Promise<BridgeClient<V1Client>> {
	const transport = new V1StdioClientTransport(bridgeStdio(workspace, home));
	const { heard, stderr } = listen(transport);
	const client = new V1Client({ name: 'bridge-test', version: '1' });
	client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => heard.updated(n.params.uri));
	client.setNotificationHandler(ResourceListChangedNotificationSchema, () => heard.listChanged());
	await client.connect(transport);
	return bridgeClient(client, heard, stderr);
}

/** SDK v2's client pinned to 2026-07-28 on the bridge: no fallback to 2025. */
export async function connectBridgeModern(workspace: string, home: string): Promise<BridgeClient<V2Client>> {
	const transport = new V2StdioClientTransport(bridgeStdio(workspace, home));
	const { heard, stderr } = listen(transport);
	const client = new V2Client({ name: 'bridge-era-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
	client.setNotificationHandler('notifications/resources/updated', n => heard.updated(n.params.uri));
	client.setNotificationHandler('notifications/resources/list_changed', () => heard.listChanged());
	await client.connect(transport);
	return bridgeClient(client, heard, stderr);
}
