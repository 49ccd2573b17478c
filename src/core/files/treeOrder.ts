import { compare, DirectoryTable } from './directoryTable';
import { GrowArray } from './growArray';

/** What `treeOrder` needs to know about the files of a store. */
export interface TreeOrderInput {
	readonly dirs: DirectoryTable;
	/** Per file number its directory number, or `free` for a slot that holds no file. */
	readonly dirOf: GrowArray;
	readonly slotCount: number;
	readonly free: number;
	/** The file's sort key among its siblings: its name as encoded in its URI. */
	keyOf(slot: number): string;
	/** Whether the directory's files came in key order (so by file number they are sorted). */
	isOrdered(dir: number): boolean;
	/** The file's full URI (only for folders nested in other folders). */
	uriOf(slot: number): string;
}

/**
 * Whether each directory's files were added in key order, as the walk adds them: then
 * `treeOrder` needs no sort for that directory. A file out of order, or in a reused file
 * number (which breaks number order), marks its directory for a full sort.
 */
export class ArrivalOrder {
	private readonly lastKeys: (string | undefined)[] = [];
	private readonly unordered = new Set<number>();

	note(dir: number, key: string, reusedSlot: boolean): void {
		const last = this.lastKeys[dir];
		if (reusedSlot || (last !== undefined && key < last)) {
			this.unordered.add(dir);
		}
		this.lastKeys[dir] = key;
	}

	isOrdered(dir: number): boolean {
		return !this.unordered.has(dir);
	}
}

/**
 * Every file number in URI order (code units), from scratch: files grouped by directory, then
 * one walk of the tree. A directory's files and subdirectories are ordered by encoded name, a
 * subdirectory's with a trailing `/`: exactly how the full URIs compare, so small sorts replace
 * one sort of all URIs. The walk adds each directory's files in key order, so most directories
 * need no sort at all: only their subdirectories are placed among the files, by binary search.
 * `pause` is awaited between directories so the event loop is never held.
 */
export async function treeOrder(input: TreeOrderInput, pause: () => Promise<void> | undefined): Promise<Uint32Array> {
	const { dirs, dirOf, slotCount, free } = input;
	// Files per directory, by counting: no array per directory.
	const dirCount = dirs.length;
	const starts = new Uint32Array(dirCount + 1);
	for (let slot = 0; slot < slotCount; slot++) {
		const d = dirOf.get(slot);
		if (d !== free) {
			starts[d + 1]++;
		}
	}
	for (let d = 0; d < dirCount; d++) {
		starts[d + 1] += starts[d];
	}
	const byDir = new Uint32Array(starts[dirCount]);
	const fill = starts.slice(0, dirCount);
	for (let slot = 0; slot < slotCount; slot++) {
		const d = dirOf.get(slot);
		if (d !== free) {
			byDir[fill[d]++] = slot;
		}
	}
	const subdirs: number[][] = Array.from({ length: dirCount }, () => []);
	const roots: number[] = [];
	for (let d = 0; d < dirCount; d++) {
		if (!dirs.has(d)) {
			continue; // a released number, free (no file is in it)
		}
		const parent = dirs.get(d).parent;
		(parent < 0 ? roots : subdirs[parent]).push(d);
	}
	const order = new Uint32Array(byDir.length);
	let length = 0;
	const nested = roots.some(r => roots.some(o => o !== r && dirs.get(r).base.startsWith(dirs.get(o).base)));
	// Roots by URI and `/`; a folder inside another is rare and gets the plain sort below.
	roots.sort((a, b) => compare(dirs.get(a).base, dirs.get(b).base));
	const visit = async (d: number): Promise<void> => {
		const files = input.isOrdered(d) ? byDir.subarray(starts[d], starts[d + 1]) : sortedByKey(input, byDir.subarray(starts[d], starts[d + 1]));
		const subs = subdirs[d];
		if (subs.length > 1) {
			subs.sort((a, b) => compare(dirs.get(a).key, dirs.get(b).key));
		}
		let f = 0;
		for (const sub of subs) {
			// The files before it: keys never tie, as a file's has no `/` and a directory's ends in one.
			const key = dirs.get(sub).key;
			let lo = f;
			let hi = files.length;
			while (lo < hi) {
				const mid = (lo + hi) >>> 1;
				if (input.keyOf(files[mid]) < key) {
					lo = mid + 1;
				} else {
					hi = mid;
				}
			}
			order.set(files.subarray(f, lo), length);
			length += lo - f;
			f = lo;
			const wait = pause();
			if (wait) {
				await wait;
			}
			await visit(sub);
		}
		order.set(files.subarray(f), length);
		length += files.length - f;
	};
	for (const root of roots) {
		await visit(root);
	}
	const walked = order.subarray(0, length);
	if (!nested) {
		return walked;
	}
	const uris = Array.from(walked, slot => input.uriOf(slot));
	const index = uris.map((_, i) => i).sort((a, b) => compare(uris[a], uris[b]));
	return Uint32Array.from(index, i => walked[i]);
}

function sortedByKey(input: TreeOrderInput, slots: Uint32Array): Uint32Array {
	const keys = Array.from(slots, slot => input.keyOf(slot));
	const index = keys.map((_, i) => i).sort((a, b) => compare(keys[a], keys[b]));
	return Uint32Array.from(index, i => slots[i]);
}
