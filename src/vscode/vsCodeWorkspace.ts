import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { FileChangeEvent, FileWatcher, WatchFilter, WorkspaceFolder, WorkspaceFoldersSource } from '../core/ports';

/** The window's local (file:) workspace folders. */
export class VsCodeFolders implements WorkspaceFoldersSource, vscode.Disposable {
	private readonly emitter = new Emitter<void>();
	readonly onDidChange = this.emitter.event;
	private readonly subscription = vscode.workspace.onDidChangeWorkspaceFolders(() => this.emitter.fire());

	folders(): readonly WorkspaceFolder[] {
		return (vscode.workspace.workspaceFolders ?? [])
			.filter(f => f.uri.scheme === 'file')
			.map(f => ({ name: f.name, path: f.uri.fsPath }));
	}

	dispose(): void {
		this.subscription.dispose();
		this.emitter.dispose();
	}
}

/** Batches raw events briefly so a burst reaches the index as a few batches. */
const BATCH_MS = 20;

/** File events from VS Code's own watcher (which honours files.watcherExclude). */
export class VsCodeWatcher implements FileWatcher {
	private readonly emitter = new Emitter<readonly FileChangeEvent[]>();
	readonly onDidChange = this.emitter.event;
	private watchers: vscode.Disposable[] = [];
	private batch: FileChangeEvent[] = [];
	private timer: NodeJS.Timeout | undefined;
	private folderKey: string | undefined;

	watch(folders: readonly WorkspaceFolder[], _ignored: WatchFilter): void {
		// The index starts the watch before its walk and asks again after it: the same folders
		// keep the watchers they have, so nothing reported in between is dropped.
		const folderKey = folders.map(f => f.path).join('\0');
		if (folderKey === this.folderKey && this.watchers.length > 0) {
			return;
		}
		this.folderKey = folderKey;
		this.disposeWatchers();
		for (const folder of folders) {
			const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder.path), '**/*'));
			const push = (kind: FileChangeEvent['kind']) => (uri: vscode.Uri) => this.push({ kind, path: uri.fsPath });
			this.watchers.push(
				watcher,
				watcher.onDidCreate(push('created')),
				watcher.onDidChange(push('changed')),
				watcher.onDidDelete(push('deleted')),
			);
		}
	}

	private push(event: FileChangeEvent): void {
		this.batch.push(event);
		this.timer ??= setTimeout(() => {
			this.timer = undefined;
			const events = this.batch;
			this.batch = [];
			this.emitter.fire(events);
		}, BATCH_MS);
	}

	private disposeWatchers(): void {
		for (const d of this.watchers) {
			d.dispose();
		}
		this.watchers = [];
	}

	dispose(): void {
		if (this.timer) {
			clearTimeout(this.timer);
		}
		this.disposeWatchers();
		this.emitter.dispose();
	}
}
