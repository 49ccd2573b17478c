// A stand-in for the Anthropic Messages API (streaming), enough for Claude Code: it answers each
// main-loop request with the script's next tool call (a resource tool of Claude Code's, or one of
// our server's tools by the name Claude Code gives it), or the final text.
import type * as http from 'node:http';
import { resultText, type Script, type ScriptStep } from './script.js';
import type { StandIn } from './standInServer.js';
import { sendEvents, startStandIn } from './standInServer.js';

const TOOLS: Record<string, string> = { list: 'ListMcpResourcesTool', read: 'ReadMcpResourceTool' };

/** The parts of a Messages API request the stand-in reads. */
interface MessagesRequest {
	model: string;
	tools: { name: string }[];
	messages: { content: string | ContentBlock[] }[];
}
type ContentBlock = { type: 'tool_use'; id: string; name: string; input: unknown } | { type: 'tool_result'; tool_use_id: string; content: unknown } | { type: 'text'; text: string };

function blocks(content: string | ContentBlock[] | undefined): ContentBlock[] {
	return typeof content === 'string' ? [{ type: 'text', text: content }] : content ?? [];
}

/** Tool names by tool_use id, and tool results in order, from the conversation. */
function conversation(messages: MessagesRequest['messages'] | undefined): { name: string | undefined; text: string }[] {
	const names = new Map<string, string>();
	const results: { name: string | undefined; text: string }[] = [];
	for (const message of messages ?? []) {
		for (const block of blocks(message.content)) {
			if (block.type === 'tool_use') {
				names.set(block.id, block.name);
			} else if (block.type === 'tool_result') {
				results.push({ name: names.get(block.tool_use_id), text: resultText(block.content) });
			}
		}
	}
	return results;
}

function reply(res: http.ServerResponse, model: string | undefined, block: ContentBlock, stopReason: string): void {
	const start = block.type === 'tool_use' ? { ...block, input: {} } : { type: 'text', text: '' };
	const delta = block.type === 'tool_use'
		? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) }
		: { type: 'text_delta', text: block.type === 'text' ? block.text : '' };
	sendEvents(res, [
		['message_start', { type: 'message_start', message: { id: `msg_${Date.now()}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }],
		['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
		['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
		['content_block_stop', { type: 'content_block_stop', index: 0 }],
		['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 10 } }],
		['message_stop', { type: 'message_stop' }],
	]);
}

/** Claude Code's name for a tool of the MCP server `serverName`. */
export function claudeToolName(serverName: string, tool: string): string {
	return `mcp__${serverName}__${tool}`;
}

/**
 * Starts the stand-in for `script` (see script.ts) with the server's name in the client;
 * `toolName` is the client's name for a tool of that server (Claude Code's by default; Copilot CLI
 * speaks the same API with names of its own).
 */
export async function startAnthropicStandIn(script: Script, serverName: string, toolName: (serverName: string, tool: string) => string = claudeToolName): Promise<StandIn> {
	let calls = 0;
	const nameOf = (step: ScriptStep) => step.kind === 'tool' ? toolName(serverName, step.tool!) : TOOLS[step.kind];
	const scripted = new Set(script.steps.map(nameOf));
	const standIn = await startStandIn<MessagesRequest>((req, body, res) => {
		if (!req.url.startsWith('/v1/messages') || req.url.startsWith('/v1/messages/count_tokens')) {
			res.writeHead(req.url.startsWith('/v1/messages/count_tokens') ? 200 : 404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ input_tokens: 10 }));
			return;
		}
		const offered = (body.tools ?? []).map(t => t.name);
		standIn.log.push(`  tools: ${offered.join(', ')}`);
		const history = conversation(body.messages);
		// The main loop is the request that offers the tools (or ToolSearch, behind which Claude Code defers them).
		const isMain = offered.includes(TOOLS.list) || offered.includes('ToolSearch') || offered.some(name => scripted.has(name));
		const next = isMain ? script.next(history.filter(r => r.name !== undefined && scripted.has(r.name)).map(r => r.text)) : { final: 'ok' };
		if (next.final !== undefined) {
			reply(res, body.model, { type: 'text', text: next.final }, 'end_turn');
			return;
		}
		const name = nameOf(next.call);
		calls += 1;
		if (!offered.includes(name) && offered.includes('ToolSearch')) {
			// Claude Code defers MCP tools behind ToolSearch: load them the way a model would.
			reply(res, body.model, { type: 'tool_use', id: `toolu_${calls}`, name: 'ToolSearch', input: { query: `select:${[...scripted].join(',')}`, max_results: scripted.size } }, 'tool_use');
			return;
		}
		const input = next.call.kind === 'tool' ? next.call.args ?? {} : next.call.kind === 'list' ? { server: serverName } : { server: serverName, uri: next.call.uri };
		reply(res, body.model, { type: 'tool_use', id: `toolu_${calls}`, name, input }, 'tool_use');
	});
	return standIn;
}
