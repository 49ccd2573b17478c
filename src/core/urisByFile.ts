import { IDisposable, toDisposable } from '../common/lifecycle';
import { HeldUris } from './heldUris';

/**
 * URIs that name a resource other than by its own (listed) URI: a range of a file
 * (`?lines=1-9`), or the same resource spelled as a client wrote it (`~` unescaped, `%c3%a9`,
 * `file://localhost/`, `@` as a URI template expands it). Changes are found by the resource's own
 * URI; notifications must carry the URI the client subscribed with, byte for byte, or the client
 * never matches them. Kept under the URI changes name (`file`) for as long as a subscription
 * holds them (see HeldUris: none is dropped for another, or a client that subscribed to many
 * would end another's notifications); a read holds nothing, as only subscribers are notified.
 */
export class UrisByFile {
	private readonly byFile = new Map<string, HeldUris>();

	/** Holds `uri` under `file` (the URI its changes are named by) until the result is disposed. */
	hold(file: string, uri: string): IDisposable {
		let held = this.byFile.get(file);
		if (!held) {
			held = new HeldUris();
			this.byFile.set(file, held);
		}
		const hold = held.hold(uri);
		const set = held;
		return toDisposable(() => {
			hold.dispose();
			if (set.size === 0 && this.byFile.get(file) === set) {
				this.byFile.delete(file);
			}
		});
	}

	/** Distinct URIs held, over all files (diagnostics and tests). */
	get size(): number {
		let size = 0;
		this.byFile.forEach(held => size += held.size);
		return size;
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
				const held = this.byFile.get(file);
				if (held) {
					for (const uri of held) {
						found.push(uri);
					}
				}
			}
		}
		return found;
	}
}
