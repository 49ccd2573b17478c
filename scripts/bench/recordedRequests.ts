// The requests the SDK clients send, recorded from the clients themselves, for the
// server-alone section (serverAlone.ts): the 2025 era as the SDK v1 client speaks it and
// 2026-07-28 as the SDK v2 client pinned to it does, over stdio (the messages) and over HTTP (the
// messages with the headers they went with). A replay changes only what a client changes from
// request to request: the id, the URI or the cursor, and over HTTP the session and the `Mcp-Name`
// header.
import { pathToFileURL } from 'node:url';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { privateServerCache } from '../lib/privateServerCache.js';
import { CLIENT_INFO, type Era } from './contenders.js';

/** A JSON-RPC message as a client sent it. */
export type SentMessage = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown> };

/** One HTTP request as a client sent it. */
export interface SentRequest { method: string; headers: Record<string, string>; body: string | undefined }

/** What a client sent before its first read (its handshake), that read, and a resources/list it sent after. */
export interface Recording<T> { readonly handshake: readonly T[]; readonly read: T; readonly list: T }

interface SendingTransport { send(message: SentMessage, options?: unknown): Promise<void> }

/** Copies every message `transport` sends into `sent`. */
function recordSends(transport: SendingTransport, sent: SentMessage[]): void {
	const send = transport.send.bind(transport);
	transport.send = (message, options) => {
		sent.push(structuredClone(message));
		return send(message, options);
	};
}

/** The messages before the first resources/read, that read, and the first resources/list after it. */
function split<T>(sent: readonly T[], methodOf: (item: T) => string | undefined): Recording<T> {
	const at = sent.findIndex(item => methodOf(item) === 'resources/read');
	const list = sent.slice(at + 1).find(item => methodOf(item) === 'resources/list');
	if (at < 0 || list === undefined) throw new Error('the client sent no resources/read and resources/list');
	return { handshake: sent.slice(0, at), read: sent[at], list };
}

/**
 * The messages a client of `era` sends over stdio to `serve --stdio` of `cli` to connect and read
 * `absPath` once (the server it starts is closed again).
 */
export async function recordStdio(era: Era, cli: string, root: string, home: string, absPath: string): Promise<Recording<SentMessage>> {
	const sent: SentMessage[] = [];
	const cache = privateServerCache();
	const params = { command: process.execPath, args: [cli, 'serve', '--root', root, '--stdio'], env: { ...process.env, ...cache.env, MCP_WORKSPACE_RESOURCES_HOME: home } as Record<string, string>, stderr: 'ignore' as const };
	const uri = pathToFileURL(absPath).href;
	try {
		if (era === '2025') {
			const transport = new V1StdioTransport(params);
			recordSends(transport as unknown as SendingTransport, sent);
			const client = new V1Client(CLIENT_INFO, { capabilities: {} });
			await client.connect(transport);
			await client.readResource({ uri });
			await client.listResources();
			await client.close();
		} else {
			const transport = new V2StdioTransport(params);
			recordSends(transport as unknown as SendingTransport, sent);
			const client = new V2Client(CLIENT_INFO, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
			await client.connect(transport);
			await client.readResource({ uri }, { cacheMode: 'bypass' });
			// One page, as contenders.ts asks (listResources() would walk every page).
			await client.request({ method: 'resources/list', params: {} });
			await client.close();
		}
	} finally {
		cache.remove();
	}
	return split(sent, m => m.method);
}

/**
 * The HTTP requests a client of `era` sends to `url` to connect and read `absPath` once (its
 * event streams, GET, are left out: a replay reads answers from the POSTs).
 */
export async function recordHttp(era: Era, url: string, token: string, absPath: string): Promise<Recording<SentRequest>> {
	const sent: SentRequest[] = [];
	const recordingFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
		if ((init?.method ?? 'GET') === 'POST') {
			const headers: Record<string, string> = {};
			new Headers(init?.headers).forEach((value, name) => { headers[name] = value; });
			sent.push({ method: 'POST', headers, body: typeof init?.body === 'string' ? init.body : undefined });
		}
		return fetch(input, init);
	};
	const requestInit = { headers: { Authorization: `Bearer ${token}` } };
	const uri = pathToFileURL(absPath).href;
	if (era === '2025') {
		const transport = new V1HttpTransport(new URL(url), { requestInit, fetch: recordingFetch });
		const client = new V1Client(CLIENT_INFO, { capabilities: {} });
		await client.connect(transport);
		await client.readResource({ uri });
		await client.listResources();
		await transport.terminateSession().catch(() => undefined);
		await client.close();
	} else {
		const transport = new V2HttpTransport(new URL(url), { requestInit, fetch: recordingFetch });
		const client = new V2Client(CLIENT_INFO, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
		await client.connect(transport);
		await client.readResource({ uri }, { cacheMode: 'bypass' });
		await client.request({ method: 'resources/list', params: {} });
		await client.close();
	}
	return split(sent, r => r.body === undefined ? undefined : (JSON.parse(r.body) as SentMessage).method);
}

/** The recorded read with another id and URI, as the client would have sent it. */
export function readMessage(recorded: SentMessage, id: number, uri: string): SentMessage {
	return { ...recorded, id, params: { ...recorded.params, uri } };
}

/** The recorded first-page list with another id, and the cursor of the page asked for if not the first. */
export function listMessage(recorded: SentMessage, id: number, cursor: string | undefined): SentMessage {
	return { ...recorded, id, params: cursor === undefined ? recorded.params : { ...recorded.params, cursor } };
}

/** The recorded HTTP list with another id and cursor (and the session the replay holds, if any). */
export function listRequest(recorded: SentRequest, id: number, cursor: string | undefined, sessionId: string | undefined): SentRequest {
	const headers = sessionId === undefined ? recorded.headers : { ...recorded.headers, 'mcp-session-id': sessionId };
	return { method: 'POST', headers, body: JSON.stringify(listMessage(JSON.parse(recorded.body ?? '{}') as SentMessage, id, cursor)) };
}

/** The recorded HTTP read with another id and URI (and the session the replay holds, if any). */
export function readRequest(recorded: SentRequest, id: number, uri: string, sessionId: string | undefined): SentRequest {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(recorded.headers)) {
		// Mcp-Name carries the URI (a file: URI from pathToFileURL is ASCII: sent as it is).
		headers[name] = name === 'mcp-name' ? uri : name === 'mcp-session-id' && sessionId !== undefined ? sessionId : value;
	}
	return { method: 'POST', headers, body: JSON.stringify(readMessage(JSON.parse(recorded.body ?? '{}') as SentMessage, id, uri)) };
}
