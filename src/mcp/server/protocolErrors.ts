import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { Logger } from '../../common/logger';
import { InvalidParams, NotServing, ResourceNotFound, ResourceTooLarge } from '../../core/errors';

/**
 * MCP's "resource not found": -32602 with `data: { uri }` on every revision. The 2026-07-28
 * revision requires it; for 2025 clients SDK v2 sends the same code on purpose (its 2025 wire
 * codec maps -32002 to -32602), and 2025-era SDKs read either as not-found.
 */
export const RESOURCE_NOT_FOUND = ProtocolErrorCode.InvalidParams;

/** A request the server refuses for what it asks (a cap, a state), not for its shape. */
export class InvalidRequest extends ProtocolError {
	constructor(message: string) {
		super(ProtocolErrorCode.InvalidRequest, message);
	}
}

/**
 * Maps an error from inside a handler to what the client sees. Domain errors carry only the
 * client's own input and limits; anything else is logged here and reaches the client as a
 * generic message, so no stack trace or host path leaves the server.
 */
export function toProtocolError(err: unknown, operation: string, log: Logger): ProtocolError {
	if (err instanceof ProtocolError) {
		return err;
	}
	if (err instanceof ResourceNotFound) {
		return new ResourceNotFoundError(err.uri, err.message);
	}
	if (err instanceof ResourceTooLarge) {
		return new ProtocolError(ProtocolErrorCode.InvalidRequest, err.message, {
			uri: err.uri, size: err.size, limit: err.limit, setting: err.setting,
		});
	}
	if (err instanceof InvalidParams) {
		return new ProtocolError(ProtocolErrorCode.InvalidParams, err.message);
	}
	if (err instanceof NotServing) {
		return new ProtocolError(ProtocolErrorCode.InvalidRequest, err.message);
	}
	const code = (err as NodeJS.ErrnoException | undefined)?.code;
	if (code === 'EACCES' || code === 'EPERM') {
		return new ProtocolError(ProtocolErrorCode.InternalError, `${operation} failed: permission denied`);
	}
	log.error(`${operation} failed`, err);
	return new ProtocolError(ProtocolErrorCode.InternalError, `${operation} failed`);
}
