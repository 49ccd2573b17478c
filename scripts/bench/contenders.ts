// Contenders for scripts/bench/bench.ts: the fs floor, @modelcontextprotocol/server-filesystem over stdio,
// and our `dist/cli.js serve` over stdio and Streamable HTTP. Each MCP contender exposes
// enumerate() -> absolute file paths, read(absPath) -> text, ping(), pid, close().
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Readable } from 'node:stream';
import { walkFiles } from './workspace.js';
import { isAlive, killPidAtExit } from '../lib/processes.js';
import { startHeadlessHost, type HeadlessHost, type HostExit } from '../lib/headlessHost.js';
import { TailBuffer, now, withTimeout } from './measurement.js';

export const REQUEST_TIMEOUT_MS = 60_000;
export const CLIENT_INFO = { name: 'mcp-workspace-resources-bench', version: '0.1.0' };

/** What runReads measured: per-item latency (ms) and result, the wall time, and the failures. */
export interface ReadRun<R> { latencies: number[]; results: (R | undefined)[]; wallMs: number; errors: number; firstError: unknown; readsPerSec: number }

/** Run `fn(item, workerIndex)` over items with `concurrency` in flight; per-item latency in ms. */
export async function runReads<T, R>(items: readonly T[], concurrency: number, fn: (item: T, worker: number) => Promise<R>): Promise<ReadRun<R>> {
	const latencies = new Array<number>(items.length);
	const results = new Array<R | undefined>(items.length);
	let next = 0;
	let firstError: unknown = null;
	let errors = 0;
	const t0 = now();
	const workers = Array.from({ length: Math.min(concurrency, items.length) }, async (_, w) => {
		while (next < items.length) {
			const i = next++;
			const s = now();
			try {
				results[i] = await fn(items[i], w);
			} catch (err) {
				errors++;
				firstError ??= err;
				results[i] = undefined;
			}
			latencies[i] = now() - s;
		}
	});
	await Promise.all(workers);
	const wallMs = now() - t0;
	return { latencies, results, wallMs, errors, firstError, readsPerSec: items.length / (wallMs / 1000) };
}

// ---------------------------------------------------------------------------------------------
// Floor

export const floor = {
	name: 'floor (fs)',
	async enumerate(root: string): Promise<string[]> {
		return walkFiles(root);
	},
	read(absPath: string): Promise<string> {
		return fsp.readFile(absPath, 'utf8');
	},
	readBinary(absPath: string): Promise<Buffer> {
		return fsp.readFile(absPath);
	},
};

// ---------------------------------------------------------------------------------------------
// Shared MCP client plumbing

class McpContender {
	client: Client | null = null;
	pid: number | undefined = undefined;
	/** The server's stderr (a subclass may keep more of it: see scale.ts). */
	stderr: TailBuffer = new TailBuffer();
	closed = false;
	connectionError: Error | null = null;
	connectMs = 0;
	/** Removes the kill-at-exit of the server process (see processes.killPidAtExit). */
	protected untrack?: () => void;
	constructor(readonly name: string) {}

	/** The connected client (start() first). */
	get connectedClient(): Client {
		if (!this.client) throw new Error(`${this.name}: not started`);
		return this.client;
	}

	newClient(): Client {
		const client = new Client(CLIENT_INFO, { capabilities: {} });
		client.onerror = err => {
			this.connectionError ??= err;
		};
		return client;
	}

	ping(): Promise<unknown> {
		return this.connectedClient.ping({ timeout: REQUEST_TIMEOUT_MS });
	}

	describeFailure(err: unknown): string {
		const tail = this.stderr.tail(1500).trim();
		const alive = this.pid ? isAlive(this.pid) : null;
		return `${err instanceof Error ? err.message : String(err)}${alive === false ? ' (server process has exited)' : ''}${tail ? `\n--- ${this.name} stderr (tail) ---\n${tail}` : ''}`;
	}
}

// ---------------------------------------------------------------------------------------------
// @modelcontextprotocol/server-filesystem (stdio, tools only)

export class PeerFilesystem extends McpContender {
	readonly repoRoot: string;
	readonly root: string;
	readTool = 'read_file';
	tools: string[] = [];
	constructor({ repoRoot, root }: { repoRoot: string; root: string }) {
		super('server-filesystem (stdio)');
		this.repoRoot = repoRoot;
		this.root = root;
	}

	async start() {
		const entry = path.join(this.repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
		const transport = new StdioClientTransport({
			command: process.execPath,
			args: [entry, this.root],
			stderr: 'pipe',
			cwd: this.repoRoot,
		});
		this.stderr.attach(transport.stderr as Readable | null);
		const client = this.newClient();
		this.client = client;
		const t0 = now();
		await withTimeout(client.connect(transport), 30_000, `${this.name} connect`);
		this.pid = transport.pid ?? undefined;
		this.untrack = killPidAtExit(this.pid);
		this.connectMs = now() - t0;
		const { tools } = await client.listTools();
		this.tools = tools.map(t => t.name);
		this.readTool = this.tools.includes('read_text_file') ? 'read_text_file' : 'read_file';
		return this;
	}

	async callText(name: string, args: Record<string, unknown>): Promise<string> {
		const res = await this.connectedClient.callTool({ name, arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS });
		const content = (res.content ?? []) as { type: string; text?: string }[];
		const text = content.find(c => c.type === 'text')?.text;
		if (res.isError) throw new Error(`${name} failed: ${text ?? JSON.stringify(res.content)}`);
		if (typeof text !== 'string') throw new Error(`${name}: no text content`);
		return text;
	}

	/** Listing strategies that yield every file path; the bench times each and keeps the fastest. */
	listingStrategies(): Record<string, () => Promise<string[]>> {
		const root = this.root;
		const strategies: Record<string, () => Promise<string[]>> = {};
		if (this.tools.includes('directory_tree')) {
			strategies.directory_tree = async () => {
				type TreeNode = { name: string; type: string; children?: TreeNode[] };
				const tree = JSON.parse(await this.callText('directory_tree', { path: root })) as TreeNode[];
				const out: string[] = [];
				const visit = (nodes: TreeNode[], dir: string) => {
					for (const n of nodes) {
						const p = path.join(dir, n.name);
						if (n.type === 'directory') visit(n.children ?? [], p);
						else out.push(p);
					}
				};
				visit(tree, root);
				return out;
			};
		}
		if (this.tools.includes('search_files')) {
			// Returns files and directories alike; a client cannot tell them apart without more calls,
			// but every file path is in there.
			strategies['search_files **/*'] = async () => {
				const text = await this.callText('search_files', { path: root, pattern: '**/*' });
				return text === 'No matches found' ? [] : text.split('\n');
			};
		}
		if (this.tools.includes('list_directory')) {
			// Client-driven walk: one list_directory call per directory, 8 in flight.
			strategies['list_directory walk'] = async () => {
				const out: string[] = [];
				const queue = [root];
				let active = 0;
				await new Promise<void>((resolve, reject) => {
					const pump = () => {
						if (queue.length === 0 && active === 0) return resolve();
						while (active < 8 && queue.length > 0) {
							const dir = queue.shift() as string;
							active++;
							this.callText('list_directory', { path: dir }).then(text => {
								for (const line of text.split('\n')) {
									const m = line.match(/^\[(FILE|DIR)\] (.*)$/);
									if (!m) continue;
									const p = path.join(dir, m[2]);
									if (m[1] === 'DIR') queue.push(p);
									else out.push(p);
								}
								active--;
								pump();
							}, reject);
						}
					};
					pump();
				});
				return out;
			};
		}
		return strategies;
	}

	read(absPath: string): Promise<string> {
		return this.callText(this.readTool, { path: absPath });
	}

	async readBinary(absPath: string): Promise<Buffer> {
		const res = await this.connectedClient.callTool({ name: 'read_media_file', arguments: { path: absPath } }, undefined, { timeout: REQUEST_TIMEOUT_MS });
		if (res.isError) throw new Error(`read_media_file failed: ${JSON.stringify(res.content).slice(0, 300)}`);
		const c = (res.content as { data?: string; resource?: { blob?: string } }[] | undefined)?.[0];
		const b64 = c?.data ?? c?.resource?.blob;
		if (typeof b64 !== 'string') throw new Error('read_media_file: no base64 data');
		return Buffer.from(b64, 'base64');
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		try {
			await this.client?.close();
		} finally {
			this.untrack?.();
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Our server: node dist/cli.js serve

/** contents[0] as text; counts text files that came back as base64 blobs. */
/** Text files that came back as blobs, and binaries as text. */
export interface ReadStats { textAsBlob: number; binaryAsText: number }

type ReadResult = { contents?: { text?: unknown; blob?: unknown }[] } | undefined;

export function extractText(res: ReadResult, uri: string, stats: ReadStats): string {
	const c = res?.contents?.[0];
	if (!c) throw new Error(`read ${uri}: empty contents`);
	if (typeof c.text === 'string') return c.text;
	if (typeof c.blob === 'string') {
		stats.textAsBlob++;
		return Buffer.from(c.blob, 'base64').toString('utf8');
	}
	throw new Error(`read ${uri}: neither text nor blob`);
}

export function extractBinary(res: ReadResult, uri: string, stats: ReadStats): Buffer {
	const c = res?.contents?.[0];
	if (!c) throw new Error(`read ${uri}: empty contents`);
	if (typeof c.blob === 'string') return Buffer.from(c.blob, 'base64');
	if (typeof c.text === 'string') {
		stats.binaryAsText++;
		return Buffer.from(c.text, 'utf8');
	}
	throw new Error(`read ${uri}: neither text nor blob`);
}

/** Where our server runs: the repository, the folder it serves, its lock-file home, the CLI (a previous build too). */
export interface OursOptions { repoRoot: string; root: string; home: string; cli?: string }

/** One resources/list page, as either SDK's client returns it. */
export interface ResourcePage { resources: readonly { uri: string }[]; nextCursor?: string }

/** What the bench records of the server's initialize answer (either SDK's types fit). */
export interface ServerCapabilitiesSeen { resources?: { subscribe?: boolean; listChanged?: boolean } }

/** An extra session of its own on the HTTP server, for the "8 sessions" reads. */
export interface SessionReader { read(absPath: string): Promise<string>; close(): Promise<void> }

/**
 * The requests the bench times, as one protocol era's client makes them. OursBase uses the 2025
 * (SDK v1) client's; the 2026-07-28 contenders in eras.ts put their SDK v2 client's in its place.
 */
export interface EraRequests {
	listPage(cursor: string | undefined, timeout: number): Promise<ResourcePage>;
	read(absPath: string, timeout: number): Promise<string>;
	readBinary(absPath: string): Promise<Buffer>;
	serverCapabilities(): ServerCapabilitiesSeen | undefined;
	serverVersion(): unknown;
}

/** The 2025 era's requests, through the contender's SDK v1 client. */
class LegacyRequests implements EraRequests {
	constructor(private readonly owner: McpContender & { readonly readStats: ReadStats }) {}

	listPage(cursor: string | undefined, timeout: number): Promise<ResourcePage> {
		return this.owner.connectedClient.listResources(cursor ? { cursor } : undefined, { timeout });
	}

	async read(absPath: string, timeout: number): Promise<string> {
		const uri = pathToFileURL(absPath).href;
		return extractText(await this.owner.connectedClient.readResource({ uri }, { timeout }), uri, this.owner.readStats);
	}

	async readBinary(absPath: string): Promise<Buffer> {
		const uri = pathToFileURL(absPath).href;
		return extractBinary(await this.owner.connectedClient.readResource({ uri }, { timeout: REQUEST_TIMEOUT_MS }), uri, this.owner.readStats);
	}

	serverCapabilities(): ServerCapabilitiesSeen | undefined {
		return this.owner.client?.getServerCapabilities();
	}

	serverVersion(): unknown {
		return this.owner.client?.getServerVersion();
	}
}

export class OursBase extends McpContender {
	readonly repoRoot: string;
	readonly root: string;
	readonly home: string;
	readonly cli: string;
	readonly readStats: ReadStats;
	/** The pinned protocol revision, or undefined for the 2025 era's negotiation (which has ping). */
	readonly era: string | undefined = undefined;
	t0 = 0;
	/** The era's timed requests (the modern contenders replace this). */
	protected readonly requests: EraRequests = new LegacyRequests(this);
	constructor(name: string, { repoRoot, root, home, cli }: OursOptions) {
		super(name);
		this.repoRoot = repoRoot;
		this.root = root;
		this.home = home;
		this.cli = cli ?? path.join(repoRoot, 'dist/cli.js');
		this.readStats = { textAsBlob: 0, binaryAsText: 0 };
	}

	/** All pages of resources/list. Returns { files, otherUris, pages, pageMs }. */
	async enumerate(timeout = REQUEST_TIMEOUT_MS): Promise<{ files: string[]; otherUris: string[]; pages: number; pageMs: number[] }> {
		const files: string[] = [];
		const otherUris: string[] = [];
		let cursor: string | undefined;
		let pages = 0;
		const seen = new Set<string>();
		const pageMs: number[] = [];
		do {
			const t = now();
			const res = await this.listPage(cursor, timeout);
			pageMs.push(now() - t);
			pages++;
			for (const r of res.resources) {
				if (r.uri.startsWith('file://')) files.push(fileURLToPath(r.uri));
				else otherUris.push(r.uri);
			}
			cursor = res.nextCursor;
			if (cursor !== undefined) {
				if (seen.has(cursor)) throw new Error(`resources/list returned the same nextCursor twice (${cursor}) after ${pages} pages`);
				seen.add(cursor);
			}
			if (pages > 1_000_000) throw new Error('resources/list: runaway pagination');
		} while (cursor !== undefined);
		return { files, otherUris, pages, pageMs };
	}

	read(absPath: string, timeout = REQUEST_TIMEOUT_MS): Promise<string> {
		return this.requests.read(absPath, timeout);
	}

	readBinary(absPath: string): Promise<Buffer> {
		return this.requests.readBinary(absPath);
	}

	/** Node options before the CLI (the profile and scale benches add theirs). */
	nodeArgs(): string[] {
		return [];
	}

	serverArgs(extra: readonly string[]): string[] {
		return [...this.nodeArgs(), this.cli, 'serve', '--root', this.root, ...extra];
	}

	/** One resources/list page (the first when `cursor` is undefined). */
	listPage(cursor: string | undefined, timeout = REQUEST_TIMEOUT_MS): Promise<ResourcePage> {
		return this.requests.listPage(cursor, timeout);
	}

	serverCapabilities(): ServerCapabilitiesSeen | undefined {
		return this.requests.serverCapabilities();
	}

	serverVersion(): unknown {
		return this.requests.serverVersion();
	}

	/** Closes the client (for stdio this also ends the server). */
	protected async closeClient(): Promise<void> {
		await this.client?.close();
	}

	/** Time until the first resources/list page arrives (server may still be indexing). */
	firstPage() {
		return this.listPage(undefined);
	}
}

export class OursStdio extends OursBase {
	constructor(opts: OursOptions, name = 'ours (stdio)') {
		super(name, opts);
	}

	async start(): Promise<this> {
		this.t0 = now();
		const transport = new StdioClientTransport({
			command: process.execPath,
			args: this.serverArgs(['--stdio']),
			env: { MCP_WORKSPACE_RESOURCES_HOME: this.home },
			stderr: 'pipe',
			cwd: this.repoRoot,
		});
		this.stderr.attach(transport.stderr as Readable | null);
		const client = this.newClient();
		this.client = client;
		await withTimeout(client.connect(transport), 30_000, `${this.name} connect`);
		this.pid = transport.pid ?? undefined;
		this.untrack = killPidAtExit(this.pid);
		this.connectMs = now() - this.t0;
		return this;
	}

	async close(): Promise<{ closeMs?: number; exitedCleanly: boolean }> {
		if (this.closed) return { exitedCleanly: true };
		this.closed = true;
		const pid = this.pid;
		const t0 = now();
		try {
			await this.closeClient();
		} finally {
			this.untrack?.();
		}
		// The SDK ends stdin, waits 2 s, then SIGTERM, then SIGKILL.
		return { closeMs: now() - t0, exitedCleanly: pid === undefined || !isAlive(pid) };
	}
}

export class OursHttp extends OursBase {
	host: HeadlessHost | null = null;
	url = '';
	token = '';
	extraSessions: SessionReader[] = [];
	readyMs = 0;
	constructor(opts: OursOptions, name = 'ours (http)') {
		super(name, opts);
	}

	/** Starts the host the one way every script does (lib/headlessHost), then connects. */
	async start(): Promise<this> {
		this.t0 = now();
		const host = await startHeadlessHost({
			root: this.root, cli: this.cli, nodeArgs: this.nodeArgs(), home: this.home, cwd: this.repoRoot,
			onStderr: chunk => this.stderr.push(chunk),
		});
		this.host = host;
		this.pid = host.pid;
		this.url = host.url;
		this.token = host.token;
		this.readyMs = now() - this.t0;
		await this.connect();
		this.connectMs = now() - this.t0;
		return this;
	}

	/** Connects the main client (the modern era connects its own). */
	protected async connect(): Promise<void> {
		this.client = await this.connectClient();
	}

	async connectClient(): Promise<Client> {
		const transport = new StreamableHTTPClientTransport(new URL(this.url), {
			requestInit: { headers: { Authorization: `Bearer ${this.token}` } },
		});
		const client = this.newClient();
		await withTimeout(client.connect(transport), 30_000, `${this.name} connect`);
		return client;
	}

	/** One more session with a client of its own. */
	async openSession(): Promise<SessionReader> {
		const client = await this.connectClient();
		return {
			read: absPath => this.readWith(client, absPath),
			close: async () => {
				await (client.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => {}); // DELETE /mcp, frees the session
				await client.close().catch(() => {});
			},
		};
	}

	/** Extra sessions for the "8 sessions" measurement. */
	async openSessions(n: number): Promise<SessionReader[]> {
		const sessions: SessionReader[] = [];
		for (let i = 0; i < n; i++) sessions.push(await this.openSession());
		this.extraSessions.push(...sessions);
		return sessions;
	}

	async closeSessions(sessions: readonly SessionReader[]): Promise<void> {
		for (const session of sessions) {
			await session.close();
			this.extraSessions = this.extraSessions.filter(x => x !== session);
		}
	}

	async readWith(client: Client, absPath: string): Promise<string> {
		const uri = pathToFileURL(absPath).href;
		const res = await client.readResource({ uri }, { timeout: REQUEST_TIMEOUT_MS });
		return extractText(res, uri, this.readStats);
	}

	protected override async closeClient(): Promise<void> {
		// terminateSession sends DELETE for the session; ignore if unsupported
		await (this.client?.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => {});
		await this.client?.close();
	}

	async close(): Promise<{ closeMs?: number; exitedCleanly: boolean; exit?: HostExit | null }> {
		if (this.closed) return { exitedCleanly: true };
		this.closed = true;
		for (const session of this.extraSessions) await session.close();
		try {
			await this.closeClient();
		} catch {
			// the server is about to be stopped anyway
		}
		const t0 = now();
		if (!this.host) return { closeMs: 0, exitedCleanly: false, exit: null };
		// SIGTERM, SIGKILL after 5 s; an already exited host counts as not clean.
		const { exitedCleanly, exit } = await this.host.stop(5000);
		return { closeMs: now() - t0, exitedCleanly, exit };
	}
}
