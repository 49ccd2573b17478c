import { Server, type ServerOptions } from '@modelcontextprotocol/server';
import { Logger } from '../../common/logger';
import { DEFAULT_PAGE_SIZE, ProviderRegistry } from '../../core/registry';
import { ResourceProvider } from '../../core/resource';
import { SERVER_NAME, VERSION } from '../../version';
import { CACHE_HINTS } from './cacheHints';
import { installResourceHandlers, ResourceHandlerHooks } from './resourceHandlers';
import { SERVER_ICONS } from './icons';
import { ToolSwitch } from '../tools/toolSwitch';
import { installToolHandlers, toolsOffered } from '../tools/workspaceTools';

export interface SessionOptions {
	readonly registry: ProviderRegistry;
	readonly log: Logger;
	readonly pageSize?: number;
	/** Whether tools are offered now (see ToolSwitch); on when absent. */
	readonly tools?: ToolSwitch;
}

/** The protocol era a connection speaks: `legacy` = 2025 revisions (initialize), `modern` = 2026-07-28. */
export type Era = 'legacy' | 'modern';

/**
 * What the server tells a client it offers, built from the providers this host registered: the
 * headless host has no problems or editor state, and a model must not be told they exist.
 */
export function instructionsFor(providers: readonly ResourceProvider[]): string {
	const families = providers.map(p => p.summary);
	const listed = families.length > 1 ? `${families.slice(0, -1).join('; ')}; and ${families[families.length - 1]}` : families.join('');
	return `Resources are the open workspace as it is now: ${listed}. Page through resources/list with nextCursor, ` +
		'read with resources/read, fill templates with completion/complete, and subscribe (resources/subscribe, or ' +
		'subscriptions/listen on 2026-07-28) to hear when something changes. Ignored and secret files are never ' +
		`served. Models that cannot read resources get the same through read-only tools (${toolsOffered(providers).map(t => t.name).join(', ')}), ` +
		'under the same rules, unless the user turned them off. The prompts list is empty.';
}

const SERVER_INFO = { name: SERVER_NAME, title: 'MCP Workspace Resources', version: VERSION };

const instructionsCache = new WeakMap<ProviderRegistry, string>();

/**
 * A v2 `Server` answering resources over the shared registry. Cheap to build (no registry
 * listener, handlers are closures over the registry): the SDK's stateless 2026-07-28 HTTP entry
 * builds one per request it serves.
 */
export function createWorkspaceServer(options: SessionOptions, era: Era, hooks: ResourceHandlerHooks = {}): Server {
	let instructions = instructionsCache.get(options.registry);
	if (instructions === undefined) {
		instructions = instructionsFor(options.registry.providers);
		instructionsCache.set(options.registry, instructions);
	}
	// On 2026-07-28 the server identifies itself in every result's _meta: the icons ride
	// only on server/discover (see amendDiscover), not on every read.
	const info = era === 'legacy' ? { ...SERVER_INFO, icons: [...SERVER_ICONS] } : SERVER_INFO;
	const serverOptions: ServerOptions = {
		// prompts are declared (with an empty list) because some clients call the lists
		// unconditionally and give up on a server that answers -32601 (Codex CLI); tools are
		// declared even while turned off, for the same reason and to announce turning them on.
		capabilities: { resources: { subscribe: true, listChanged: true }, completions: {}, tools: { listChanged: true }, prompts: {} },
		instructions,
		// Only 2026-07-28 results carry cache hints; the SDK stamps them.
		...era === 'modern' && { cacheHints: CACHE_HINTS },
	};
	const server = new Server(info, serverOptions);
	installResourceHandlers(server, options.registry, options.log, options.pageSize ?? DEFAULT_PAGE_SIZE, hooks);
	installToolHandlers(server, options.registry, { log: options.log, tools: options.tools });
	return server;
}
