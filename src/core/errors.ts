/**
 * Domain errors. They carry only what a client may see (its own URI, limits, setting names);
 * the MCP boundary maps them to protocol errors and logs everything else without detail.
 */
export abstract class ResourceError extends Error {}

/** Unknown URI, or one the server refuses to serve (outside the workspace, ignored, secret). */
export class ResourceNotFound extends ResourceError {
	constructor(readonly uri: string, readonly reason = 'Resource not found') {
		super(reason);
		this.name = 'ResourceNotFound';
	}
}

/** The file is larger than the configured cap. */
export class ResourceTooLarge extends ResourceError {
	constructor(
		readonly uri: string,
		readonly size: number,
		readonly limit: number,
		readonly setting: string,
		/** What the client can do instead, when raising the setting would not help. */
		advice = `raise ${setting} to read it`,
	) {
		super(`Resource is ${formatBytes(size)}, over the ${formatBytes(limit)} limit; ${advice}`);
		this.name = 'ResourceTooLarge';
	}
}

/** A request parameter that cannot be used (bad cursor, unknown template, malformed value). */
export class InvalidParams extends ResourceError {
	constructor(message: string) {
		super(message);
		this.name = 'InvalidParams';
	}
}

/** The server is not serving right now (restricted mode, shutting down). */
export class NotServing extends ResourceError {
	constructor(message: string) {
		super(message);
		this.name = 'NotServing';
	}
}

export function formatBytes(n: number): string {
	if (n < 1024) {
		return `${n} B`;
	}
	const units = ['KB', 'MB', 'GB', 'TB'];
	let value = n / 1024;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}
	return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
