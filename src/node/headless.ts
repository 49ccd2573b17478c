import { Logger } from '../common/logger';
import { ChangeTrackerOptions } from '../core/changeTracker';
import { FilesProvider } from '../core/files/filesProvider';
import { FileWatcher, noOpenDocuments } from '../core/ports';
import { ProviderRegistry } from '../core/registry';
import { ChokidarWatcher } from './chokidarWatcher';
import { NodeFileSystem } from './nodeFileSystem';
import { StaticFolders, StaticSettings } from './staticSources';

export interface HeadlessOptions {
	readonly roots: readonly string[];
	readonly exclude?: readonly string[];
	readonly secrets?: readonly string[];
	readonly respectGitignore?: boolean;
	readonly maxFileSize?: number;
	readonly log: Logger;
	/** Defaults to a chokidar watcher. */
	readonly watcher?: FileWatcher;
	readonly trackerOptions?: ChangeTrackerOptions;
}

export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/** The registry the headless host serves: files from node:fs, changes from a file watcher. */
export function createHeadlessRegistry(options: HeadlessOptions): { registry: ProviderRegistry; files: FilesProvider } {
	const files = new FilesProvider({
		folders: new StaticFolders(options.roots),
		reader: new NodeFileSystem(),
		watcher: options.watcher ?? new ChokidarWatcher(options.log),
		documents: noOpenDocuments,
		settings: new StaticSettings({
			exclude: options.exclude ?? [],
			secrets: options.secrets ?? [],
			respectGitignore: options.respectGitignore ?? true,
			maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
			maxFileSizeSetting: '--max-file-size',
		}),
		log: options.log,
	});
	const registry = new ProviderRegistry([files], options.trackerOptions);
	files.start();
	return { registry, files };
}
