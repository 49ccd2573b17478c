/**
 * The URIs that open `subscriptions/listen` streams acknowledged, counted per stream. The SDK's
 * listen router matches every published URI against every stream; asking it only about URIs
 * someone listens to keeps a burst of thousands of changed files from costing a publish each.
 */
export class ListenedUris {
	private readonly counts = new Map<string, number>();

	/** Holds `uris` until the returned function is called (when the stream ends). */
	hold(uris: readonly string[]): () => void {
		const held = [...new Set(uris)];
		for (const uri of held) {
			this.counts.set(uri, (this.counts.get(uri) ?? 0) + 1);
		}
		let released = false;
		return () => {
			if (released) {
				return;
			}
			released = true;
			for (const uri of held) {
				const left = (this.counts.get(uri) ?? 1) - 1;
				if (left > 0) {
					this.counts.set(uri, left);
				} else {
					this.counts.delete(uri);
				}
			}
		};
	}

	/** The URIs among `updated` that some stream listens to. */
	among(updated: readonly string[]): string[] {
		return this.counts.size === 0 ? [] : [...new Set(updated.filter(uri => this.counts.has(uri)))];
	}

	get size(): number {
		return this.counts.size;
	}
}
