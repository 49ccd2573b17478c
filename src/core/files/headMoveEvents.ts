import * as path from 'node:path';
import { MovedPath } from '../git/headMoveRecheck';
import { FileChangeEvent } from '../ports';
import { fileUri } from '../uriGuard';
import { FileIndex } from './fileIndex';

/**
 * Listed files stat'ed per call: `statMany` stats synchronously, holding the loop meanwhile, so
 * a switch's thousands of paths go in short runs between the index's turns of the event loop.
 */
const STAT_BATCH = 64;

/** A listed file of the index that a HEAD move rewrote: where it is and its number in the store. */
interface ListedPath {
	readonly path: string;
	readonly slot: number;
}

/**
 * The watcher events that bring the index to what a HEAD move left on disk, for the paths git
 * says the move changed (a watcher may drop a few events of a branch switch). A path is taken by
 * its spelling inside a folder, else by its real path when a folder is a link.
 * - A path whose existence the index gets wrong (listed though deleted, or the reverse), and any
 *   `.gitignore`, is reported as changed: the index then judges it as any watcher event.
 * - A listed path the move kept is stat'ed, and reported only when the listing's size or
 *   modification date differs from the disk's: its change event was dropped. The others were
 *   reported by the watcher already; checking a switch's thousands of paths again through the
 *   watcher's path cost the editor's host much CPU, and would tell subscribers of
 *   changes they had heard of.
 */
export async function eventsForHeadMove(index: FileIndex, paths: readonly MovedPath[]): Promise<FileChangeEvent[]> {
	const events: FileChangeEvent[] = [];
	let kept: ListedPath[] = [];
	for (const { absPath, deleted } of paths) {
		// Thousands of lookups: the loop lets the event loop turn as the batches do.
		const wait = index.pause();
		if (wait) {
			await wait;
		}
		const located = index.roots.locate(absPath) ? undefined : index.roots.locateReal(absPath);
		const spelled = located ? path.join(located.folder.path, located.rel) : absPath;
		const slot = index.store.find(fileUri(spelled));
		// A `.gitignore` changes the rules, whatever the index lists.
		if (slot < 0 !== deleted || path.basename(spelled) === '.gitignore') {
			events.push({ kind: 'changed', path: spelled });
		} else if (slot >= 0) {
			kept.push({ path: spelled, slot });
			if (kept.length === STAT_BATCH) {
				await addStale(index, kept, events);
				kept = [];
			}
		}
	}
	await addStale(index, kept, events);
	return events;
}

/** Adds a change event for each of `kept` whose listed size or date is not the disk's. */
async function addStale(index: FileIndex, kept: readonly ListedPath[], events: FileChangeEvent[]): Promise<void> {
	if (kept.length === 0) {
		return;
	}
	const infos = await index.reader.statMany(kept.map(file => file.path));
	kept.forEach((file, i) => {
		const info = infos[i];
		if (!info || info.kind !== 'file' || !index.store.listsSizeAndTime(file.slot, info.size, info.mtimeMs)) {
			events.push({ kind: 'changed', path: file.path });
		}
	});
}
