import { Emitter } from '../../src/common/event';
import { FileChangeEvent, FileWatcher, WatchFilter, WorkspaceFolder } from '../../src/core/ports';

/** A watcher the test drives: `fire` delivers events as a real watcher would. */
export class FakeWatcher implements FileWatcher {
	private readonly emitter = new Emitter<readonly FileChangeEvent[]>();
	readonly onDidChange = this.emitter.event;
	folders: readonly WorkspaceFolder[] = [];
	ignored: WatchFilter | undefined;

	watch(folders: readonly WorkspaceFolder[], ignored: WatchFilter): void {
		this.folders = folders;
		this.ignored = ignored;
	}

	fire(...events: FileChangeEvent[]): void {
		this.emitter.fire(events);
	}

	dispose(): void {
		this.emitter.dispose();
	}
}
