import type * as http from 'node:http';
import { INVALID_REQUEST, parseJSONRPCMessage } from '@modelcontextprotocol/server';

/** The id of a single request, echoed in an error answered before the SDK saw it. */
export function requestId(message: unknown): string | number | null {
	const id = message !== null && typeof message === 'object' ? (message as { id?: unknown }).id : undefined;
	return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Answers with a JSON-RPC error of our own (the request never reached the SDK), or ends a reply already under way. */
export function sendJsonRpcError(res: http.ServerResponse, status: number, code: number, message: string, id: string | number | null = null): void {
	if (res.headersSent) {
		res.end();
		return;
	}
	const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });
	res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
	res.end(body);
}

/**
 * Answers -32600 (HTTP 400) for a body that is JSON but not a JSON-RPC message (params that are
 * an array or a string, no `jsonrpc`, a bad id), as `serve --stdio` does: the SDK's 2025
 * transport would call it a parse error (-32700), which JSON-RPC keeps for bodies that are not
 * JSON. Returns whether it answered.
 */
export function answeredNotJsonRpc(res: http.ServerResponse, message: unknown): boolean {
	const messages = Array.isArray(message) ? message : [message];
	try {
		messages.forEach(m => parseJSONRPCMessage(m));
		return false;
	} catch {
		sendJsonRpcError(res, 400, INVALID_REQUEST, 'Invalid Request: not a valid JSON-RPC 2.0 request (check jsonrpc, method and params)',
			Array.isArray(message) ? null : requestId(message));
		return true;
	}
}
