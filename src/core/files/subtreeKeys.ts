/** Keys looked at between two looks at the slice. */
const SCAN_SLICE = 4096;

/**
 * Deletes from maps keyed by a folder's relative directory paths (`a/b`; '' is the folder
 * root, never given here) the keys of the directories in `gone` and of every directory below
 * them. Each map must hold the ancestors of every key it holds: a gone directory that is no key
 * then has nothing below it either, and costs a lookup (the watcher's deleted paths are mostly
 * files, many under ignored directories such as `node_modules/`). Otherwise one pass over the
 * keys (a directory knows none of its subdirectories), in slices so the event loop is not
 * held for long, once per batch that deleted a directory the maps hold. Children lists would
 * make that a lookup, at a cost in memory for every directory kept.
 */
export async function deleteSubtrees(maps: readonly Map<string, unknown>[], gone: Iterable<string>, pause: () => Promise<void> | undefined): Promise<void> {
	const tops = new Set<string>();
	for (const rel of gone) {
		if (maps.some(map => map.has(rel))) {
			tops.add(rel);
		}
	}
	if (tops.size === 0) {
		return;
	}
	const one = tops.size === 1 ? [...tops][0] : undefined;
	const under = one === undefined ? '' : `${one}/`;
	let looked = 0;
	for (const map of maps) {
		// Deleting the key just visited leaves a map's iteration where it was.
		for (const key of map.keys()) {
			if (one !== undefined ? key === one || key.startsWith(under) : isAtOrBelow(key, tops)) {
				map.delete(key);
			}
			if (++looked % SCAN_SLICE === 0) {
				const wait = pause();
				if (wait) {
					await wait;
				}
			}
		}
	}
}

/** Whether `key` or one of its ancestors (by `/`) is in `dirs`. */
function isAtOrBelow(key: string, dirs: ReadonlySet<string>): boolean {
	if (dirs.has(key)) {
		return true;
	}
	for (let slash = key.lastIndexOf('/'); slash > 0; slash = key.lastIndexOf('/', slash - 1)) {
		if (dirs.has(key.slice(0, slash))) {
			return true;
		}
	}
	return false;
}
