// A stand-in for the OpenAI Responses API (streaming), enough for Codex CLI: it answers each
// main-loop request with the script's next tool call (a resource tool of Codex's, or one of our
// server's tools in the namespace Codex gives the server), or the final text.
import type * as http from 'node:http';
import { resultText, type Script } from './script.js';
import type { StandIn } from './standInServer.js';
import { sendEvents, startStandIn } from './standInServer.js';

const TOOLS: Record<string, string> = { list: 'list_mcp_resources', read: 'read_mcp_resource', templates: 'list_mcp_resource_templates' };

/** The parts of a Responses API request the stand-in reads. */
interface ResponsesRequest {
	tools: { name?: string; type?: string }[];
	input: unknown;
}
type InputItem = { type: 'function_call'; call_id: string; name: string; namespace?: string } | { type: 'function_call_output'; call_id: string; output: unknown };

/**
 * Codex 0.169's namespace for the tools of MCP server `serverName`: one `namespace` tool whose
 * functions are the server's tools by their own names (a call names both).
 */
export function codexNamespace(serverName: string): string {
	return `mcp__${serverName.replace(/-/g, '_')}`;
}

/** A function as a call names it: `namespace.name`, or the bare name outside a namespace. */
function qualified(namespace: string | undefined, name: string): string {
	return namespace ? `${namespace}.${name}` : name;
}

/** The script's tool results in order, from the input items (function calls matched by call_id). */
function scriptedResults(input: unknown, scripted: ReadonlySet<string>): string[] {
	const names = new Map<string, string>();
	const results: string[] = [];
	for (const item of (Array.isArray(input) ? input : []) as InputItem[]) {
		if (item.type === 'function_call') {
			names.set(item.call_id, qualified(item.namespace, item.name));
		} else if (item.type === 'function_call_output' && scripted.has(names.get(item.call_id) ?? '')) {
			results.push(resultText(item.output));
		}
	}
	return results;
}

function reply(res: http.ServerResponse, item: object): void {
	const id = `resp_${Date.now()}`;
	const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 20 };
	sendEvents(res, [
		['response.created', { type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } }],
		['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item }],
		['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
		['response.completed', { type: 'response.completed', response: { id, object: 'response', status: 'completed', output: [item], usage } }],
	]);
}

/** Starts the stand-in for `script` (see script.ts) with the server's name in the client. */
export async function startOpenAiStandIn(script: Script, serverName: string): Promise<StandIn> {
	let calls = 0;
	const namespace = codexNamespace(serverName);
	const scripted = new Set(script.steps.map(step => step.kind === 'tool' ? qualified(namespace, step.tool!) : TOOLS[step.kind]));
	const standIn = await startStandIn<ResponsesRequest>((req, body, res) => {
		if (req.method !== 'POST' || !req.url.split('?')[0].endsWith('/responses')) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: 'not served by the stand-in' } }));
			return;
		}
		const offered = (body.tools ?? []).map(t => t.name ?? t.type);
		standIn.log.push(`  tools: ${offered.join(', ')}`);
		const next = offered.includes(TOOLS.list) ? script.next(scriptedResults(body.input, scripted)) : { final: 'ok' };
		calls += 1;
		if (next.final !== undefined) {
			reply(res, { type: 'message', role: 'assistant', id: `msg_${calls}`, status: 'completed', content: [{ type: 'output_text', text: next.final, annotations: [] }] });
			return;
		}
		if (next.call.kind === 'tool') {
			reply(res, { type: 'function_call', id: `fc_${calls}`, call_id: `call_${calls}`, namespace, name: next.call.tool, arguments: JSON.stringify(next.call.args ?? {}), status: 'completed' });
			return;
		}
		const args = next.call.kind === 'read' ? { server: serverName, uri: next.call.uri } : { server: serverName };
		reply(res, { type: 'function_call', id: `fc_${calls}`, call_id: `call_${calls}`, name: TOOLS[next.call.kind], arguments: JSON.stringify(args), status: 'completed' });
	});
	return standIn;
}
