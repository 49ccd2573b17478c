import { ByteLru } from '../byteLru';
import { ResourceContent } from '../resource';

/** Bytes of answers kept between changes; least recently read go first. */
export const GIT_CACHE_BYTES = 32 * 1024 * 1024;

interface CacheRecord {
	readonly value: Promise<ResourceContent[]>;
}

/**
 * Answers by URI, computed once and shared by concurrent reads, kept until their repository
 * changes, bounded in bytes.
 */
export class GitAnswerCache {
	private readonly lru: ByteLru<CacheRecord>;

	constructor(maxBytes = GIT_CACHE_BYTES) {
		this.lru = new ByteLru(maxBytes);
	}

	/** Bytes the cache holds. */
	get bytes(): number {
		return this.lru.bytes;
	}

	/** A cached answer, or undefined. */
	get(key: string): Promise<ResourceContent[]> | undefined {
		return this.lru.get(key)?.value;
	}

	/** The cached answer for `key`, or `compute`'s. */
	getOrCompute(key: string, compute: () => Promise<ResourceContent[]>): Promise<ResourceContent[]> {
		const hit = this.lru.get(key);
		if (hit) {
			return hit.value;
		}
		const record: CacheRecord = { value: compute() };
		// Pending, it is counted by its key; once answered, by what it holds.
		this.lru.set(key, record, key.length * 2);
		record.value.then(contents => {
			if (this.lru.peek(key) === record) {
				this.lru.set(key, record, key.length * 2 + contentBytes(contents));
			}
		}, () => {
			if (this.lru.peek(key) === record) {
				this.lru.delete(key);
			}
		});
		return record.value;
	}

	/** Drops the answers whose key (URI) `changed` says a repository change made stale. */
	dropWhere(changed: (uri: string) => boolean): void {
		this.lru.deleteWhere(uri => changed(uri));
	}

	clear(): void {
		this.lru.clear();
	}
}

/** What cached contents hold, counted as UTF-16 code units (how V8 may store them). */
function contentBytes(contents: readonly ResourceContent[]): number {
	let bytes = 0;
	for (const c of contents) {
		bytes += (c.uri.length + ('text' in c ? c.text.length : c.blob.length)) * 2;
	}
	return bytes;
}
