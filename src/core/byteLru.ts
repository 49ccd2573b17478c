/**
 * A least-recently-used map bounded by the bytes its values are said to take, so a client
 * that asks for many distinct keys (spellings of one commit, per-path diffs) cannot grow it
 * past `maxBytes`. Sizes are given by the caller; a value may be re-sized once it is known
 * (a pending answer takes little until it resolves).
 */
export class ByteLru<V> {
	private readonly entries = new Map<string, { value: V; bytes: number }>();
	private total = 0;

	constructor(readonly maxBytes: number) {}

	/** Bytes held by all entries. */
	get bytes(): number {
		return this.total;
	}

	get size(): number {
		return this.entries.size;
	}

	/** The value, now the most recently used. */
	get(key: string): V | undefined {
		const entry = this.entries.get(key);
		if (entry) {
			this.entries.delete(key);
			this.entries.set(key, entry);
		}
		return entry?.value;
	}

	/** The value, without touching its recency. */
	peek(key: string): V | undefined {
		return this.entries.get(key)?.value;
	}

	/**
	 * Stores `value` as the most recently used, dropping the least recently used entries until
	 * the total fits. A value larger than the whole bound is not kept (and replaces nothing).
	 */
	set(key: string, value: V, bytes: number): boolean {
		this.delete(key);
		if (bytes > this.maxBytes) {
			return false;
		}
		this.entries.set(key, { value, bytes });
		this.total += bytes;
		for (const [oldest] of this.entries) {
			if (this.total <= this.maxBytes) {
				break;
			}
			this.delete(oldest);
		}
		return true;
	}

	delete(key: string): void {
		const entry = this.entries.get(key);
		if (entry) {
			this.entries.delete(key);
			this.total -= entry.bytes;
		}
	}

	/** Drops every entry whose key and value satisfy `predicate`. */
	deleteWhere(predicate: (key: string, value: V) => boolean): void {
		for (const [key, entry] of [...this.entries]) {
			if (predicate(key, entry.value)) {
				this.delete(key);
			}
		}
	}

	clear(): void {
		this.entries.clear();
		this.total = 0;
	}
}
