/** Other spellings of subscribed resources a provider remembers at once. */
export const MAX_SPELLINGS = 1_000;

/**
 * URIs that name a resource other than by its own (listed) URI: a range of a file
 * (`?lines=1-9`), or the same resource spelled as a client wrote it (`~` unescaped, `%c3%a9`,
 * `file://localhost/`, `@` as a URI template expands it). Changes are found by the resource's own
 * URI; notifications must carry the URI the client subscribed with, byte for byte, or the client
 * never matches them. Kept by own URI, the one first added forgotten first once more than `max`
 * URIs are held.
 */
export class UrisByFile {
	private readonly byFile = new Map<string, Set<string>>();
	private count = 0;

	constructor(private readonly max: number) {}

	add(file: string, uri: string): void {
		let set = this.byFile.get(file);
		if (set?.has(uri)) {
			return;
		}
		if (!set) {
			set = new Set();
			this.byFile.set(file, set);
		}
		set.add(uri);
		this.count++;
		// Forget the oldest file's URIs past the bound: they are learned again on the next read
		// or subscription.
		while (this.count > this.max) {
			const [oldest, uris] = this.byFile.entries().next().value!;
			this.byFile.delete(oldest);
			this.count -= uris.size;
		}
	}

	/** `files` and the URIs held for them: everything to announce when those files change. */
	withHeld(files: readonly string[]): readonly string[] {
		const held = this.among(files);
		return held.length === 0 ? files : [...files, ...held];
	}

	/** The URIs held for the files among `files`. */
	among(files: readonly string[]): string[] {
		const found: string[] = [];
		if (this.byFile.size > 0) {
			// No array per file: a burst of changes names thousands, of which few are held.
			for (const file of files) {
				this.byFile.get(file)?.forEach(uri => found.push(uri));
			}
		}
		return found;
	}
}
