import type { ServerEntry } from './pickerService';
import { FolderNode, GroupNode, StatusNode } from './pickerNodes';

function row(serverId: string, key: string, status: StatusNode['status'], message: string): StatusNode {
	return { kind: 'status', serverId, key, status, message };
}

/**
 * The row a server shows while it has nothing listed: why (an error to retry, a reason it is
 * unavailable) or what it is doing (connecting, loading). None once it has resources, or when
 * it listed nothing.
 */
export function serverStateRow(server: ServerEntry): StatusNode | undefined {
	const { connection, resources } = server;
	if (resources.size > 0) {
		return undefined;
	}
	const key = `${server.id}|status`;
	const state = connection.state;
	if (state.kind === 'error') {
		return row(server.id, key, 'error', `${state.message} — click to retry`);
	}
	if (state.kind === 'unavailable') {
		return row(server.id, key, 'info', state.message);
	}
	if (resources.state.kind === 'error') {
		return row(server.id, key, 'error', `${resources.state.message} — click to retry`);
	}
	if (resources.state.kind !== 'complete') {
		return row(server.id, key, 'loading', state.kind === 'connected' ? 'Loading…' : 'Connecting…');
	}
	return undefined;
}

/** The row saying why a server's list stopped early, when it did. */
export function listNoticeRows(server: ServerEntry): StatusNode[] {
	const load = server.resources.state;
	return load.kind === 'complete' && load.notice ? [row(server.id, `${server.id}|notice`, 'notice', load.notice)] : [];
}

/** The row saying why the template list stopped early, when it did. */
export function templatesNoticeRows(server: ServerEntry, group: GroupNode): StatusNode[] {
	const notice = server.resources.templatesNotice;
	return notice ? [row(server.id, `${group.key}|notice`, 'notice', notice)] : [];
}

/**
 * Under a filtered server with no match: still looking, or none. `byName`: a Text matches group
 * follows, so the row says it is the names that do not match.
 */
export function noMatchesRow(server: ServerEntry, byName = false): StatusNode {
	const loading = server.resources.state.kind === 'loading';
	const none = byName ? 'No name matches' : 'No matches';
	return row(server.id, `${server.id}|status`, 'empty', loading ? `${none} yet (still loading)…` : none);
}

/** At the end of a group or the files root while pages are still coming in. */
export function loadingRows(server: ServerEntry, node: GroupNode | FolderNode): StatusNode[] {
	const load = server.resources.state;
	return load.kind === 'loading' && (node.kind === 'group' || node.path === '')
		? [row(server.id, `${node.key}|loading`, 'loading', `Loading… ${load.loaded.toLocaleString('en-US')} so far`)]
		: [];
}

/** Under "Text matches" while it has no line: still searching, or none found. */
export function textStateRows(server: ServerEntry, searching: boolean): StatusNode[] {
	return [row(server.id, `${server.id}|textMatches|status`, searching ? 'loading' : 'empty', searching ? 'Searching…' : 'No text matches')];
}
