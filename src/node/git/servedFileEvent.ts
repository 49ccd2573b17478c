import { statSync } from 'node:fs';
import { isInsideFolder, relativeInside } from '../../common/pathContainment';
import { FileChangeEvent } from '../../core/ports';

/** The files provider's rule by name; `isDirectory` when the path names a folder (`build/` patterns apply). */
export type ServedByName = (absPath: string, isDirectory?: boolean) => boolean;

/**
 * Whether a workspace file event can move what git shows of the working tree: it names a path
 * the files provider serves (by name: secrets and ignored files are left out of status and
 * diffs, so a write to one moves nothing they show, and notifying it would tell a subscriber it
 * happened), and a write or a creation names a file. A folder's own event moves nothing git
 * lists (its files have events of their own), and by name alone `build` passes a `build/`
 * pattern that ignores the folder. A deleted path cannot be looked at: it counts when its name is
 * served both as a file and as a folder, so removing an ignored `build/` tells nothing (a served
 * file named like an ignored folder, gone, is not told: git's next read still shows it).
 */
export function isServedFileEvent(event: FileChangeEvent, isServedNow: ServedByName): boolean {
	if (!isServedNow(event.path)) {
		return false;
	}
	if (event.kind === 'deleted') {
		return isServedNow(event.path, true);
	}
	return statSync(event.path, { throwIfNoEntry: false })?.isFile() === true;
}

/** Whether `absPath` lies in a repository's working tree: under its root and not in its git folder. */
export function isInWorkingTree(root: string, gitDir: string, absPath: string): boolean {
	return relativeInside(root, absPath) !== undefined && !isInsideFolder(gitDir, absPath);
}
