// The body of the walk's worker thread (bundled alone as dist/walkWorker.js; ThreadWalker starts
// it): the same walk, filters and symlink checks as an index in the main thread, into a scratch
// store whose files and directories are posted back in batches (WalkRecorder), then "done".
import { parentPort, workerData } from 'node:worker_threads';
import { rootDirectories, walkFolders } from '../core/files/directoryWalk';
import { FileFilter } from '../core/files/fileFilter';
import { FileIndex } from '../core/files/fileIndex';
import { transferablesOf, WalkBatch, WalkDone, WalkRecorder, WalkRequest } from '../core/files/walkBatch';
import { WorkspaceRoots } from '../core/files/workspaceRoots';
import { FileSettings, FileSystemReader, WorkspaceFolder } from '../core/ports';
import { NodeFileSystem } from './nodeFileSystem';

/** What the worker posts to the thread that started it. */
export type WalkWorkerMessage = { kind: 'batch'; batch: WalkBatch } | { kind: 'done'; done: WalkDone } | { kind: 'failed'; message: string };

/** A filter that also reports each `.gitignore` it loads, for the receiving index's filter. */
class ReportingFilter extends FileFilter {
	constructor(reader: FileSystemReader, settings: FileSettings, private readonly report: (folder: WorkspaceFolder, rel: string, text: string | null) => void) {
		super(reader, settings);
	}

	override async loadGitignore(folder: WorkspaceFolder, dirRel: string, present: boolean): Promise<string | null> {
		const text = await super.loadGitignore(folder, dirRel, present);
		if (this.settings.respectGitignore) {
			this.report(folder, dirRel, text);
		}
		return text;
	}
}

async function walk(request: WalkRequest, post: (message: WalkWorkerMessage) => void): Promise<void> {
	const reader = new NodeFileSystem();
	const roots = await WorkspaceRoots.resolve(request.folders, reader);
	// Called only once the walk runs, when the recorder exists.
	const filter = new ReportingFilter(reader, request.settings, (folder, rel, text) => recorder.gitignore(roots.folders.indexOf(folder), rel, text));
	const index = new FileIndex(reader, roots, filter);
	rootDirectories(index); // both sides intern the roots first, alike: the recorder describes what comes after
	const recorder = new WalkRecorder(index.store, batch => post({ kind: 'batch', batch }));
	await walkFolders(index, recorder.file);
	recorder.flush();
	post({ kind: 'done', done: { refusedLinks: index.refusedLinkUris() } });
}

if (parentPort) {
	const port = parentPort;
	const post = (message: WalkWorkerMessage) => port.postMessage(message, message.kind === 'batch' ? transferablesOf(message.batch) : []);
	walk(workerData as WalkRequest, post).catch((err: unknown) => post({ kind: 'failed', message: err instanceof Error ? err.message : String(err) }));
}
