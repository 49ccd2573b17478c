import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Logger } from '../common/logger';
import { InvalidParams, NotServing, ResourceNotFound, ResourceTooLarge } from '../core/errors';

/** MCP's "resource not found" (2025-11-25 revision). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * Maps an error from inside a handler to what the client sees. Domain errors carry only the
 * client's own input and limits; anything else is logged here and reaches the client as a
 * generic message, so no stack trace or host path leaves the server.
 */
export function toMcpError(err: unknown, operation: string, log: Logger): McpError {
	if (err instanceof McpError) {
		return err;
	}
	if (err instanceof ResourceNotFound) {
		return new McpError(RESOURCE_NOT_FOUND, err.message, { uri: err.uri });
	}
	if (err instanceof ResourceTooLarge) {
		return new McpError(ErrorCode.InvalidRequest, err.message, {
			uri: err.uri, size: err.size, limit: err.limit, setting: err.setting,
		});
	}
	if (err instanceof InvalidParams) {
		return new McpError(ErrorCode.InvalidParams, err.message);
	}
	if (err instanceof NotServing) {
		return new McpError(ErrorCode.InvalidRequest, err.message);
	}
	const code = (err as NodeJS.ErrnoException | undefined)?.code;
	if (code === 'EACCES' || code === 'EPERM') {
		return new McpError(ErrorCode.InternalError, `${operation} failed: permission denied`);
	}
	log.error(`${operation} failed`, err);
	return new McpError(ErrorCode.InternalError, `${operation} failed`);
}
