import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/** SDK errors about a result or a method, not the connection: the connection is still good. */
const ANSWER_PROBLEMS = new Set<string>([
	SdkErrorCode.InvalidResult, SdkErrorCode.UnsupportedResultType, SdkErrorCode.ListPaginationExceeded,
	SdkErrorCode.CapabilityNotSupported, SdkErrorCode.MethodNotSupportedByProtocolVersion,
]);

/** An error answer from the server (as opposed to a lost connection or a timeout). */
export function isRemoteError(err: unknown): err is ProtocolError {
	return err instanceof ProtocolError;
}

/**
 * "Method not found" in what the SDK client raised: a 2026-07-28 server answers an unknown method
 * with HTTP 404 and `-32601` in the body, which the client raises as a failed POST (and reports
 * to the transport's error handler), and the client itself refuses a method the server's era
 * does not have (`logging/setLevel` towards 2026-07-28). Either is an answer, not a lost session
 * (a 2025 session that is gone is a 404 with another code).
 */
export function methodNotFoundIn(err: unknown): ProtocolError | undefined {
	if (err instanceof SdkError && err.code === SdkErrorCode.MethodNotSupportedByProtocolVersion) {
		return new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
	}
	const data = (err as { data?: { status?: unknown; text?: unknown } } | undefined)?.data;
	if (data?.status !== 404 || typeof data.text !== 'string') {
		return undefined;
	}
	try {
		const { error } = JSON.parse(data.text) as { error?: { code?: unknown; message?: unknown } };
		return error?.code === ProtocolErrorCode.MethodNotFound && typeof error.message === 'string'
			? new ProtocolError(ProtocolErrorCode.MethodNotFound, error.message) : undefined;
	} catch {
		return undefined;
	}
}

/** True for failures of the connection itself, as opposed to an answer the server gave. */
export function isTransportFailure(err: unknown): boolean {
	if (err instanceof ProtocolError || methodNotFoundIn(err)) {
		return false;
	}
	if (err instanceof SdkError) {
		return !ANSWER_PROBLEMS.has(err.code);
	}
	return true;
}

/** An error the 2025 HTTP transport reports when its notification stream is gone for good. */
export function isConnectionLoss(err: Error): boolean {
	if (methodNotFoundIn(err)) {
		return false;
	}
	const status = (err as { code?: unknown; data?: { status?: unknown } }).data?.status ?? (err as { code?: unknown }).code;
	if (status === 404 || status === 401) {
		return true; // session gone (server restarted) or token changed
	}
	return /SSE stream disconnected|Maximum reconnection attempts|Failed to (re)?open SSE stream|Failed to reconnect|fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|terminated/i.test(err.message);
}

/** The first line of an error's message, at most 300 characters: for log lines and relayed errors. */
export function shortMessage(err: unknown): string {
	return firstLine(err instanceof Error ? err.message : String(err)).slice(0, 300);
}

/**
 * The first line of a message. The SDK puts the schema's complaints about a reply that is not
 * MCP after a colon, as indented JSON: those lines would flood a terminal, and the first one
 * alone ends in a lone bracket, so it is named instead.
 */
function firstLine(message: string): string {
	const [first, ...rest] = message.split('\n');
	const dump = /^(.*?)(?::\s*)?[[{]\s*$/.exec(first);
	if (rest.length === 0 || !dump) {
		return first;
	}
	return dump[1] ? `${dump[1]}: the reply is not valid MCP` : 'a reply that is not valid MCP';
}

/** The socket error under the wrappers (the SDK's error around fetch's "fetch failed" around it). */
function hasCauseCode(err: unknown, code: string): boolean {
	for (let e = err, depth = 0; e instanceof Object && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
		if ((e as { code?: unknown }).code === code) {
			return true;
		}
	}
	return false;
}

/** What went wrong connecting, in words for the user, on one line; the last stderr line of a stdio server added. */
export function describeFailure(err: Error, stderr: string): string {
	let message = firstLine(err.message);
	if (hasCauseCode(err, 'ECONNREFUSED') || /ECONNREFUSED/.test(err.message)) {
		message = 'connection refused (is the server running?)';
	} else if (/\b401\b|Unauthorized/i.test(message) || (err as { data?: { status?: unknown } }).data?.status === 401) {
		message = 'unauthorized: check the Authorization header';
	}
	const lastLine = stderr.trim().split('\n').pop();
	return lastLine ? `${message} (stderr: ${lastLine.slice(0, 200)})` : message;
}

/** `whenConnected` waited its time out. */
export class ConnectTimeout extends Error {
	constructor(readonly waitedMs: number) {
		super(`not connected after ${Math.round(waitedMs / 1000)} s`);
	}
}
