import type { ServerState } from '../mcp/serverRunner';

/**
 * Why the picker does not list "This workspace", or `ok` when it does. The extension sets it as
 * the context key `mcpResources.picker.workspaceState`, and package.json's `viewsWelcome` shows,
 * when the view is empty, the welcome with the buttons that resolve each state.
 */
export type WorkspaceState = 'ok' | BlockedWorkspaceState;

/** The states that hide "This workspace", each with its welcome in package.json. */
export const BLOCKED_WORKSPACE_STATES = ['noFolder', 'restricted', 'disabled', 'error'] as const;
export type BlockedWorkspaceState = typeof BLOCKED_WORKSPACE_STATES[number];

/** What the picker shows about this window's own server: its state, and the view's message. */
export interface WorkspaceNotice {
	readonly state: WorkspaceState;
	/**
	 * One line above the tree while "This workspace" is not listed, for when other servers fill
	 * the view (the welcome shows only in an empty view).
	 */
	readonly note?: string;
}

/**
 * The notice for a window with `folderCount` workspace folders whose server is in `server`'s
 * state. A window without a folder comes first: its server serves no files, and no client can be
 * connected to it. A server still starting, or stopped on the way to a restart, is listed.
 */
export function workspaceNotice(folderCount: number, server: ServerState): WorkspaceNotice {
	if (folderCount === 0) {
		return { state: 'noFolder', note: 'This workspace is not listed: no folder is open. Open one and its files, problems and git state are served.' };
	}
	if (server.kind === 'stopped' && server.reason === 'restricted') {
		return { state: 'restricted', note: 'This workspace is not listed: in Restricted Mode its MCP server serves nothing until you trust the folder.' };
	}
	if (server.kind === 'stopped' && server.reason === 'disabled') {
		return { state: 'disabled', note: 'This workspace is not listed: its MCP server is turned off (setting mcpResources.enabled).' };
	}
	if (server.kind === 'error') {
		return { state: 'error', note: `This workspace is not listed: its MCP server could not start (${server.message}). Restart it from the status bar, or see the log.` };
	}
	return { state: 'ok' };
}
