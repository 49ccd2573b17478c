import { Client, ListResourcesResult } from '@modelcontextprotocol/client';
import { Disposable, IDisposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { ReadContent } from './contextBundle';
import { IconStore, SafeIcon } from '../client/foreignIcons';
import { ListedResource, ListedTemplate, toListedResource, toListedTemplate } from './listedItems';
import { ListingGuard, TEMPLATE_LIMITS } from './listingGuard';
import { isRemoteError } from '../client/clientErrors';
import { ConnectionSource } from '../client/connectionSource';
import { ConnectionState } from '../client/connectionState';
import { ReconnectingClient } from '../client/reconnectingClient';
import { formatSize } from './tokenEstimate';

// pickerService.ts still takes these from here; their home is connectionSource.ts.
export type { ConnectionSource, ConnectionTarget } from '../client/connectionSource';
export type { ListedResource, ListedTemplate } from './listedItems';

/**
 * Largest read result the picker takes from a server (text characters plus decoded binary
 * bytes): a bundle is pasted into a chat or an editor, and no one pastes more than this.
 */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

/** A read result over MAX_READ_BYTES: refused whole rather than cut, so nothing half-read is pasted. */
export class ReadTooLarge extends Error {
	constructor(readonly bytes: number) {
		super(`the server returned ${formatSize(bytes)}, more than the picker's ${formatSize(MAX_READ_BYTES)} limit for one resource, so it was not pasted`);
	}
}

/** An error the server answered, shown with its code as users of MCP clients know them. */
export class ServerErrorAnswer extends Error {
	constructor(readonly code: number, message: string, readonly data?: unknown) {
		super(`MCP error ${code}: ${message}`);
	}
}

export interface ServerConnectionOptions {
	readonly log: Logger;
	/** Delays between reconnect attempts after a failure; the last one repeats. */
	readonly backoffMs?: readonly number[];
}

/**
 * The picker's MCP client for one server: the shared ReconnectingClient (both protocol eras,
 * reconnect, watched URIs kept live) plus what the picker keeps of each answer: items reduced
 * to what it shows, icons it accepts, and size limits on what it takes.
 */
export class ServerConnection extends Disposable {
	private readonly client: ReconnectingClient;
	private readonly icons = new IconStore();
	private serverIconValue: SafeIcon | undefined;

	readonly onDidChangeState;
	/** Fires after every successful (re)connect: lists may differ, reload them. */
	readonly onDidConnect;
	readonly onDidChangeList;
	/** A subscribed resource changed. */
	readonly onDidUpdateResource;

	constructor(
		readonly id: string,
		readonly label: string,
		source: ConnectionSource,
		options: ServerConnectionOptions,
	) {
		super();
		this.client = this._register(new ReconnectingClient(source, {
			log: options.log, label, logPrefix: 'picker', clientName: 'mcp-workspace-resources-picker', backoffMs: options.backoffMs,
		}));
		this.onDidChangeState = this.client.onDidChangeState;
		this.onDidChangeList = this.client.onDidChangeList;
		this.onDidUpdateResource = this.client.onDidUpdateResource;
		this.onDidConnect = this.client.onDidConnect;
		this._register(this.client.onDidConnect(() => {
			this.serverIconValue = this.icons.icon(this.client.connected?.getServerVersion()?.icons);
		}));
	}

	get state(): ConnectionState {
		return this.client.state;
	}

	/** The protocol era of the current connection (2026-07-28 is `modern`). */
	get era(): 'modern' | 'legacy' | undefined {
		return this.client.era;
	}

	/** The server's own icon (`serverInfo.icons`), when it sent an acceptable one. */
	get serverIcon(): SafeIcon | undefined {
		return this.serverIconValue;
	}

	/** Connects if needed; resolves when connected, rejects with the reason otherwise. */
	async connect(): Promise<void> {
		await this.client.connect();
	}

	/** Drops the connection and connects again now, forgetting the backoff. */
	reconnect(reason = 'retry'): Promise<void> {
		return this.client.reconnect(reason);
	}

	/** One page of `resources/list` (one request), each entry reduced to what the picker keeps. */
	async listPage(cursor?: string): Promise<{ resources: ListedResource[]; nextCursor?: string }> {
		// A server of tools only has nothing to list, which is not an error.
		const page: ListResourcesResult = await this.request(async c => c.getServerCapabilities()?.resources ? this.client.listPage(cursor, c) : { resources: [] });
		return { resources: page.resources.map(r => toListedResource(r, this.icons)), nextCursor: page.nextCursor };
	}

	/** Every template, page by page, within TEMPLATE_LIMITS; `notice` says why it stopped early. */
	async listTemplates(): Promise<{ templates: ListedTemplate[]; notice?: string }> {
		const capabilities = await this.request(async c => c.getServerCapabilities());
		if (!capabilities?.resources) {
			return { templates: [] };
		}
		const guard = new ListingGuard(TEMPLATE_LIMITS, 'templates');
		const byTemplate = new Map<string, ListedTemplate>();
		let cursor: string | undefined;
		do {
			const page = await this.request(c => c.request({ method: 'resources/templates/list', params: cursor ? { cursor } : {} }));
			const before = byTemplate.size;
			for (const template of guard.admit(page.resourceTemplates.map(t => toListedTemplate(t, this.icons)))) {
				if (!byTemplate.has(template.uriTemplate)) {
					byTemplate.set(template.uriTemplate, template);
				}
			}
			cursor = guard.next(page.nextCursor, page.resourceTemplates.length, byTemplate.size - before) ? page.nextCursor : undefined;
		} while (cursor);
		return { templates: [...byTemplate.values()], ...(guard.notice ? { notice: guard.notice } : {}) };
	}

	/**
	 * The contents of `uri`; rejects with ReadTooLarge past MAX_READ_BYTES. Aborting `signal`
	 * cancels the request (a search the user typed past need not finish).
	 */
	async read(uri: string, signal?: AbortSignal): Promise<ReadContent[]> {
		const result = await this.request(c => c.readResource({ uri }, signal ? { signal } : undefined), signal);
		let bytes = 0;
		for (const content of result.contents) {
			const text = (content as { text?: unknown }).text;
			const blob = (content as { blob?: unknown }).blob;
			bytes += typeof text === 'string' ? text.length : typeof blob === 'string' ? Math.floor(blob.length * 3 / 4) : 0;
		}
		if (bytes > MAX_READ_BYTES) {
			throw new ReadTooLarge(bytes);
		}
		return result.contents as ReadContent[];
	}

	/** Values for a template variable from `completion/complete`; [] when the server offers none. */
	async complete(uriTemplate: string, argument: string, value: string, context: Record<string, string> = {}): Promise<string[]> {
		const capabilities = await this.request(async c => c.getServerCapabilities());
		if (!capabilities?.completions) {
			return [];
		}
		const result = await this.request(c => c.complete({
			ref: { type: 'ref/resource', uri: uriTemplate },
			argument: { name: argument, value },
			...(Object.keys(context).length > 0 ? { context: { arguments: context } } : {}),
		}));
		return result.completion.values;
	}

	/** Keeps `uri` live (listen or subscribe, once per server however many holders); dispose to release. */
	subscribe(uri: string): IDisposable {
		return this.client.watch(uri);
	}

	/**
	 * Resolves once the server answered the latest watch request for `uri` (or it failed): true
	 * when it took the subscription (listen acknowledgement or subscribe result).
	 */
	async whenSubscribed(uri: string): Promise<boolean> {
		return (await this.client.whenWatched(uri)).honoured;
	}

	get subscribedUris(): string[] {
		return this.client.watchedUris;
	}

	private async request<T>(call: (client: Client) => Promise<T>, signal?: AbortSignal): Promise<T> {
		try {
			return await this.client.request(call, undefined, signal);
		} catch (err) {
			throw isRemoteError(err) ? new ServerErrorAnswer(err.code, err.message, err.data) : err;
		}
	}
}
