// The servers the sections measure and the clients that read them. A contender is a server
// started the way a client starts it (`node CLI serve --root DIR --stdio`, or the headless host
// over HTTP) with one SDK client connected in one protocol era: 2025 through the SDK v1 client
// (what most 2025 clients are built on), 2026-07-28 through the SDK v2 client pinned to it (it
// never falls back, so a server without the revision fails instead of passing as 2025). The
// same plumbing serves this build, the previous build and the minimal SDK server (its command
// line is ours). Beside them: the floor (plain fs) and @modelcontextprotocol/server-filesystem.
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';
import { repoRoot } from '../bootstrap/repoRoot.mjs';
import { startHeadlessHost, type HeadlessHost } from '../lib/headlessHost.js';
import { privateServerCache, type PrivateServerCache } from '../lib/privateServerCache.js';
import { isAlive, killPidAtExit } from '../lib/processes.js';
import { StderrLines, now, withTimeout } from './measurement.js';
import { walkFiles } from './workspace.js';

export type Transport = 'stdio' | 'http';
/** The protocol revision a contender is read in. */
export type Era = '2025' | '2026-07-28';
export const ERAS: readonly Era[] = ['2025', '2026-07-28'];
export const TRANSPORTS: readonly Transport[] = ['stdio', 'http'];

export const REQUEST_TIMEOUT_MS = 60_000;
export const CLIENT_INFO = { name: 'mcp-workspace-resources-bench', version: '0.1.0' };

/** One resources/list page. */
export interface ResourcePage { resources: readonly { uri: string }[]; nextCursor?: string }
type ReadResult = { contents?: readonly { text?: unknown; blob?: unknown }[] };

/** A subscription to updates (and, asked for, list changes): 2025 subscribes each URI, 2026-07-28 listens. */
export interface Watch { acknowledged: number; close(): Promise<void> }

/** One connected SDK client, whichever era: what the sections ask of it. */
export interface Session {
	listPage(cursor: string | undefined, timeout: number): Promise<ResourcePage>;
	read(uri: string, timeout: number): Promise<ReadResult>;
	/** 2025 only: 2026-07-28 has no ping. */
	ping(): Promise<unknown>;
	onUpdated(handler: (uri: string) => void): void;
	onListChanged(handler: () => void): void;
	watch(uris: readonly string[], listChanged?: boolean): Promise<Watch>;
	capabilities(): { subscribe?: boolean; listChanged?: boolean } | undefined;
	close(): Promise<void>;
}

/** Where a session connects: a server its transport spawns over stdio, or a URL with a token. */
type Target = { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; stderr: StderrLines; onPid(pid: number | undefined): void } | { kind: 'http'; url: string; token: string };

async function connectV1(target: Target, onError: (err: Error) => void): Promise<Session> {
	const client = new V1Client(CLIENT_INFO, { capabilities: {} });
	client.onerror = onError;
	let http: V1Http | undefined;
	if (target.kind === 'http') {
		http = new V1Http(new URL(target.url), { requestInit: { headers: { Authorization: `Bearer ${target.token}` } } });
		await withTimeout(client.connect(http), 30_000, 'connect (SDK v1 client)');
	} else {
		const stdio = new V1Stdio({ command: target.command, args: target.args, env: target.env, stderr: 'pipe', cwd: repoRoot });
		target.stderr.attach(stdio.stderr as Readable | null);
		await withTimeout(client.connect(stdio), 30_000, 'connect (SDK v1 client)');
		target.onPid(stdio.pid ?? undefined);
	}
	return {
		listPage: (cursor, timeout) => client.listResources(cursor ? { cursor } : undefined, { timeout }),
		read: (uri, timeout) => client.readResource({ uri }, { timeout }),
		ping: () => client.ping({ timeout: REQUEST_TIMEOUT_MS }),
		onUpdated: handler => client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => handler(n.params.uri)),
		onListChanged: handler => client.setNotificationHandler(ResourceListChangedNotificationSchema, () => handler()),
		watch: async uris => {
			for (const uri of uris) await client.subscribeResource({ uri });
			return { acknowledged: uris.length, close: async () => { for (const uri of uris) await client.unsubscribeResource({ uri }).catch(() => {}); } };
		},
		capabilities: () => client.getServerCapabilities()?.resources,
		close: async () => {
			await http?.terminateSession().catch(() => {}); // DELETE: the server frees the session now
			await client.close();
		},
	};
}

async function connectV2(target: Target, onError: (err: Error) => void): Promise<Session> {
	const client = new V2Client(CLIENT_INFO, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
	client.onerror = onError;
	if (target.kind === 'http') {
		await withTimeout(client.connect(new V2Http(new URL(target.url), { requestInit: { headers: { Authorization: `Bearer ${target.token}` } } })), 30_000, 'connect (SDK v2 client, 2026-07-28)');
	} else {
		const stdio = new V2Stdio({ command: target.command, args: target.args, env: target.env, stderr: 'pipe', cwd: repoRoot });
		target.stderr.attach(stdio.stderr as Readable | null);
		await withTimeout(client.connect(stdio), 30_000, 'connect (SDK v2 client, 2026-07-28)');
		target.onPid(stdio.pid ?? undefined);
	}
	return {
		// One raw request per page: the v2 client's listResources() without a cursor walks every page.
		listPage: (cursor, timeout) => client.request({ method: 'resources/list', params: cursor ? { cursor } : {} }, { timeout }),
		// Past the client's own cache, which would otherwise answer while ttlMs says fresh.
		read: (uri, timeout) => client.readResource({ uri }, { timeout, cacheMode: 'bypass' }),
		ping: () => Promise.reject(new Error('2026-07-28 has no ping')),
		onUpdated: handler => client.setNotificationHandler('notifications/resources/updated', n => handler(n.params.uri)),
		onListChanged: handler => client.setNotificationHandler('notifications/resources/list_changed', () => handler()),
		watch: async (uris, listChanged) => {
			const subscription = await client.listen({ resourceSubscriptions: [...uris], ...listChanged && { resourcesListChanged: true } });
			return { acknowledged: subscription.honoredFilter?.resourceSubscriptions?.length ?? 0, close: () => subscription.close().catch(() => {}) };
		},
		capabilities: () => client.getServerCapabilities()?.resources,
		close: async () => { await client.close(); },
	};
}

const connect = (era: Era, target: Target, onError: (err: Error) => void) => (era === '2025' ? connectV1 : connectV2)(target, onError);

/** A client of a server already running over HTTP (the editor's, from its lock file). */
export function connectHttp(era: Era, url: string, token: string): Promise<Session> {
	return connect(era, { kind: 'http', url, token }, () => undefined);
}

/** How to start a server: `node [nodeArgs] CLI serve --root ROOT --stdio|--http`, lock files in `home`. */
export interface ServerSpec { cli: string; root: string; home: string; nodeArgs?: readonly string[] }

/** A file's text from a read (a text file sent as a blob is counted), or an error naming what came. */
function textOf(result: ReadResult, uri: string, counts: { textAsBlob: number }): string {
	const c = result.contents?.[0];
	if (typeof c?.text === 'string') return c.text;
	if (typeof c?.blob === 'string') {
		counts.textAsBlob++;
		return Buffer.from(c.blob, 'base64').toString('utf8');
	}
	throw new Error(`read ${uri}: neither text nor blob`);
}

/** A server of ours (or one started the same way) with one client connected in one era. */
export class Contender {
	readonly stderr = new StderrLines();
	pid: number | undefined;
	/** When start() began, and how long until the client was connected (HTTP: until the url line, too). */
	startedAt = 0;
	connectMs = 0;
	readyMs: number | undefined;
	/** Text files that came back as base64 blobs. */
	readonly counts = { textAsBlob: 0 };
	connectionError: Error | null = null;
	private session: Session | undefined;
	private host: HeadlessHost | undefined;
	/** The stdio server's search cache (startHeadlessHost keeps the HTTP server's). */
	private cache: PrivateServerCache | undefined;
	private untrack: () => void = () => undefined;
	private readonly extraSessions = new Set<Session>();

	constructor(readonly name: string, readonly spec: ServerSpec, readonly transport: Transport, readonly era: Era) {}

	async start(): Promise<this> {
		this.startedAt = now();
		const onError = (err: Error) => { this.connectionError ??= err; };
		if (this.transport === 'stdio') {
			this.cache = privateServerCache();
			this.session = await connect(this.era, {
				kind: 'stdio', command: process.execPath, args: [...this.spec.nodeArgs ?? [], this.spec.cli, 'serve', '--root', this.spec.root, '--stdio'],
				env: { ...process.env, ...this.cache.env, MCP_WORKSPACE_RESOURCES_HOME: this.spec.home } as Record<string, string>, stderr: this.stderr,
				onPid: pid => { this.pid = pid; this.untrack = killPidAtExit(pid); },
			}, onError);
		} else {
			this.host = await startHeadlessHost({
				root: this.spec.root, cli: this.spec.cli, nodeArgs: this.spec.nodeArgs, home: this.spec.home, cwd: repoRoot, onStderr: chunk => this.stderr.push(chunk),
			});
			this.pid = this.host.pid;
			this.readyMs = now() - this.startedAt;
			this.session = await this.openSession();
		}
		this.connectMs = now() - this.startedAt;
		return this;
	}

	/** The connected client. */
	get client(): Session {
		if (!this.session) throw new Error(`${this.name}: not started`);
		return this.session;
	}

	/** One more client with a session of its own (HTTP). */
	async openSession(): Promise<Session> {
		if (!this.host) throw new Error(`${this.name}: more sessions need HTTP`);
		const session = await connect(this.era, { kind: 'http', url: this.host.url, token: this.host.token }, err => { this.connectionError ??= err; });
		this.extraSessions.add(session);
		return session;
	}

	async closeSession(session: Session): Promise<void> {
		this.extraSessions.delete(session);
		await session.close().catch(() => {});
	}

	firstPage(timeout = REQUEST_TIMEOUT_MS): Promise<ResourcePage> {
		return this.client.listPage(undefined, timeout);
	}

	/** Every page of resources/list: the files listed (absolute paths), other URIs, the pages and each page's time. */
	async enumerate(timeout = REQUEST_TIMEOUT_MS): Promise<{ files: string[]; otherUris: number; pages: number; pageMs: number[] }> {
		const files: string[] = [];
		let otherUris = 0;
		const pageMs: number[] = [];
		const seen = new Set<string>();
		let cursor: string | undefined;
		do {
			const t = now();
			const page = await this.client.listPage(cursor, timeout);
			pageMs.push(now() - t);
			for (const r of page.resources) {
				if (r.uri.startsWith('file://')) files.push(fileURLToPath(r.uri));
				else otherUris++;
			}
			cursor = page.nextCursor;
			if (cursor !== undefined && seen.has(cursor)) throw new Error(`resources/list returned the cursor ${cursor} twice`);
			if (cursor !== undefined) seen.add(cursor);
		} while (cursor !== undefined);
		return { files, otherUris, pages: pageMs.length, pageMs };
	}

	async read(absPath: string, timeout = REQUEST_TIMEOUT_MS, session = this.client): Promise<string> {
		const uri = pathToFileURL(absPath).href;
		return textOf(await session.read(uri, timeout), uri, this.counts);
	}

	async readBinary(absPath: string): Promise<Buffer> {
		const uri = pathToFileURL(absPath).href;
		const c = (await this.client.read(uri, REQUEST_TIMEOUT_MS)).contents?.[0];
		if (typeof c?.blob === 'string') return Buffer.from(c.blob, 'base64');
		throw new Error(`read ${uri}: no blob${typeof c?.text === 'string' ? ' (a binary came back as text)' : ''}`);
	}

	/** An error with what the server last wrote to stderr, and whether it is still running. */
	describeFailure(err: unknown): string {
		const tail = this.stderr.tail(1500).trim();
		return `${err instanceof Error ? err.message : String(err)}${this.pid && !isAlive(this.pid) ? ' (the server has exited)' : ''}${tail ? `\n--- ${this.name} stderr (tail) ---\n${tail}` : ''}`;
	}

	/**
	 * Closes the clients, then the server: over stdio the SDK ends stdin, waits 2 s, then
	 * SIGTERM; over HTTP SIGTERM, SIGKILL after 5 s. Says whether it exited on its own.
	 */
	async close(): Promise<{ exitedCleanly: boolean }> {
		for (const session of this.extraSessions) await this.closeSession(session);
		const session = this.session;
		this.session = undefined;
		try {
			await session?.close();
		} catch {
			// the server is about to be stopped anyway
		}
		this.untrack();
		if (this.host) return { exitedCleanly: (await this.host.stop(5000)).exitedCleanly };
		this.cache?.remove();
		return { exitedCleanly: this.pid === undefined || !isAlive(this.pid) };
	}
}

/** The floor: what plain fs takes for the same work. */
export const floor = {
	enumerate: (root: string) => walkFiles(root),
	read: (absPath: string) => fsp.readFile(absPath, 'utf8'),
	readBinary: (absPath: string) => fsp.readFile(absPath),
};

type ToolContent = { type: string; text?: string; data?: string; resource?: { blob?: string } };

/** @modelcontextprotocol/server-filesystem over stdio (tools only), read by the SDK v1 client. */
export class ServerFilesystem {
	readonly stderr = new StderrLines();
	pid: number | undefined;
	tools: string[] = [];
	private client: V1Client | undefined;
	private untrack: () => void = () => undefined;

	constructor(readonly root: string) {}

	async start(): Promise<this> {
		const transport = new V1Stdio({
			command: process.execPath, args: [path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), this.root],
			stderr: 'pipe', cwd: repoRoot,
		});
		this.stderr.attach(transport.stderr as Readable | null);
		this.client = new V1Client(CLIENT_INFO, { capabilities: {} });
		await withTimeout(this.client.connect(transport), 30_000, 'server-filesystem connect');
		this.pid = transport.pid ?? undefined;
		this.untrack = killPidAtExit(this.pid);
		this.tools = (await this.client.listTools()).tools.map(t => t.name);
		return this;
	}

	private async call(name: string, args: Record<string, unknown>): Promise<ToolContent[]> {
		if (!this.client) throw new Error('server-filesystem: not started');
		const res = await this.client.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS });
		const content = (res.content ?? []) as ToolContent[];
		if (res.isError) throw new Error(`${name} failed: ${content.find(c => c.text)?.text ?? ''}`);
		return content;
	}

	/** Every file path, from its one-call listing (`directory_tree`). */
	async enumerate(): Promise<string[]> {
		type Node = { name: string; type: string; children?: Node[] };
		const tree = JSON.parse((await this.call('directory_tree', { path: this.root })).find(c => c.type === 'text')?.text ?? '[]') as Node[];
		const out: string[] = [];
		const visit = (nodes: Node[], dir: string) => {
			for (const n of nodes) {
				if (n.type === 'directory') visit(n.children ?? [], path.join(dir, n.name));
				else out.push(path.join(dir, n.name));
			}
		};
		visit(tree, this.root);
		return out;
	}

	async read(absPath: string): Promise<string> {
		const text = (await this.call(this.tools.includes('read_text_file') ? 'read_text_file' : 'read_file', { path: absPath })).find(c => c.type === 'text')?.text;
		if (typeof text !== 'string') throw new Error('no text content');
		return text;
	}

	async readBinary(absPath: string): Promise<Buffer> {
		const content = (await this.call('read_media_file', { path: absPath }))[0];
		const data = content?.data ?? content?.resource?.blob;
		if (typeof data !== 'string') throw new Error('read_media_file: no base64 data');
		return Buffer.from(data, 'base64');
	}

	ping(): Promise<unknown> {
		if (!this.client) throw new Error('server-filesystem: not started');
		return this.client.ping({ timeout: REQUEST_TIMEOUT_MS });
	}

	async close(): Promise<void> {
		await this.client?.close().catch(() => {});
		this.untrack();
	}
}
