import { nullLogger } from '../../src/common/logger';
import { FilesProvider } from '../../src/core/files/filesProvider';
import { noOpenDocuments, WorkspaceFoldersSource } from '../../src/core/ports';
import { WorkspaceScope } from '../../src/core/workspaceScope';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { FakeSettings } from '../fakes/fakeSettings';
import { FakeWatcher } from '../fakes/fakeWatcher';

/**
 * A workspace scope over the real rule, as the hosts build it: a files provider (with a watcher
 * the test drives) decides, and the scope asks it. The scope owns the files provider here, so
 * disposing the provider that owns the scope disposes both.
 */
export function scopeOver(folders: WorkspaceFoldersSource, settings = new FakeSettings()): { scope: WorkspaceScope; files: FilesProvider; watcher: FakeWatcher } {
	const reader = new NodeFileSystem();
	const watcher = new FakeWatcher();
	const files = new FilesProvider({ folders, reader, watcher, documents: noOpenDocuments, settings, log: nullLogger });
	const scope = new WorkspaceScope(folders, files, reader);
	const dispose = scope.dispose.bind(scope);
	scope.dispose = () => {
		dispose();
		files.dispose();
	};
	return { scope, files, watcher };
}
