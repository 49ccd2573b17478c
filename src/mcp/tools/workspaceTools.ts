import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Server } from '@modelcontextprotocol/server';
import { looseObject, optional, record, string, unknown } from 'zod';
import { Logger } from '../../common/logger';
import { MAX_RANGE_SOURCE_BYTES } from '../../core/answerBudget';
import { ResourceNotFound, ResourceTooLarge } from '../../core/errors';
import { ProviderRegistry } from '../../core/registry';
import { ResourceProvider } from '../../core/resource';
import { toProtocolError } from '../server/protocolErrors';
import { LIST_PARAMS } from '../server/paramSchemas';
import { relevantFilesTool } from './relevantFilesTool';
import { listResourcesTool, readResourceTool } from './resourceTools';
import { searchFilesTool, searchTextTool } from './searchTools';
import { findSymbolsTool, symbolRelationsTool } from './symbolTools';
import { ToolSwitch, toolsOn } from './toolSwitch';
import { ToolArgumentsError, WorkspaceTool } from './workspaceTool';

/** Every tool this server may offer, in the order `tools/list` gives them. Names are stable once shipped. */
export const WORKSPACE_TOOLS: readonly WorkspaceTool[] = [listResourcesTool, readResourceTool, searchTextTool, searchFilesTool, relevantFilesTool, findSymbolsTool, symbolRelationsTool];

const TOOL_CALL_PARAMS = looseObject({ name: string(), arguments: optional(record(string(), unknown())) });

const offeredCache = new WeakMap<readonly ResourceProvider[], readonly WorkspaceTool[]>();

/** The tools a registry of these providers can back (the search tools only where search is served, ...). */
export function toolsOffered(providers: readonly ResourceProvider[]): readonly WorkspaceTool[] {
	let tools = offeredCache.get(providers);
	if (!tools) {
		tools = WORKSPACE_TOOLS.filter(t => t.offeredBy(providers));
		offeredCache.set(providers, tools);
	}
	return tools;
}

export interface ToolHandlerOptions {
	readonly log: Logger;
	/** Whether tools are on now; on when absent. */
	readonly tools?: ToolSwitch;
}

/**
 * `tools/list` and `tools/call` over the registry. With tools off, the list is empty and a
 * call is an unknown tool. A call that the registry refuses (not served, too large, bad input)
 * is a tool error the model can read and act on (`isError`, nothing of the resource), not a
 * protocol error: the spec's way of letting a model correct itself.
 */
export function installToolHandlers(server: Server, registry: ProviderRegistry, options: ToolHandlerOptions): void {
	const { log, tools } = options;
	const offered = () => (toolsOn(tools) ? toolsOffered(registry.providers) : []);
	server.setRequestHandler('tools/list', { params: LIST_PARAMS }, () => ({ tools: offered().map(t => t.definition) }));
	server.setRequestHandler('tools/call', { params: TOOL_CALL_PARAMS }, async params => {
		const tool = offered().find(t => t.name === params.name);
		if (!tool) {
			throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownToolMessage(params.name, offered(), toolsOn(tools)));
		}
		let result: CallToolResult;
		try {
			result = { ...await tool.call(params.arguments ?? {}, registry) };
		} catch (err) {
			result = { isError: true, content: [{ type: 'text', text: failureText(err, tool.name, log, offered()) }] };
		}
		return server.projectCallToolResult(result, tool.definition.outputSchema);
	});
}

function unknownToolMessage(name: string, offered: readonly WorkspaceTool[], on: boolean): string {
	const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
	return on
		? `Unknown tool: ${shown}. This server's tools are ${offered.map(t => t.name).join(', ')}`
		: `Unknown tool: ${shown}. Tools are turned off on this server (mcpResources.tools.enabled, or serve --no-tools); read its resources instead`;
}

/**
 * What a model is told when a call fails: what it can do about it, and nothing of the resource
 * or of the host (no stack, no path it did not give).
 */
function failureText(err: unknown, tool: string, log: Logger, offered: readonly WorkspaceTool[]): string {
	if (err instanceof ToolArgumentsError) {
		return err.message;
	}
	if (err instanceof ResourceNotFound) {
		const finders = offered.some(t => t.name === 'search_files') ? 'list_resources or search_files' : 'list_resources';
		return `Not served: ${shortUri(err.uri)}. It does not exist, or it is outside the workspace, ignored, excluded or secret, which are never served. `
			+ `Use ${finders} to find what can be read.`;
	}
	if (err instanceof ResourceTooLarge) {
		// Ranges read files up to MAX_RANGE_SOURCE_BYTES: past it the message already says no read
		// takes the file, and a range to try would contradict it.
		return /^file:[^?#]*$/i.test(err.uri) && err.size <= MAX_RANGE_SOURCE_BYTES
			? `${err.message}, or read part of it: ${shortUri(err.uri)}?lines=1-200`
			: err.message;
	}
	return toProtocolError(err, `${tool}`, log).message;
}

function shortUri(uri: string): string {
	return uri.length > 300 ? `${uri.slice(0, 300)}…` : uri;
}
