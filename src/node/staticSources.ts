import { realpathSync } from 'node:fs';
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
		// A folder named twice (`--root . --root ./`, or through a link to it) is one folder,
		// served under the first spelling: served twice, each of its files would be listed twice
		// under one URI, and its repository twice under two names.
		const firstSpellingOfFolder = new Map<string, string>();
		for (const root of roots) {
			const abs = path.resolve(root);
			const folder = realFolder(abs);
			if (!firstSpellingOfFolder.has(folder)) {
				firstSpellingOfFolder.set(folder, abs);
			}
		}
		this.list = [...firstSpellingOfFolder.values()].map(abs => ({ name: unusedName(path.basename(abs) || 'root', taken), path: abs }));
	}

	folders(): readonly WorkspaceFolder[] {
		return this.list;
	}
}

/** The folder a path names, links resolved; the path itself when it cannot be resolved (gone). */
function realFolder(abs: string): string {
	try {
		return realpathSync(abs);
	} catch {
		return abs;
	}
}

export class StaticSettings implements SettingsSource<FileSettings> {
	readonly onDidChange = Event.None as Event<void>;
	constructor(private readonly value: FileSettings) {}
	get(): FileSettings {
		return this.value;
	}
}
