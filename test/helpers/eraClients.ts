import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Emitter, Event } from '../../src/common/event';
import { SessionOptions } from '../../src/mcp/server/workspaceServer';
import { cliStdio } from './headlessHost';
import { pipedStdio } from './pipedStdio';

/** One SDK v2 client, pinned to an era, on one transport: what the invariants are checked through. */
export interface EraClient {
	/** `http modern`, `stdio legacy`, ...: names the client in assertion messages. */
	readonly label: string;
	readonly era: 'modern' | 'legacy';
	readonly client: Client;
	/** URIs `notifications/resources/updated` named, in order. */
	readonly updates: string[];
	/** Fires on each `updated` notification. */
	readonly onDidUpdate: Event<string>;
	close(): Promise<void>;
}

const MODERN = '2026-07-28';

async function connect(label: string, era: 'modern' | 'legacy', transport: Transport): Promise<EraClient> {
	// Modern: pinned, so it never falls back; legacy: the SDK's default `initialize` handshake.
	const client = new Client({ name: `invariants-${label.replace(' ', '-')}`, version: '1' },
		era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : undefined);
	const updates: string[] = [];
	const updated = new Emitter<string>();
	client.setNotificationHandler('notifications/resources/updated', n => {
		updates.push(n.params.uri);
		updated.fire(n.params.uri);
	});
	await client.connect(transport);
	if (client.getProtocolEra() !== era) {
		throw new Error(`${label}: connected in the ${client.getProtocolEra()} era`);
	}
	return { label, era, client, updates, onDidUpdate: updated.event, close: () => client.close().finally(() => updated.dispose()) };
}

/** Both eras over Streamable HTTP with the bearer token. */
export async function httpEraClients(url: string, token: string): Promise<EraClient[]> {
	const transport = () => new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
	return [await connect('http modern', 'modern', transport()), await connect('http legacy', 'legacy', transport())];
}

/** Both eras on `serve --stdio --root <root>` (and `options`), one headless process each, lock files in `home`. */
export async function stdioEraClients(root: string, home: string, options: readonly string[] = []): Promise<EraClient[]> {
	const transport = () => new StdioClientTransport(cliStdio(['serve', '--root', root, '--stdio', '--log-level', 'warn', ...options], home));
	return [await connect('stdio modern', 'modern', transport()), await connect('stdio legacy', 'legacy', transport())];
}

/** Both eras over stdio to the stdio host in this process (`pipedStdio`, one host per client, closed with it). */
export async function pipedEraClients(options: SessionOptions): Promise<EraClient[]> {
	const clients: EraClient[] = [];
	for (const era of ['modern', 'legacy'] as const) {
		const { host, transport } = pipedStdio(options);
		const c = await connect(`piped-stdio ${era}`, era, transport);
		clients.push({ ...c, close: () => c.close().finally(() => host.close()) });
	}
	return clients;
}

/** Both eras through the bridge (`bridge --workspace <folder>`), which finds the host by its lock file in `home`. */
export async function bridgeEraClients(workspace: string, home: string): Promise<EraClient[]> {
	const transport = () => new StdioClientTransport(cliStdio(['bridge', '--workspace', workspace, '--log-level', 'warn'], home));
	return [await connect('bridge modern', 'modern', transport()), await connect('bridge legacy', 'legacy', transport())];
}

/** What a request came to, in a form two clients' answers can be compared by. */
export type Outcome =
	| { readonly ok: true; readonly value: unknown }
	| { readonly ok: false; readonly code: number; readonly message: string; readonly data?: unknown };

export async function outcomeOf(request: Promise<unknown>, pick: (result: never) => unknown = r => r): Promise<Outcome> {
	try {
		return { ok: true, value: pick(await request as never) };
	} catch (err) {
		const e = err as { code?: unknown; message?: unknown; data?: unknown };
		if (typeof e.code !== 'number') {
			throw err; // not an answer from the server (a transport failure): the test must see it
		}
		return { ok: false, code: e.code, message: String(e.message), ...(e.data !== undefined && { data: e.data }) };
	}
}

/** A read's contents, as both eras give them (era fields such as `ttlMs` are on the result, not here). */
export function readOutcome(c: EraClient, uri: string): Promise<Outcome> {
	return outcomeOf(c.client.readResource({ uri }), (r: { contents: unknown }) => r.contents);
}

/** Whether the server takes `uri` for live updates: `resources/subscribe` (2025) or the listen acknowledgement (2026). */
export async function watchAccepted(c: EraClient, uri: string): Promise<boolean> {
	if (c.era === 'legacy') {
		const subscribed = await outcomeOf(c.client.subscribeResource({ uri }));
		if (subscribed.ok) {
			await c.client.unsubscribeResource({ uri });
		}
		return subscribed.ok;
	}
	const listen = await c.client.listen({ resourceSubscriptions: [uri] });
	try {
		return (listen.honoredFilter.resourceSubscriptions ?? []).includes(uri);
	} finally {
		await listen.close();
	}
}

/** One `resources/list` request (SDK v2's `listResources()` without a cursor walks every page itself). */
export function listPage(c: EraClient, cursor?: string): Promise<{ resources: Record<string, unknown>[]; nextCursor?: string }> {
	return c.client.request({ method: 'resources/list', params: cursor === undefined ? {} : { cursor } });
}

/** Every resource of a listing, page by page, following `nextCursor` to the end. */
export async function walkList(c: EraClient): Promise<Record<string, unknown>[]> {
	const all: Record<string, unknown>[] = [];
	let cursor: string | undefined;
	do {
		const page = await listPage(c, cursor);
		all.push(...page.resources);
		cursor = page.nextCursor;
	} while (cursor !== undefined);
	return all;
}

/**
 * Sends `c` a request each era answers at once (`ping` in 2025; the 2026-07-28 revision has none,
 * so the templates) one after another while `work` runs, and says how many were answered before
 * it: a host held by the work answers none.
 */
export async function answeredWhile<T>(c: EraClient, work: Promise<T>): Promise<{ result: T; answeredFirst: number }> {
	let done = false;
	const finished = work.finally(() => {
		done = true;
	});
	let answeredFirst = 0;
	while (!done) {
		await (c.era === 'legacy' ? c.client.ping() : c.client.listResourceTemplates());
		if (!done) {
			answeredFirst++;
		}
		// The client may share the process with the server: a turn of the loop lets the work's
		// answer, once written, reach it between two requests.
		await new Promise(resolve => setTimeout(resolve, 0));
	}
	return { result: await finished, answeredFirst };
}
