import * as path from 'node:path';
import { FileSystemReader, WorkspaceFolder } from '../ports';
import { relativeInside } from '../../common/pathContainment';

export interface Located {
	readonly folder: WorkspaceFolder;
	/** Workspace-relative path with `/` separators. */
	readonly rel: string;
}

/** The workspace folders with their resolved real paths, for containment checks. */
export class WorkspaceRoots {
	private constructor(
		readonly folders: readonly WorkspaceFolder[],
		private readonly realFolders: readonly WorkspaceFolder[],
	) {}

	static async resolve(folders: readonly WorkspaceFolder[], reader: FileSystemReader): Promise<WorkspaceRoots> {
		const normalized = folders.map(f => ({ name: f.name, path: path.resolve(f.path) }));
		const reals = await Promise.all(normalized.map(async f => {
			try {
				return { name: f.name, path: await reader.realpath(f.path) };
			} catch {
				return f;
			}
		}));
		return new WorkspaceRoots(normalized, reals);
	}

	get isMultiRoot(): boolean {
		return this.folders.length > 1;
	}

	/** The folder an absolute path lies in (the innermost when folders nest), by its spelling. */
	locate(absPath: string): Located | undefined {
		return this.find(this.folders, absPath);
	}

	/** The folder a resolved real path lies in. */
	locateReal(realPath: string): Located | undefined {
		const found = this.find(this.realFolders, realPath);
		if (!found) {
			return undefined;
		}
		// Report the folder as the user named it, not by its real path.
		const index = this.realFolders.indexOf(found.folder);
		return { folder: this.folders[index], rel: found.rel };
	}

	/** The name shown for a file: its relative path, prefixed by the folder name in multi-root. */
	displayName(located: Located): string {
		return this.isMultiRoot ? `${located.folder.name}/${located.rel}` : located.rel;
	}

	private find(folders: readonly WorkspaceFolder[], absPath: string): Located | undefined {
		let best: Located | undefined;
		for (const folder of folders) {
			const rel = relativeInside(folder.path, absPath);
			if (rel !== undefined && (!best || folder.path.length > best.folder.path.length)) {
				best = { folder, rel };
			}
		}
		return best;
	}
}
