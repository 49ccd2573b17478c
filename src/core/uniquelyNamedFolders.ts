import * as path from 'node:path';
import { Emitter } from '../common/event';
import { Disposable } from '../common/lifecycle';
import { WorkspaceFolder, WorkspaceFoldersSource } from './ports';
import { unusedName } from './unusedName';

/**
 * Another folders source with every folder under a name of its own that is one path segment.
 * Names prefix file names and diagnostics paths in multi-root workspaces, and paths are resolved
 * back through them: two folders both named `app` (from different parents) would give two files
 * one name, and a name with a `/` (a `.code-workspace` may say anything) could not be resolved.
 * The second `app` becomes `app-2`, as the headless host names them. A folder keeps its name for
 * as long as it stays open, whatever is added or removed around it, so the names (and URIs built
 * from them) a client holds stay true; a name is free again once its folder is removed.
 */
export class UniquelyNamedFolders extends Disposable implements WorkspaceFoldersSource {
	private readonly changeEmitter = this._register(new Emitter<void>());
	readonly onDidChange = this.changeEmitter.event;
	private list: readonly WorkspaceFolder[] = [];

	constructor(private readonly source: WorkspaceFoldersSource) {
		super();
		this.rename();
		this._register(source.onDidChange(() => {
			this.rename();
			this.changeEmitter.fire();
		}));
	}

	folders(): readonly WorkspaceFolder[] {
		return this.list;
	}

	private rename(): void {
		const current = this.source.folders();
		const nameOfPath = new Map(this.list.map(f => [f.path, f.name]));
		const kept = current.map(f => nameOfPath.get(f.path));
		const taken = new Set(kept.filter(name => name !== undefined));
		this.list = current.map((f, i) => ({ name: kept[i] ?? unusedName(segmentName(f), taken), path: f.path }));
	}
}

/** The folder's own name made one path segment; its path's last segment when nothing is left. */
function segmentName(folder: WorkspaceFolder): string {
	const name = folder.name.replace(/[/\\\0]+/g, '-');
	if (name !== '' && name !== '.' && name !== '..') {
		return name;
	}
	return path.basename(folder.path) || 'root';
}
