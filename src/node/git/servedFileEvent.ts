import { statSync } from 'node:fs';
import { FileChangeEvent } from '../../core/ports';

/**
 * Whether a workspace file event can move what git shows of the working tree: it names a path
 * the files provider serves (by name: secrets and ignored files are left out of status and
 * diffs, so a write to one moves nothing they show, and notifying it would tell a subscriber it
 * happened), and a write or a creation names a file. A folder's own event moves nothing git
 * lists (its files have events of their own), and by name alone `build` passes a `build/`
 * pattern that ignores the folder. A deleted path cannot be looked at: it counts by name.
 */
export function isServedFileEvent(event: FileChangeEvent, isServedNow: (absPath: string) => boolean): boolean {
	if (!isServedNow(event.path)) {
		return false;
	}
	return event.kind === 'deleted' || statSync(event.path, { throwIfNoEntry: false })?.isFile() === true;
}
