import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/** SDK errors about a result or a method, not the connection: the connection is still good. */
const ANSWER_PROBLEMS = new Set<string>([
	SdkErrorCode.InvalidResult, SdkErrorCode.UnsupportedResultType, SdkErrorCode.ListPaginationExceeded,
	SdkErrorCode.CapabilityNotSupported, SdkErrorCode.MethodNotSupportedByProtocolVersion,
]);

/** An error answer from the server (as opposed to a lost connection or a timeout). */
export function isRemoteError(err: unknown): err is ProtocolError {
	return err instanceof ProtocolError;
}

/** True for failures of the connection itself, as opposed to an answer the server gave. */
export function isTransportFailure(err: unknown): boolean {
	if (err instanceof ProtocolError) {
		return false;
	}
	if (err instanceof SdkError) {
		return !ANSWER_PROBLEMS.has(err.code);
	}
	return true;
}

/** An error the 2025 HTTP transport reports when its notification stream is gone for good. */
export function isConnectionLoss(err: Error): boolean {
	const status = (err as { code?: unknown; data?: { status?: unknown } }).data?.status ?? (err as { code?: unknown }).code;
	if (status === 404 || status === 401) {
		return true; // session gone (server restarted) or token changed
	}
	return /SSE stream disconnected|Maximum reconnection attempts|Failed to (re)?open SSE stream|Failed to reconnect|fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|terminated/i.test(err.message);
}

/** The first line of an error's message, at most 300 characters: for log lines and relayed errors. */
export function shortMessage(err: unknown): string {
	const message = err instanceof Error ? err.message : String(err);
	return message.split('\n')[0].slice(0, 300);
}

/** What went wrong connecting, in words for the user; the last stderr line of a stdio server added. */
export function describeFailure(err: Error, stderr: string): string {
	const cause = (err as { cause?: { code?: string } }).cause;
	let message = err.message;
	if (cause?.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) {
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
