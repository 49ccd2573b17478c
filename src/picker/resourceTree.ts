import { FilterIndex } from './filter';
import { ListedResource } from './listedItems';
import { FolderNode, groupOf, ResourceGroupKind, ResourceNode } from './pickerNodes';

/** The path a files-group resource is shown under: its name when that is a relative path, else the URI path. */
export function filePathOf(resource: ListedResource): string {
	const name = resource.name;
	if (name && !name.startsWith('/') && !/^[a-z]+:/i.test(name) && !name.includes('\\')) {
		return name;
	}
	try {
		return decodeURIComponent(new URL(resource.uri).pathname).replace(/^\/+/, '');
	} catch {
		return name || resource.uri;
	}
}

function compareNames(a: string, b: string): number {
	const la = a.toLowerCase();
	const lb = b.toLowerCase();
	return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/**
 * One server's listed resources arranged as the picker shows them: files in a folder tree built
 * from their names, everything else in flat groups by URI scheme, all in a filter index. Pages
 * are added as they arrive; a folder's children are sorted when first asked for, not per page.
 */
export class ResourceTree {
	readonly root: FolderNode;
	private readonly byUri = new Map<string, ResourceNode>();
	private readonly flat = new Map<ResourceGroupKind, ResourceNode[]>();
	private readonly index = new FilterIndex<ResourceNode>();
	private readonly folders = new Map<string, FolderNode>();

	constructor(readonly serverId: string) {
		this.root = this.newFolder('', '');
	}

	get size(): number {
		return this.byUri.size;
	}

	resource(uri: string): ResourceNode | undefined {
		return this.byUri.get(uri);
	}

	/** All resources added so far (in listing order). */
	all(): IterableIterator<ResourceNode> {
		return this.byUri.values();
	}

	folder(key: string): FolderNode | undefined {
		return this.folders.get(key);
	}

	groupCount(group: ResourceGroupKind): number {
		return group === 'files' ? this.root.count : this.flat.get(group)?.length ?? 0;
	}

	/** The resources of a group other than files, in listing order. */
	groupResources(group: Exclude<ResourceGroupKind, 'files'>): readonly ResourceNode[] {
		return this.flat.get(group) ?? [];
	}

	/** A folder's subfolders, then its files, each by name. */
	folderChildren(folder: FolderNode): (FolderNode | ResourceNode)[] {
		if (!folder.sorted) {
			folder.files.sort((a, b) => compareNames(a.label, b.label));
			folder.sorted = true;
		}
		const folders = [...folder.folders.values()].sort((a, b) => compareNames(a.name, b.name));
		return (folders as (FolderNode | ResourceNode)[]).concat(folder.files);
	}

	search(query: string, limit: number): { matches: ResourceNode[]; total: number } {
		const result = this.index.search(query, limit);
		return { matches: result.matches.map(m => m.item), total: result.total };
	}

	/** Merges a page in; returns how many of its resources were new. */
	add(resources: readonly ListedResource[]): number {
		const before = this.byUri.size;
		for (const resource of resources) {
			if (this.byUri.has(resource.uri)) {
				continue; // a server paging while its list changes may repeat an item
			}
			const group = groupOf(resource.uri);
			const path = group === 'files' ? filePathOf(resource) : resource.name || resource.uri;
			const slash = path.lastIndexOf('/');
			const label = group === 'files' ? path.slice(slash + 1) : resource.title || resource.name || resource.uri;
			const node: ResourceNode = { kind: 'resource', serverId: this.serverId, key: `${this.serverId}|r|${resource.uri}`, resource, group, label, path };
			this.byUri.set(resource.uri, node);
			this.index.add(node, path, resource.uri);
			if (group === 'files') {
				this.addFile(node, slash);
			} else {
				let list = this.flat.get(group);
				if (!list) {
					list = [];
					this.flat.set(group, list);
				}
				list.push(node);
			}
		}
		return this.byUri.size - before;
	}

	/** Files go under the folders of their path (`slash`: where its last `/` is). */
	private addFile(node: ResourceNode, slash: number): void {
		const path = node.path;
		let folder = this.root;
		folder.count++;
		let start = 0;
		while (start <= slash) {
			const end = path.indexOf('/', start);
			const segment = path.slice(start, end);
			let child = folder.folders.get(segment);
			if (!child) {
				child = this.newFolder(segment, folder.path ? `${folder.path}/${segment}` : segment);
				folder.folders.set(segment, child);
			}
			folder = child;
			folder.count++;
			start = end + 1;
		}
		folder.files.push(node);
		folder.sorted = false;
	}

	private newFolder(name: string, path: string): FolderNode {
		const key = `${this.serverId}|d|${path}`;
		const folder: FolderNode = { kind: 'folder', serverId: this.serverId, key, name, path, folders: new Map(), files: [], count: 0, sorted: true };
		this.folders.set(key, folder);
		return folder;
	}
}
