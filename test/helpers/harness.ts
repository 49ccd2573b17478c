import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
	ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Logger } from '../../src/common/logger';
import { ChangeTrackerOptions } from '../../src/core/changeTracker';
import { FilesProvider } from '../../src/core/files/filesProvider';
import { OffThreadWalker } from '../../src/core/files/walkBatch';
import { FileSettings, OpenDocuments, noOpenDocuments } from '../../src/core/ports';
import { ProviderRegistry } from '../../src/core/registry';
import { ResourceProvider } from '../../src/core/resource';
import { ServerRunner } from '../../src/mcp/serverRunner';
import { McpSession } from '../../src/mcp/server/mcpSession';
import { ToolSwitch } from '../../src/mcp/tools/toolSwitch';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { StaticFolders } from '../../src/node/staticSources';
import { FakeSettings, defaultFileSettings } from '../fakes/fakeSettings';
import { FakeWatcher } from '../fakes/fakeWatcher';
import { HeardNotifications } from './heardNotifications';

/** A logger that records what it is told, so tests can assert that client mistakes log no errors. */
export class RecordingLogger implements Logger {
	readonly errors: string[] = [];
	readonly warnings: string[] = [];
	readonly infos: string[] = [];
	debug(): void {}
	info(message: string): void {
		this.infos.push(message);
	}
	warn(message: string): void {
		this.warnings.push(message);
	}
	error(message: string, err?: unknown): void {
		this.errors.push(`${message} ${String(err ?? '')}`);
	}
}

export const fastTracker: ChangeTrackerOptions = { debounceMs: 5, maxDelayMs: 20, listChangedIntervalMs: 0 };

export interface TestServer {
	readonly registry: ProviderRegistry;
	readonly files: FilesProvider;
	readonly watcher: FakeWatcher;
	readonly settings: FakeSettings;
	readonly log: RecordingLogger;
	dispose(): void;
}

export function createTestServer(roots: string[], options: {
	settings?: Partial<FileSettings>;
	documents?: OpenDocuments;
	tracker?: ChangeTrackerOptions;
	walker?: OffThreadWalker;
} = {}): TestServer {
	const watcher = new FakeWatcher();
	const settings = new FakeSettings({ ...defaultFileSettings, ...options.settings });
	const log = new RecordingLogger();
	const files = new FilesProvider({
		folders: new StaticFolders(roots),
		reader: new NodeFileSystem(),
		watcher,
		documents: options.documents ?? noOpenDocuments,
		settings,
		log,
		walker: options.walker,
	});
	const registry = new ProviderRegistry([files], options.tracker ?? fastTracker);
	files.start();
	return { registry, files, watcher, settings, log, dispose: () => registry.dispose() };
}

/** The URIs the files provider lists now, sorted. */
export function listedFileUris(files: FilesProvider): string[] {
	const list = files.list();
	return Array.from({ length: list.length }, (_, i) => list.at(i)!.uri).sort();
}

export interface ConnectedClient {
	readonly client: Client;
	readonly updates: string[];
	listChangedCount(): number;
	/** Resolves when an `updated` notification for `uri` has arrived (now or later). */
	waitForUpdate(uri: string, timeoutMs?: number): Promise<void>;
	waitForListChanged(timeoutMs?: number): Promise<void>;
	close(): Promise<void>;
}

function track(client: Client): Omit<ConnectedClient, 'close'> {
	const heard = new HeardNotifications();
	client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => heard.updated(n.params.uri));
	client.setNotificationHandler(ResourceListChangedNotificationSchema, () => heard.listChanged());
	return {
		client,
		updates: heard.updates,
		listChangedCount: () => heard.listChanges,
		waitForUpdate: (uri, timeoutMs) => heard.until(() => heard.updates.includes(uri), `updated ${uri}`, timeoutMs),
		waitForListChanged: timeoutMs => {
			const seen = heard.listChanges;
			return heard.until(() => heard.listChanges > seen, 'list_changed', timeoutMs);
		},
	};
}

/** A real SDK Client connected to a fresh session over an in-memory transport pair (tools on unless `tools` says). */
export async function connectInMemory(registry: ProviderRegistry, log: Logger = new RecordingLogger(), pageSize?: number, tools?: ToolSwitch): Promise<ConnectedClient> {
	const session = new McpSession({ registry, log, pageSize, tools });
	const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
	await session.connect(serverTransport);
	const client = new Client({ name: 'test', version: '1.0.0' });
	const tracked = track(client);
	await client.connect(clientTransport);
	return {
		...tracked,
		close: async () => {
			await client.close();
			session.dispose();
		},
	};
}

/** Serves `providers` in pages of 10 to an in-memory SDK client for the length of `body`. */
export async function withPagedClient(providers: ResourceProvider[], body: (client: Client) => Promise<void>): Promise<void> {
	const registry = new ProviderRegistry(providers, fastTracker);
	const conn = await connectInMemory(registry, undefined, 10);
	try {
		await body(conn.client);
	} finally {
		await conn.close();
		registry.dispose();
	}
}

/** A real SDK Client over Streamable HTTP with the bearer token. */
export async function connectHttp(url: string, token: string): Promise<ConnectedClient> {
	const client = new Client({ name: 'test-http', version: '1.0.0' });
	const tracked = track(client);
	const transport = new StreamableHTTPClientTransport(new URL(url), {
		requestInit: { headers: { Authorization: `Bearer ${token}` } },
	});
	await client.connect(transport);
	return {
		...tracked,
		close: async () => {
			await transport.terminateSession().catch(() => undefined);
			await client.close();
		},
	};
}

/** The server a VS Code window runs over `server`: on a free port, its lock file in `home` (not the user's). */
export function windowRunner(server: TestServer, workspaceFolders: () => readonly string[], home: string): ServerRunner {
	return new ServerRunner({ registry: server.registry, log: server.log, port: () => 0, workspaceFolders, hostKind: 'vscode', home });
}

/** Every resource, following nextCursor to the end. */
export async function listAll(client: Client): Promise<{ uri: string; name: string }[]> {
	const all: { uri: string; name: string }[] = [];
	let cursor: string | undefined;
	do {
		const page = await client.listResources(cursor ? { cursor } : {});
		all.push(...page.resources);
		cursor = page.nextCursor;
	} while (cursor);
	return all;
}

/** The JSON-RPC error code of a rejected call. */
export async function errorOf(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
	try {
		await promise;
	} catch (err) {
		const e = err as { code: number; message: string; data?: unknown };
		return { code: e.code, message: e.message, data: e.data };
	}
	throw new Error('expected the call to fail');
}

/**
 * Resolves once `conn` hears list_changed, calling `poke` (which should change the resource
 * list) until it does: a notification arriving proves the client's GET stream is open.
 */
export async function untilListening(conn: ConnectedClient, poke: () => void): Promise<void> {
	const heard = conn.waitForListChanged(10_000);
	const timer = setInterval(poke, 50);
	poke();
	try {
		await heard;
	} finally {
		clearInterval(timer);
	}
}

/**
 * An initialize POST whose session is then abandoned: no stream, no further request, never
 * closed (a tool that opens sessions and forgets them).
 */
export async function initializeOnly(url: string, token: string): Promise<{ status: number; retryAfter: string | null; body: string }> {
	const res = await fetch(url, {
		method: 'POST',
		headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
		body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'abandoned', version: '1' } } }),
	});
	return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
}
