// The body of the walk's worker thread (bundled alone as dist/walkWorker.js; ThreadWalker starts
// it): the same walk, filters and symlink checks as an index in the main thread. Its own index
// only interns directories; what it finds is posted back in batches (WalkRecorder), paced by the
// receiver's acknowledgements, then "done".
import { parentPort, workerData } from 'node:worker_threads';
import { rootDirectories, walkFolders } from '../core/files/directoryWalk';
import { FileFilter } from '../core/files/fileFilter';
import { FileIndex } from '../core/files/fileIndex';
import { transferablesOf, WalkRecorder, WalkRequest } from '../core/files/walkBatch';
import { WorkspaceRoots } from '../core/files/workspaceRoots';
import { FileSettings, FileSystemReader, WorkspaceFolder } from '../core/ports';
import { NodeFileSystem } from './nodeFileSystem';
import { giveWayToEventLoops } from './threadPriority';
import { BATCH_APPLIED, WalkWorkerMessage } from './walkMessages';

/**
 * Batches posted and not yet applied by the receiving index: the walk waits while this many are,
 * so a walk faster than the index's slices cannot pile up a million files in messages.
 */
const MAX_UNAPPLIED = 4;

/** Counts unapplied batches and holds walkers back while there are too many. */
export class Pacing {
	private unapplied = 0;
	private waiters: (() => void)[] = [];

	posted(): void {
		this.unapplied++;
	}

	applied(): void {
		this.unapplied--;
		if (this.unapplied < MAX_UNAPPLIED) {
			this.waiters.splice(0).forEach(resume => resume());
		}
	}

	/** Undefined while the index keeps up, else a promise of its catching up. */
	wait(): Promise<void> | undefined {
		return this.unapplied < MAX_UNAPPLIED ? undefined : new Promise<void>(resolve => this.waiters.push(resolve));
	}
}

/** The walk's index, paced by the receiver instead of sliced: nothing else runs on this thread. */
class PacedIndex extends FileIndex {
	constructor(reader: FileSystemReader, roots: WorkspaceRoots, filter: FileFilter, private readonly pacing: Pacing) {
		super(reader, roots, filter);
	}

	override pause(): Promise<void> | undefined {
		return this.pacing.wait();
	}
}

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

async function walk(request: WalkRequest, post: (message: WalkWorkerMessage) => void, pacing: Pacing): Promise<void> {
	const reader = new NodeFileSystem();
	const roots = await WorkspaceRoots.resolve(request.folders, reader);
	// Called only once the walk runs, when the recorder exists.
	const filter = new ReportingFilter(reader, request.settings, (folder, rel, text) => recorder.gitignore(roots.folders.indexOf(folder), rel, text));
	const index = new PacedIndex(reader, roots, filter, pacing);
	await filter.loadRepositoryRules(roots.folders);
	rootDirectories(index); // both sides intern the roots first, alike: the recorder describes what comes after
	const recorder = new WalkRecorder(index.store, batch => {
		pacing.posted();
		post({ kind: 'batch', batch });
	});
	await walkFolders(index, recorder.file);
	recorder.flush();
	post({ kind: 'done', done: index.links.handOver() });
}

if (parentPort) {
	const port = parentPort;
	giveWayToEventLoops();
	const post = (message: WalkWorkerMessage) => port.postMessage(message, message.kind === 'batch' ? transferablesOf(message.batch) : []);
	const pacing = new Pacing();
	port.on('message', (message: unknown) => {
		if (message === BATCH_APPLIED) {
			pacing.applied();
		}
	});
	walk(workerData as WalkRequest, post, pacing).catch((err: unknown) => post({ kind: 'failed', message: err instanceof Error ? err.message : String(err) }));
}
