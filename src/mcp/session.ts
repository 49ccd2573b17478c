import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
	CallToolRequestSchema, CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema,
	ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, McpError,
	ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { literal, object, unknown, type output, type ZodType } from 'zod';
import { Disposable, toDisposable } from '../common/lifecycle';
import { Logger } from '../common/logger';
import { InvalidParams } from '../core/errors';
import { DEFAULT_PAGE_SIZE, ProviderRegistry } from '../core/registry';
import { ResourceProvider } from '../core/resource';
import { SERVER_NAME, VERSION } from '../version';
import { toMcpError } from './errors';
import { SERVER_ICONS, withResourceIcons, withTemplateIcons } from './icons';
import { SessionSubscriptions, subscribedAmong, SubscriptionLimit } from './subscriptions';
import { checkUriLength } from './uriLimit';

export interface SessionOptions {
	readonly registry: ProviderRegistry;
	readonly log: Logger;
	readonly pageSize?: number;
}

/**
 * What the server tells a client it offers, built from the providers this host registered: the
 * headless host has no problems or editor state, and a model must not be told they exist.
 */
export function instructionsFor(providers: readonly ResourceProvider[]): string {
	const families = providers.map(p => p.summary);
	const listed = families.length > 1 ? `${families.slice(0, -1).join('; ')}; and ${families[families.length - 1]}` : families.join('');
	return `Resources are the open workspace as it is now: ${listed}. Page through resources/list with nextCursor, ` +
		'read with resources/read, fill templates with completion/complete, and subscribe to hear when something ' +
		'changes. Ignored and secret files are never served. This server offers resources only: its tools and ' +
		'prompts lists are empty.';
}

type OfficialSchema = ZodType<{ method: string; params?: unknown }>;

/**
 * One MCP session: an `McpServer` over the shared registry with its own subscriptions.
 * The SDK allows one transport per server, so every HTTP session (and the stdio host) gets one.
 */
export class McpSession extends Disposable {
	readonly server: McpServer;
	readonly subscriptions = new SessionSubscriptions();
	/** The registry's list version at this client's first listing; -1 before it. */
	private firstListedVersion = -1;

	constructor(private readonly options: SessionOptions) {
		super();
		this.server = new McpServer(
			{ name: SERVER_NAME, title: 'MCP Workspace Resources', version: VERSION, icons: [...SERVER_ICONS] },
			{
				// tools and prompts are declared (with empty lists) because some clients call
				// tools/list unconditionally and give up on a server that answers -32601 (Codex CLI).
				capabilities: { resources: { subscribe: true, listChanged: true }, completions: {}, tools: {}, prompts: {} },
				instructions: instructionsFor(options.registry.providers),
			},
		);
		this.installHandlers();
		this._register(options.registry.onDidChange(change => this.notify(change.updated, change.listChanged)));
		this._register(toDisposable(() => {
			this.subscriptions.clear();
			void this.server.close().catch(() => undefined);
		}));
	}

	/** The name the client gave in `initialize` (undefined before it). */
	get clientName(): string | undefined {
		return this.server.server.getClientVersion()?.name;
	}

	connect(transport: Transport): Promise<void> {
		return this.server.connect(transport);
	}

	private notify(updated: readonly string[], listChanged: boolean): void {
		const server = this.server.server;
		if (!this.server.isConnected()) {
			return;
		}
		for (const uri of subscribedAmong(this.subscriptions, updated)) {
			void server.sendResourceUpdated({ uri }).catch(() => undefined);
		}
		// Changes from before the client's first listing (git found while that page waited for
		// it) are not news: announcing them would make every client list twice at startup.
		if (listChanged && this.firstListedVersion < this.options.registry.listVersion) {
			void server.sendResourceListChanged().catch(() => undefined);
		}
	}

	private installHandlers(): void {
		const { registry } = this.options;
		const pageSize = this.options.pageSize ?? DEFAULT_PAGE_SIZE;

		this.handle(ListResourcesRequestSchema, 'List resources', async params => {
			const page = await registry.list(params?.cursor, pageSize);
			if (params?.cursor === undefined && this.firstListedVersion < 0) {
				this.firstListedVersion = registry.listVersion;
			}
			const resources = page.resources.map(withResourceIcons);
			return page.nextCursor ? { resources, nextCursor: page.nextCursor } : { resources };
		});
		this.handle(ListResourceTemplatesRequestSchema, 'List resource templates', async () => ({
			resourceTemplates: registry.templates().map(withTemplateIcons),
		}));
		this.handle(ReadResourceRequestSchema, 'Read resource', async params => {
			checkUriLength(params.uri);
			return { contents: await registry.read(params.uri) };
		});
		this.handle(SubscribeRequestSchema, 'Subscribe', async params => {
			checkUriLength(params.uri);
			await registry.checkSubscribable(params.uri);
			try {
				this.subscriptions.add(params.uri);
			} catch (err) {
				if (err instanceof SubscriptionLimit) {
					throw new McpError(ErrorCode.InvalidRequest, err.message);
				}
				throw err;
			}
			return {};
		});
		this.handle(UnsubscribeRequestSchema, 'Unsubscribe', async params => {
			this.subscriptions.delete(params.uri);
			return {};
		});
		this.handle(ListToolsRequestSchema, 'List tools', async () => ({ tools: [] }));
		this.handle(CallToolRequestSchema, 'Call tool', async params => {
			throw new InvalidParams(`Unknown tool: ${params.name}. This server offers no tools; read its resources instead`);
		});
		this.handle(ListPromptsRequestSchema, 'List prompts', async () => ({ prompts: [] }));
		this.handle(GetPromptRequestSchema, 'Get prompt', async params => {
			throw new InvalidParams(`Unknown prompt: ${params.name}. This server offers no prompts`);
		});
		this.handle(CompleteRequestSchema, 'Complete', async params => {
			if (params.ref.type !== 'ref/resource') {
				throw new InvalidParams('This server offers no prompts; complete resource templates with ref/resource');
			}
			const completion = await registry.complete(params.ref.uri, params.argument.name, params.argument.value, params.context?.arguments ?? {});
			return { completion };
		});
	}

	/**
	 * Installs a handler that validates params itself, so malformed requests get -32602 with a
	 * short reason (the SDK would answer -32603 with the validator's dump), and maps errors.
	 */
	private handle<S extends OfficialSchema, R extends Record<string, unknown>>(
		schema: S,
		operation: string,
		handler: (params: output<S>['params']) => Promise<R>,
	): void {
		const method = (schema as unknown as { shape: { method: { value: string } } }).shape.method.value;
		// Named imports (not the `z` namespace) let the bundler drop zod's unused locales.
		const loose = object({ method: literal(method), params: unknown().optional() });
		this.server.server.setRequestHandler(loose, async request => {
			const parsed = schema.safeParse(request);
			if (!parsed.success) {
				const reason = parsed.error.issues.slice(0, 3)
					.map(issue => `${issue.path.slice(1).join('.') || 'params'}: ${issue.message}`).join('; ');
				throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${reason}`);
			}
			try {
				return await handler(parsed.data.params);
			} catch (err) {
				throw toMcpError(err, operation, this.options.log);
			}
		});
	}
}
