import { PassThrough, Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { parseJSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * Sits between stdin and the SDK's StdioServerTransport. The SDK drops a line it cannot
 * parse or validate without answering; JSON-RPC asks for an error response (-32700 for bad
 * JSON, -32600 for an invalid request, with the request's id when it has a usable one). Valid
 * lines pass through unchanged; the SDK still does all protocol work.
 */
export function answerInvalidLines(input: Readable, output: Writable): Readable {
	const valid = new PassThrough();
	const lines = createInterface({ input, crlfDelay: Infinity });
	const reply = (id: unknown, code: number, message: string) => {
		const usableId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
		output.write(JSON.stringify({ jsonrpc: '2.0', id: usableId, error: { code, message } }) + '\n');
	};
	lines.on('line', line => {
		if (line.trim() === '') {
			return;
		}
		let parsed: unknown;
		try {
			parsed = JSON.parse(line);
		} catch {
			reply(null, -32700, 'Parse error: the line is not valid JSON');
			return;
		}
		if (isJsonRpcMessage(parsed)) {
			valid.write(line + '\n');
			return;
		}
		if (Array.isArray(parsed)) {
			reply(null, -32600, 'Invalid Request: batches are not supported; send one message per line');
			return;
		}
		const candidate = parsed as { id?: unknown; method?: unknown } | null;
		if (candidate && typeof candidate === 'object' && candidate.method === undefined && !('id' in candidate)) {
			reply(null, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
			return;
		}
		if (candidate && typeof candidate === 'object' && 'id' in candidate) {
			reply(candidate.id, -32600, 'Invalid Request: not a valid JSON-RPC 2.0 request (check jsonrpc, method and params)');
		}
		// An invalid notification gets no answer, as JSON-RPC says.
	});
	lines.on('close', () => valid.end());
	return valid;
}

function isJsonRpcMessage(value: unknown): boolean {
	try {
		parseJSONRPCMessage(value);
		return true;
	} catch {
		return false;
	}
}
