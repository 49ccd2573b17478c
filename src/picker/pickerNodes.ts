import { FolderServer } from './folderServers';
import { ListedResource, ListedTemplate } from './listedItems';
import type { TextMatch } from './textMatches';

export type GroupKind = 'files' | 'problems' | 'git' | 'editor' | 'other' | 'templates';
/** The groups that hold listed resources (templates come from their own list). */
export type ResourceGroupKind = Exclude<GroupKind, 'templates'>;

export const GROUP_ORDER: readonly GroupKind[] = ['files', 'problems', 'git', 'editor', 'other', 'templates'];
export const GROUP_LABELS: Readonly<Record<GroupKind, string>> = {
	files: 'Files', problems: 'Problems', git: 'Git', editor: 'Editor', other: 'Other', templates: 'Templates',
};

/** The group a resource belongs to, by URI scheme. */
export function groupOf(uri: string): ResourceGroupKind {
	const scheme = uri.slice(0, uri.indexOf(':')).toLowerCase();
	switch (scheme) {
		case 'file': return 'files';
		case 'diagnostics': return 'problems';
		case 'git': return 'git';
		case 'editor': return 'editor';
		default: return 'other';
	}
}

// Every node has a `key`: unique in the tree and the same for the same row across refreshes
// (the view uses it as the TreeItem id, so expansion and selection survive a refresh).

export interface ServerNode {
	readonly kind: 'server';
	readonly serverId: string;
	readonly key: string;
}
export interface GroupNode {
	readonly kind: 'group';
	readonly serverId: string;
	readonly group: GroupKind;
	readonly key: string;
}
export interface FolderNode {
	readonly kind: 'folder';
	readonly serverId: string;
	readonly key: string;
	readonly name: string;
	/** Folder path inside the files tree ('' for the root). */
	readonly path: string;
	readonly folders: Map<string, FolderNode>;
	readonly files: ResourceNode[];
	/** Resources anywhere below. */
	count: number;
	sorted: boolean;
}
export interface ResourceNode {
	readonly kind: 'resource';
	readonly serverId: string;
	readonly key: string;
	readonly resource: ListedResource;
	readonly group: ResourceGroupKind;
	/** Label: the file name for files, the name (or title) otherwise. */
	readonly label: string;
	/** Path shown and filtered on: the workspace-relative path for files. */
	readonly path: string;
}
export interface TemplateNode {
	readonly kind: 'template';
	readonly serverId: string;
	readonly key: string;
	readonly template: ListedTemplate;
}
/** What a "More…" row pages through: a folder's or group's children, or a server's filter matches. */
export type PagedList = 'children' | 'matches';
/** The row after the shown part of a long list: clicking it shows one page more of `parentKey`. */
export interface MoreNode {
	readonly kind: 'more';
	readonly serverId: string;
	readonly key: string;
	/** The key of the list it pages: a folder's or group's key, or the server's filter list. */
	readonly parentKey: string;
	readonly list: PagedList;
	readonly remaining: number;
}
/** A line of state: loading, an error, an empty group. */
export interface StatusNode {
	readonly kind: 'status';
	readonly serverId: string;
	readonly key: string;
	/** `notice`: the list is incomplete on purpose (a cap was reached, or the server's paging was broken). */
	readonly status: 'loading' | 'error' | 'empty' | 'info' | 'notice';
	readonly message: string;
}

export type PickerNode = ServerNode | GroupNode | FolderNode | ResourceNode | TemplateNode | MoreNode | StatusNode;

/** A server from folder settings the user has not allowed: a row that only offers a review. */
export interface HeldServerNode {
	readonly kind: 'held';
	readonly serverId: string;
	readonly key: string;
	readonly held: FolderServer;
}

/** "Suggested": what the server says matters now, at the top of a server. */
export interface SuggestedGroupNode {
	readonly kind: 'suggested';
	readonly serverId: string;
	readonly key: string;
}

/** "Text matches": under a filtered server that offers search://text, the lines holding the filter. */
export interface TextMatchesGroupNode {
	readonly kind: 'textMatches';
	readonly serverId: string;
	readonly key: string;
}

/** One matched line: its checkbox selects the line's own URI (`file:///…?lines=N`). */
export interface TextLineNode {
	readonly kind: 'line';
	readonly serverId: string;
	readonly key: string;
	readonly match: TextMatch;
}

/** Every row of the view: the picker's nodes, the held folder servers, the Suggested and Text matches groups. */
export type ViewNode = PickerNode | HeldServerNode | SuggestedGroupNode | TextMatchesGroupNode | TextLineNode;
