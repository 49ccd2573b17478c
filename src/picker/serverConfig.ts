/** An MCP server the user configured in `mcpResources.servers`. */
export type ServerConfig =
	| { readonly kind: 'http'; readonly name: string; readonly url: string; readonly headers: Readonly<Record<string, string>> }
	| { readonly kind: 'stdio'; readonly name: string; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> };

/** What the picker calls this window's own server. */
export const WORKSPACE_SERVER_LABEL = 'This workspace';

/**
 * Whether a configured server's name reads as {@link WORKSPACE_SERVER_LABEL}: the same words in
 * any letter case, spacing or compatibility form, invisible characters left out.
 */
export function readsAsWorkspaceServer(name: string): boolean {
	const plain = name.normalize('NFKC').replace(/\p{Default_Ignorable_Code_Point}/gu, '');
	return plain.replace(/\s+/g, ' ').trim().toLowerCase() === WORKSPACE_SERVER_LABEL.toLowerCase();
}

/**
 * The picker's label of a configured server: its name, marked as configured when it would
 * otherwise read as this window's own server (a folder's entry or a hand-written one).
 */
export function configuredServerLabel(name: string): string {
	return readsAsWorkspaceServer(name) ? `${name} (mcpResources.servers)` : name;
}

export interface ParsedServers {
	readonly servers: ServerConfig[];
	/** One readable message per entry that was skipped. */
	readonly errors: string[];
}

/**
 * Validates the raw setting value. Bad entries are skipped with a message naming the entry,
 * so one typo does not hide every other server.
 */
export function parseServerConfigs(raw: unknown): ParsedServers {
	const servers: ServerConfig[] = [];
	const errors: string[] = [];
	if (raw === undefined || raw === null) {
		return { servers, errors };
	}
	if (!Array.isArray(raw)) {
		return { servers, errors: ['mcpResources.servers must be an array of server entries'] };
	}
	const names = new Set<string>();
	raw.forEach((entry, index) => {
		const where = `mcpResources.servers[${index}]`;
		const result = parseServerEntry(entry, where);
		if (typeof result === 'string') {
			errors.push(result);
			return;
		}
		if (names.has(result.name)) {
			errors.push(`${where}: the name "${result.name}" is used twice; names must be unique`);
			return;
		}
		names.add(result.name);
		servers.push(result);
	});
	return { servers, errors };
}

/** One entry, or why it is refused, in words that start with `where`. */
export function parseServerEntry(entry: unknown, where: string): ServerConfig | string {
	if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
		return `${where}: expected an object with "name" and either "url" or "command"`;
	}
	const e = entry as Record<string, unknown>;
	if (typeof e.name !== 'string' || e.name.trim() === '') {
		return `${where}: "name" must be a non-empty string`;
	}
	const name = e.name.trim();
	const at = `${where} ("${name}")`;
	if (e.url !== undefined && e.command !== undefined) {
		return `${at}: give either "url" (HTTP) or "command" (stdio), not both`;
	}
	if (e.url !== undefined) {
		if (typeof e.url !== 'string') {
			return `${at}: "url" must be a string`;
		}
		let url: URL;
		try {
			url = new URL(e.url);
		} catch {
			return `${at}: "url" is not a valid URL: ${e.url}`;
		}
		if (url.protocol !== 'http:' && url.protocol !== 'https:') {
			return `${at}: "url" must be http:// or https://, not ${url.protocol}`;
		}
		const headers = stringRecord(e.headers);
		if (headers === undefined) {
			return `${at}: "headers" must be an object of string values`;
		}
		return { kind: 'http', name, url: url.href, headers };
	}
	if (e.command !== undefined) {
		if (typeof e.command !== 'string' || e.command.trim() === '') {
			return `${at}: "command" must be a non-empty string`;
		}
		if (e.args !== undefined && (!Array.isArray(e.args) || e.args.some(a => typeof a !== 'string'))) {
			return `${at}: "args" must be an array of strings`;
		}
		const env = stringRecord(e.env);
		if (env === undefined) {
			return `${at}: "env" must be an object of string values`;
		}
		return { kind: 'stdio', name, command: e.command, args: (e.args as string[] | undefined) ?? [], env };
	}
	return `${at}: needs "url" (an HTTP server) or "command" (a stdio server)`;
}

function stringRecord(value: unknown): Record<string, string> | undefined {
	if (value === undefined) {
		return {};
	}
	if (!value || typeof value !== 'object' || Array.isArray(value)) {
		return undefined;
	}
	const entries = Object.entries(value);
	// Built as own properties: assigned, a key named `__proto__` would vanish (or worse).
	return entries.every(([, v]) => typeof v === 'string') ? Object.fromEntries(entries) as Record<string, string> : undefined;
}
