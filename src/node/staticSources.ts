import * as path from 'node:path';
import { Event } from '../common/event';
import { FileSettings, SettingsSource, WorkspaceFolder, WorkspaceFoldersSource } from '../core/ports';
import { unusedName } from '../core/unusedName';

/** Folders fixed for the life of the process (the CLI's --root arguments). */
export class StaticFolders implements WorkspaceFoldersSource {
	private readonly list: WorkspaceFolder[];
	readonly onDidChange = Event.None as Event<void>;

	constructor(roots: readonly string[]) {
		const taken = new Set<string>();
		// A folder named twice (`--root . --root ./`) is one folder: served twice, each of its
		// files would be listed twice under one URI, and its repository twice under two names.
		const folders = [...new Set(roots.map(root => path.resolve(root)))];
		this.list = folders.map(abs => ({ name: unusedName(path.basename(abs) || 'root', taken), path: abs }));
	}

	folders(): readonly WorkspaceFolder[] {
		return this.list;
	}
}

export class StaticSettings implements SettingsSource<FileSettings> {
	readonly onDidChange = Event.None as Event<void>;
	constructor(private readonly value: FileSettings) {}
	get(): FileSettings {
		return this.value;
	}
}
