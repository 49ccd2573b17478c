// The bench's contenders read through the SDK v2 client (scripts/bench/eras.ts has the table):
//   - modern: the v2 client pinned to 2026-07-28 (`versionNegotiation: { mode: { pin } }`, so a
//     server that does not offer it fails instead of falling back) against this build: stateless
//     HTTP, updates through `client.listen`, no ping in this era;
//   - previous build, v2 client: the same client in its 2025 mode (`mode: 'legacy'`: initialize,
//     sessions, as a v1 build speaks) against the previous build, so the modern rows compare two
//     servers through one client. The v1 client costs about half the v2 client's CPU per read
//     on this machine; compared with the previous build through the v1 client, the modern rows
//     would count the client's difference as the server's.
// Both list one page per raw resources/list request (v2's listResources() without a cursor walks
// every page) and read with `cacheMode: 'bypass'` (the v2 client otherwise serves reads from its
// own cache while ttlMs says fresh, and the bench would measure the cache).
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Readable } from 'node:stream';
import {
	CLIENT_INFO, OursHttp, OursStdio, REQUEST_TIMEOUT_MS, extractBinary, extractText,
	type EraRequests, type OursOptions, type ReadStats, type ResourcePage, type ServerCapabilitiesSeen, type SessionReader,
} from './contenders.js';
import { timeUpdatedNotifications } from './notify.js';
import type { TextEntry } from './workspace.js';
import { killPidAtExit } from '../lib/processes.js';
import { now, round, summarize, withTimeout, type LatencySummary } from './measurement.js';

export const MODERN_VERSION = '2026-07-28';

/** How the v2 client negotiates: pinned to a modern revision, or the 2025 era's initialize. */
export type V2Negotiation = { readonly pin: string } | 'legacy';

const PINNED_MODERN: V2Negotiation = { pin: MODERN_VERSION };

/**
 * The v2 client and its requests, which the v2 contenders hold (composition: the legacy
 * contenders' `client` is the v1 type, so these keep theirs here and delegate to it).
 */
export class V2Requests implements EraRequests {
	client: Client | null = null;
	constructor(
		private readonly owner: { readonly name: string; readonly readStats: ReadStats; connectionError: Error | null },
		private readonly negotiation: V2Negotiation,
	) {}

	newClient(): Client {
		const client = new Client(CLIENT_INFO, { capabilities: {}, versionNegotiation: { mode: this.negotiation } });
		client.onerror = err => {
			this.owner.connectionError ??= err;
		};
		return client;
	}

	/** The connected client (start() first). */
	get connected(): Client {
		if (!this.client) throw new Error(`${this.owner.name}: not started`);
		return this.client;
	}

	/** One raw resources/list request: v2's listResources() without a cursor walks every page. */
	listPage(cursor: string | undefined, timeout = REQUEST_TIMEOUT_MS): Promise<ResourcePage> {
		return this.connected.request({ method: 'resources/list', params: cursor ? { cursor } : {} }, { timeout });
	}

	read(absPath: string, timeout = REQUEST_TIMEOUT_MS): Promise<string> {
		return this.readWith(this.connected, absPath, timeout);
	}

	ping(): Promise<unknown> {
		return this.connected.ping({ timeout: REQUEST_TIMEOUT_MS });
	}

	serverCapabilities(): ServerCapabilitiesSeen | undefined {
		return this.client?.getServerCapabilities();
	}

	serverVersion(): unknown {
		return this.client?.getServerVersion();
	}

	async readWith(client: Client, absPath: string, timeout = REQUEST_TIMEOUT_MS): Promise<string> {
		const uri = pathToFileURL(absPath).href;
		return extractText(await client.readResource({ uri }, { timeout, cacheMode: 'bypass' }), uri, this.owner.readStats);
	}

	async readBinary(absPath: string): Promise<Buffer> {
		const uri = pathToFileURL(absPath).href;
		return extractBinary(await this.connected.readResource({ uri }, { timeout: REQUEST_TIMEOUT_MS, cacheMode: 'bypass' }), uri, this.owner.readStats);
	}

	async close(): Promise<void> {
		await this.client?.close();
	}
}

/** The pinned revision of a negotiation (the contender's `era`), undefined for the 2025 era. */
function eraOf(negotiation: V2Negotiation): string | undefined {
	return negotiation === 'legacy' ? undefined : negotiation.pin;
}

export class OursV2Stdio extends OursStdio {
	override readonly era: string | undefined;
	readonly v2: V2Requests;
	protected override readonly requests: EraRequests;
	constructor(opts: OursOptions, name = 'ours modern (stdio)', negotiation: V2Negotiation = PINNED_MODERN) {
		super(opts, name);
		this.era = eraOf(negotiation);
		this.v2 = new V2Requests(this, negotiation);
		this.requests = this.v2;
	}

	override ping(): Promise<unknown> {
		return this.v2.ping();
	}

	override async start(): Promise<this> {
		this.t0 = now();
		const transport = new StdioClientTransport({
			command: process.execPath,
			args: this.serverArgs(['--stdio']),
			env: { ...process.env, MCP_WORKSPACE_RESOURCES_HOME: this.home } as Record<string, string>,
			stderr: 'pipe',
			cwd: this.repoRoot,
		});
		this.stderr.attach(transport.stderr as Readable | null);
		const client = this.v2.newClient();
		this.v2.client = client;
		await withTimeout(client.connect(transport), 30_000, `${this.name} connect`);
		this.pid = transport.pid ?? undefined;
		this.untrack = killPidAtExit(this.pid);
		this.connectMs = now() - this.t0;
		return this;
	}

	protected override closeClient(): Promise<void> {
		return this.v2.close();
	}
}

export class OursV2Http extends OursHttp {
	override readonly era: string | undefined;
	readonly v2: V2Requests;
	protected override readonly requests: EraRequests;
	/** `fetchImpl`: what the client's transport fetches with, when not the global `fetch`. */
	constructor(opts: OursOptions, name = 'ours modern (http)', negotiation: V2Negotiation = PINNED_MODERN, private readonly fetchImpl?: FetchLike) {
		super(opts, name);
		this.era = eraOf(negotiation);
		this.v2 = new V2Requests(this, negotiation);
		this.requests = this.v2;
	}

	override ping(): Promise<unknown> {
		return this.v2.ping();
	}

	private async connectV2Client(): Promise<Client> {
		const transport = new StreamableHTTPClientTransport(new URL(this.url), {
			requestInit: { headers: { Authorization: `Bearer ${this.token}` } },
			...(this.fetchImpl ? { fetch: this.fetchImpl } : {}),
		});
		const client = this.v2.newClient();
		await withTimeout(client.connect(transport), 30_000, `${this.name} connect`);
		return client;
	}

	protected override async connect(): Promise<void> {
		this.v2.client = await this.connectV2Client();
	}

	override async openSession(): Promise<SessionReader> {
		const client = await this.connectV2Client();
		return {
			read: absPath => this.v2.readWith(client, absPath),
			close: async () => {
				await (client.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => {});
				await client.close().catch(() => {});
			},
		};
	}

	protected override async closeClient(): Promise<void> {
		await (this.v2.client?.transport as StreamableHTTPClientTransport | undefined)?.terminateSession().catch(() => {});
		await this.v2.close();
	}
}

/** This build read by the v2 client pinned to 2026-07-28. */
export function modernContender(kind: 'stdio' | 'http', opts: OursOptions): OursV2Stdio | OursV2Http {
	return kind === 'http' ? new OursV2Http(opts) : new OursV2Stdio(opts);
}

/**
 * This build read over HTTP by the v2 client pinned to 2026-07-28 with the bridge's `fetch`
 * (src/node/loopbackFetch.ts: Node's `http` module, not undici's `fetch`): the same server and
 * protocol as the modern HTTP row, with a client whose HTTP stack costs about half the CPU per
 * read. Between the two rows is what the client's `fetch` costs.
 */
export function modernNodeHttpContender(opts: OursOptions, fetchImpl: FetchLike): OursV2Http {
	return new OursV2Http(opts, 'ours modern (http, node:http client)', PINNED_MODERN, fetchImpl);
}

/** The previous build read by the v2 client in its 2025 mode (what that build speaks). */
export function previousV2Contender(kind: 'stdio' | 'http', opts: OursOptions): OursV2Stdio | OursV2Http {
	return kind === 'http'
		? new OursV2Http(opts, 'previous, v2 client (http)', 'legacy')
		: new OursV2Stdio(opts, 'previous, v2 client (stdio)', 'legacy');
}

/**
 * `notifications/resources/updated` latency through `subscriptions/listen` (the modern era's
 * subscribe): one listen stream naming every target, then each file written in turn.
 */
export interface UpdatedLatencyListen {
	samples: number; received: number; timeouts: number; acknowledged: number; listenMs: number; updatedPerWrite: number; latency: LatencySummary;
}

export async function measureUpdatedLatencyListen({ contender, root, targets, timeoutMs = 3000, gapMs = 60, log }: {
	contender: { v2: V2Requests }; root: string; targets: readonly TextEntry[]; timeoutMs?: number; gapMs?: number; log?: (message: string) => void;
}): Promise<UpdatedLatencyListen> {
	const client = contender.v2.connected;
	const uris = targets.map(e => pathToFileURL(path.join(root, e.rel)).href);
	let listenMs = 0;
	let honored = new Set<string>();
	const { latencies, timeouts, updatedPerWrite } = await timeUpdatedNotifications({
		root, targets, uris, timeoutMs, gapMs,
		onUpdated: handler => client.setNotificationHandler('notifications/resources/updated', n => handler(n.params.uri)),
		subscribe: async () => {
			const tListen = now();
			const subscription = await client.listen({ resourceSubscriptions: uris });
			listenMs = now() - tListen;
			honored = new Set(subscription.honoredFilter?.resourceSubscriptions ?? []);
			return () => subscription.close().catch(() => {});
		},
	});
	log?.(`  updated latency (listen): ${latencies.length}/${targets.length} arrived, ${timeouts} timed out, ${honored.size}/${uris.length} URIs acknowledged`);
	return {
		samples: targets.length,
		received: latencies.length,
		timeouts,
		acknowledged: honored.size,
		listenMs: round(listenMs),
		updatedPerWrite,
		latency: summarize(latencies),
	};
}
