import { FSWatcher, watch } from 'chokidar';
import { Emitter } from '../common/event';
import { Logger } from '../common/logger';
import { FileChangeEvent, FileWatcher, WatchFilter, WorkspaceFolder } from '../core/ports';

/** Batches raw events for this long so a burst reaches the index as a few batches. */
const BATCH_MS = 20;

/**
 * Headless file watching with chokidar (inotify per directory); ignored directories such as
 * node_modules are never watched, so watches stay proportional to what is served.
 */
export class ChokidarWatcher implements FileWatcher {
	private readonly emitter = new Emitter<readonly FileChangeEvent[]>();
	readonly onDidChange = this.emitter.event;
	private watcher: FSWatcher | undefined;
	private batch: FileChangeEvent[] = [];
	private timer: NodeJS.Timeout | undefined;

	constructor(private readonly log: Logger) {}

	watch(folders: readonly WorkspaceFolder[], ignored: WatchFilter): void {
		void this.watcher?.close();
		const watcher = watch(folders.map(f => f.path), {
			ignoreInitial: true,
			followSymlinks: false,
			ignored: (p, stats) => ignored(p, stats ? stats.isDirectory() : undefined),
		});
		const push = (kind: FileChangeEvent['kind']) => (p: string) => this.push({ kind, path: p });
		watcher.on('add', push('created'));
		watcher.on('addDir', push('created'));
		watcher.on('change', push('changed'));
		watcher.on('unlink', push('deleted'));
		watcher.on('unlinkDir', push('deleted'));
		watcher.on('error', err => this.log.warn(`file watcher: ${String(err)}`));
		this.watcher = watcher;
	}

	/** Resolves when the initial watch setup has finished (tests wait for it). */
	whenReady(): Promise<void> {
		const watcher = this.watcher;
		if (!watcher) {
			return Promise.resolve();
		}
		return new Promise(resolve => watcher.once('ready', () => resolve()));
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

	dispose(): void {
		if (this.timer) {
			clearTimeout(this.timer);
		}
		void this.watcher?.close();
		this.watcher = undefined;
		this.emitter.dispose();
	}
}
