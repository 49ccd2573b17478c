/** The count of a directory that was released (see `sweep`): a second note of it is then passed over. */
const RELEASED = -1;
/** Directories released between two looks at the slice. */
const SWEEP_SLICE = 4096;

/**
 * What keeps each directory of a table: the files in it and the directories interned below it.
 * One that nothing holds is noted when it comes to that (its last file was released, its last
 * subdirectory went, or it was interned for a file that turned out hidden or walked and found
 * empty), and released at the next `sweep`. So the table holds the directories on the way to
 * listed files, not every one ever seen: tools that keep making uniquely named directories
 * (hashed build output, test runners' temp dirs, `node_modules/.cache/<hash>`) grew it by an
 * entry a directory for the life of the window while the file count stayed flat.
 *
 * Counting costs one addition per file added or released; only directories that fell to zero
 * are looked at again, so a sweep is as long as what changed, not as the table.
 */
export class DirectoryHolds {
	/** Per directory number: files plus subdirectories, or `RELEASED`. A plain array: directories are few next to files. */
	private readonly counts: number[] = [];
	/** Directories noted as held by nothing since the last sweep (some may be held again by now). */
	private noted: number[] = [];

	/** A directory just interned: held by nothing yet, it holds its parent. A folder root (no parent) is held for good. */
	interned(dir: number, parent: number): void {
		if (parent < 0) {
			this.counts[dir] = 1;
			return;
		}
		this.counts[dir] = 0;
		this.noted.push(dir);
		this.counts[parent]++;
	}

	hold(dir: number): void {
		this.counts[dir]++;
	}

	drop(dir: number): void {
		if (--this.counts[dir] === 0) {
			this.noted.push(dir);
		}
	}

	/**
	 * Forgets the notes of directories held again (after a walk, most directories noted when
	 * they were interned hold files by now), keeping the others for the next sweep.
	 */
	trim(): void {
		this.noted = this.noted.filter(dir => this.counts[dir] === 0);
	}

	/**
	 * Releases the noted directories nothing holds any more, then their parents that this leaves
	 * held by nothing. `release` forgets a directory and gives its parent. Nothing may intern,
	 * hold or drop a directory until the sweep is done (it runs at the end of a store's commit).
	 */
	async sweep(release: (dir: number) => number, pause: () => Promise<void> | undefined): Promise<void> {
		const noted = this.noted;
		if (noted.length === 0) {
			return; // most batches: no directory came or went
		}
		// The list grows while it is read: a parent left held by nothing is noted at its end.
		for (let i = 0; i < noted.length; i++) {
			if (i % SWEEP_SLICE === SWEEP_SLICE - 1) {
				const wait = pause();
				if (wait) {
					await wait;
				}
			}
			const dir = noted[i];
			if (this.counts[dir] === 0) {
				this.counts[dir] = RELEASED;
				this.drop(release(dir));
			}
		}
		this.noted = [];
	}
}
