import { createHash } from 'node:crypto';
import { parseServerConfigs, ServerConfig } from './serverConfig';

/**
 * Which entries of `mcpResources.servers` the picker may start. The user's own entries run as
 * they always did. A folder's entries (its `.vscode/settings.json` or workspace file) were
 * written by whoever wrote the repository: they are ignored in Restricted Mode, and in a
 * trusted folder each one runs or is contacted only after the user allowed that exact entry.
 */

/** The user's remembered answer for one folder entry. */
export type Consent = 'allowed' | 'declined';

/** The `mcpResources.servers` value of one folder-level settings scope. */
export interface FolderServerSetting {
	/** Identifies the folder (or workspace file) in consent keys, e.g. its URI. */
	readonly folderId: string;
	/** How prompts, rows and messages name it. */
	readonly folderLabel: string;
	readonly value: unknown;
}

/** An entry from folder settings, with what the user said about it. */
export interface FolderServer {
	readonly config: ServerConfig;
	readonly folderId: string;
	readonly folderLabel: string;
	/** Names the folder and everything that decides what runs; see {@link consentKey}. */
	readonly key: string;
	readonly consent: Consent | undefined;
}

export interface ServerSettingsInput {
	/** The user (global) value. */
	readonly user: unknown;
	/** Folder-level values, in precedence order (workspace, then workspace folder). */
	readonly folders: readonly FolderServerSetting[];
	/** `false` in Restricted Mode: folder values are not looked at at all. */
	readonly trusted: boolean;
	consentOf(key: string): Consent | undefined;
}

export interface MergedServers {
	/** What the picker connects to: the user's entries, then folder entries the user allowed. */
	readonly start: ServerConfig[];
	/** Folder entries not allowed (never asked, or declined): shown as rows, never started. */
	readonly held: FolderServer[];
	/** Folder entries the user allowed (a review can take the permission back). */
	readonly allowed: FolderServer[];
	/** Entries skipped as invalid, one readable message each. */
	readonly errors: string[];
	/** Decisions worth a log line: name clashes, folder entries ignored in Restricted Mode. */
	readonly notes: string[];
}

/** Merges user and folder entries: folder entries add to the user's, and never replace one. */
export function mergeServerSettings(input: ServerSettingsInput): MergedServers {
	const user = parseServerConfigs(input.user);
	const start = [...user.servers];
	const errors = [...user.errors];
	const notes: string[] = [];
	const held: FolderServer[] = [];
	const allowed: FolderServer[] = [];
	const names = new Set(start.map(s => s.name));
	for (const folder of input.folders) {
		if (folder.value === undefined) {
			continue;
		}
		if (!input.trusted) {
			notes.push(`mcpResources.servers in the settings of ${folder.folderLabel} is ignored: Restricted Mode (trust the folder to review its servers)`);
			continue;
		}
		const parsed = parseServerConfigs(folder.value);
		errors.push(...parsed.errors.map(e => `${folder.folderLabel}: ${e}`));
		for (const config of parsed.servers) {
			if (names.has(config.name)) {
				notes.push(`the server "${config.name}" in the settings of ${folder.folderLabel} is ignored: an entry with that name comes first (your user settings win)`);
				continue;
			}
			names.add(config.name);
			const key = consentKey(folder.folderId, config);
			const entry: FolderServer = { config, folderId: folder.folderId, folderLabel: folder.folderLabel, key, consent: input.consentOf(key) };
			if (entry.consent === 'allowed') {
				allowed.push(entry);
				start.push(config);
			} else {
				held.push(entry);
			}
		}
	}
	return { start, held, allowed, errors, notes };
}

/**
 * A hash of the folder and the whole entry: a changed command, argument, variable, URL or
 * header (or a new name) is a new entry, and is asked about again.
 */
export function consentKey(folderId: string, config: ServerConfig): string {
	const content = config.kind === 'http'
		? { kind: config.kind, name: config.name, url: config.url, headers: sorted(config.headers) }
		: { kind: config.kind, name: config.name, command: config.command, args: config.args, env: sorted(config.env) };
	return createHash('sha256').update(JSON.stringify([folderId, content])).digest('hex');
}

/** What starting an entry does, in words for the consent prompt. */
export function describeServer(config: ServerConfig, cwd?: string): string {
	if (config.kind === 'http') {
		const url = new URL(config.url);
		const headers = Object.keys(config.headers).map(printable);
		return [
			`Contacts ${url.origin}`,
			`URL: ${config.url}`,
			...(headers.length > 0 ? [`Sends the headers: ${headers.join(', ')}`] : []),
		].join('\n');
	}
	const env = Object.keys(config.env).map(printable);
	return [
		`Runs: ${[config.command, ...config.args].map(quoteArg).join(' ')}`,
		...(cwd ? [`In: ${cwd}`] : []),
		...(env.length > 0 ? [`With the environment variables: ${env.join(', ')}`] : []),
	].join('\n');
}

/**
 * The folder writes these strings and the user decides on what they read: line breaks,
 * other control characters and bidirectional overrides could make one entry look like
 * another, or push a line out of sight, so they are shown as escapes.
 */
export function printable(text: string): string {
	// Cc: control characters; Cf: format characters (bidi overrides, zero-width, BOM); Zl/Zp: line breaks.
	return text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, c => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** Shell-like quoting, so an argument with spaces reads as one argument. */
function quoteArg(arg: string): string {
	return arg !== '' && /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${printable(arg).replace(/'/g, `'\\''`)}'`;
}

function sorted(record: Readonly<Record<string, string>>): [string, string][] {
	return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
