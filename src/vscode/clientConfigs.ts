import { bearerAuthorization } from '../mcp/http/authorization';
import { shellFor, ShellSyntax } from '../node/shellSyntax';

/** The clients "Connect a Client..." knows how to configure. */
export type ClientKind = 'claudeDesktop' | 'claudeCode' | 'cursor' | 'vscode' | 'codex' | 'gemini' | 'copilotCli';

export interface ClientConfigContext {
	/** The running server's URL and bearer token; absent when the server is not running. */
	readonly url?: string;
	readonly token?: string;
	/** Absolute path of `dist/cli.js` in the installed extension. */
	readonly cliPath: string;
	/** The workspace folder the bridge should find (any folder of the window works). */
	readonly workspaceFolder: string;
	/** The server's name in the client's configuration. */
	readonly serverName?: string;
	/** Set when the extension host runs on another machine (SSH, containers, code-server). */
	readonly remoteName?: string;
	/** The platform the CLI runs on (the extension host's), for how commands are quoted; this process's by default. */
	readonly platform?: NodeJS.Platform;
}

export interface ClientConfig {
	readonly kind: ClientKind;
	readonly label: string;
	/** Where the configuration goes, in one line. */
	readonly detail: string;
	/** The language of the untitled document that shows it. */
	readonly language: 'shellscript' | 'powershell' | 'jsonc';
	/** What goes on the clipboard: valid JSON for the JSON files (their parsers refuse comments). */
	readonly copy: string;
	/** What the untitled document shows: `copy` with notes as comments. */
	readonly document: string;
}

function withNotes(kind: ClientKind, label: string, detail: string, notes: string[], config: unknown): ClientConfig {
	const copy = json(config);
	return { kind, label, detail, language: 'jsonc', copy, document: [...notes, copy].join('\n') };
}

/**
 * A CLI's configuration as commands to run: the bridge first (it finds the window again whatever
 * changed), then, while the server runs, Streamable HTTP with the token. Comments and commands
 * alike go on the clipboard: a shell skips the comments.
 */
function shellCommands(kind: ClientKind, label: string, detail: string, ctx: ClientConfigContext, shell: ShellSyntax, bridgeLine: string, notes: string[], http: string[] | undefined): ClientConfig {
	const lines = [
		`# ${label}. Recommended: the bridge, which finds the window again whatever changed`,
		'# (the token changes when the window reloads). Run in a terminal, in any folder:',
		bridgeLine,
		...bridgeNotes(ctx, '#'),
		...notes,
		...(http ? ['', ...http] : []),
	];
	const text = lines.join('\n') + '\n';
	return { kind, label, detail, language: shell.language, copy: text, document: text };
}

export const CLIENT_KINDS: readonly ClientKind[] = ['claudeDesktop', 'claudeCode', 'cursor', 'vscode', 'codex', 'gemini', 'copilotCli'];

/** The variable Codex CLI reads the bearer token from (`--bearer-token-env-var`). */
export const CODEX_TOKEN_VARIABLE = 'MCP_WORKSPACE_RESOURCES_TOKEN';

/**
 * The name clients know this server by. Not `workspace`: Claude Code reserves that name (and `ide`,
 * `cowork`, `session-info`, `mcp-registry`, `plugins`, `scheduled-tasks`, `dispatch`) and refuses
 * `claude mcp add` with it, or drops the entry silently from an --mcp-config file.
 */
export const DEFAULT_SERVER_NAME = 'workspace-resources';

/** The command line of the stdio bridge for `ctx`: the way clients that start servers reach the window. */
export function bridgeCommand(ctx: ClientConfigContext): { command: string; args: string[] } {
	return { command: 'node', args: [ctx.cliPath, 'bridge', '--workspace', ctx.workspaceFolder] };
}

function bearer(ctx: ClientConfigContext): Record<string, string> | undefined {
	return ctx.token ? bearerAuthorization(ctx.token) : undefined;
}

/** A command and its arguments as one command line. */
function shellLine(shell: ShellSyntax, { command, args }: { command: string; args: readonly string[] }): string {
	return [command, ...args].map(shell.quote).join(' ');
}

function json(value: unknown): string {
	return JSON.stringify(value, null, 2) + '\n';
}

/**
 * When a configured token stops working. A restart keeps the address and the token (see
 * ServerRunner); a reload of the window or Rotate Token makes a new one.
 */
const TOKEN_CHANGES = 'the window reloads or you run "MCP Resources: Rotate Token"';

/** Comment lines shared by the configurations: what the bridge needs, and where it runs. */
function bridgeNotes(ctx: ClientConfigContext, comment: string): string[] {
	const notes = [
		`${comment} The bridge needs Node.js 20 or newer as "node" on the PATH, and this folder open in a VS Code window`,
		`${comment} with MCP Workspace Resources running. The path names the extension's version: after an update, run`,
		`${comment} "MCP Resources: Connect a Client..." again.`,
	];
	return [...notes, ...remoteNote(ctx, comment)];
}

function remoteNote(ctx: ClientConfigContext, comment: string): string[] {
	return ctx.remoteName
		? [`${comment} This window's extension host runs on "${ctx.remoteName}": the paths and the URL are on that machine,`,
			`${comment} so the client must run there too (or reach it through your own tunnel).`]
		: [];
}

/**
 * The ready-to-paste configuration for one client. Clients that start a process get the stdio
 * bridge (stable across restarts); clients that speak Streamable HTTP also get the URL and token,
 * which last until {@link TOKEN_CHANGES}.
 */
export function buildClientConfig(kind: ClientKind, ctx: ClientConfigContext): ClientConfig {
	const name = ctx.serverName ?? DEFAULT_SERVER_NAME;
	const bridge = bridgeCommand(ctx);
	const headers = bearer(ctx);
	const shell = shellFor(ctx.platform ?? process.platform);
	const q = shell.quote;
	switch (kind) {
		case 'claudeDesktop':
			return withNotes(kind, 'Claude Desktop', 'claude_desktop_config.json (Settings > Developer > Edit Config): stdio through the bridge', [
				'// Merge into claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/,',
				'// Windows: %APPDATA%\\Claude\\), then restart Claude Desktop. Claude Desktop starts stdio servers',
				'// only, so it runs the bridge, which finds this window through its lock file.',
				...bridgeNotes(ctx, '//'),
			], { mcpServers: { [name]: bridge } });
		case 'claudeCode':
			return shellCommands(kind, 'Claude Code', 'claude mcp add: the bridge, or HTTP with the token', ctx, shell,
				`claude mcp add --scope user ${q(name)} -- ${shellLine(shell, bridge)}`, [],
				ctx.url && headers ? [
					`# Or Streamable HTTP directly, until ${TOKEN_CHANGES} (then run this again with the new token):`,
					`claude mcp add --transport http ${q(name)} ${q(ctx.url)} --header ${q(`Authorization: ${headers.Authorization}`)}`,
				] : undefined);
		case 'codex':
			return shellCommands(kind, 'Codex CLI', 'codex mcp add: the bridge, or HTTP with the token in a variable', ctx, shell,
				`codex mcp add ${q(name)} -- ${shellLine(shell, bridge)}`,
				['# Codex reads resources with its list_mcp_resources, list_mcp_resource_templates and read_mcp_resource tools.'],
				ctx.url && ctx.token ? [
					`# Or Streamable HTTP directly, until ${TOKEN_CHANGES}. Codex reads the token from a variable:`,
					'# set it in the shell that starts codex (and again, with the new token, when it changes).',
					`codex mcp add ${q(name)} --url ${q(ctx.url)} --bearer-token-env-var ${CODEX_TOKEN_VARIABLE}`,
					shell.setVariable(CODEX_TOKEN_VARIABLE, ctx.token),
				] : undefined);
		case 'gemini':
			return shellCommands(kind, 'Gemini CLI', 'gemini mcp add: the bridge, or HTTP with the token', ctx, shell,
				`gemini mcp add --scope user ${q(name)} ${shellLine(shell, bridge)}`,
				[
					'# Gemini CLI turns off every MCP server in a folder it does not trust ("gemini mcp list" shows',
					`# "Disabled"): trust the folder you run it in. Mention a resource as @${name}:<uri>.`,
				],
				ctx.url && headers ? [
					`# Or Streamable HTTP directly, until ${TOKEN_CHANGES} (then run this again with the new token):`,
					`gemini mcp add --scope user --transport http ${q(name)} ${q(ctx.url)} --header ${q(`Authorization: ${headers.Authorization}`)}`,
				] : undefined);
		case 'copilotCli':
			return shellCommands(kind, 'GitHub Copilot CLI', 'copilot mcp add: the bridge, or HTTP with the token', ctx, shell,
				`copilot mcp add ${q(name)} -- ${shellLine(shell, bridge)}`,
				[
					'# Copilot CLI cannot read MCP resources: its model reaches the workspace through this server\'s',
					'# read-only tools (list_resources, read_resource, relevant_files, ...), which stay on unless',
					'# mcpResources.tools.enabled is false.',
				],
				ctx.url && headers ? [
					`# Or Streamable HTTP directly, until ${TOKEN_CHANGES} (then run this again with the new token):`,
					`copilot mcp add --transport http ${q(name)} ${q(ctx.url)} --header ${q(`Authorization: ${headers.Authorization}`)}`,
				] : undefined);
		case 'cursor': {
			const servers: Record<string, unknown> = { [name]: bridge };
			if (ctx.url && headers) {
				servers[`${name}-http`] = { url: ctx.url, headers };
			}
			return withNotes(kind, 'Cursor', '~/.cursor/mcp.json or .cursor/mcp.json: the bridge, or HTTP with the token', [
				'// Merge into ~/.cursor/mcp.json (all projects) or .cursor/mcp.json (this project).',
				`// "${name}" runs the bridge and finds the window again whatever changed; "${name}-http" connects`,
				`// directly, until ${TOKEN_CHANGES}. Keep one of the two.`,
				...bridgeNotes(ctx, '//'),
			], { mcpServers: servers });
		}
		case 'vscode': {
			const server = ctx.url && headers ? { type: 'http', url: ctx.url, headers } : { type: 'stdio', ...bridge };
			return withNotes(kind, 'VS Code mcp.json', 'Copilot Chat in this window needs nothing: the extension registers the server itself', [
				'// Copilot Chat in this window already finds the server: the extension registers it with VS Code',
				'// (MCP: List Servers shows "MCP Workspace Resources"). Use this only for another VS Code setup,',
				'// in .vscode/mcp.json or the user mcp.json (MCP: Open User Configuration). Its token works',
				`// until ${TOKEN_CHANGES}; for a lasting entry use`,
				'// { "type": "stdio", "command": "node", "args": [...] } with the bridge, as in the Claude Desktop configuration.',
				...remoteNote(ctx, '//'),
			], { servers: { [name]: server } });
		}
	}
}
