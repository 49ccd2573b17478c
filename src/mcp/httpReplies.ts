import type * as http from 'node:http';

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
