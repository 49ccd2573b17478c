import { FileSymbols } from './fileSymbols';
import { NameMatch } from './nameMatch';

/** Files per shard: a shard's names are one string, rebuilt (a few hundred KB) when one of its files changes. */
const FILES_PER_SHARD = 2_048;

interface Shard {
	readonly files: (FileSymbols | undefined)[];
	/** Every file's lower-case names, `\n` between them all; rebuilt before a search when `dirty`. */
	lower: string;
	/** The files with names, in the order of `lower`, and where each one's names start there. */
	inLower: FileSymbols[];
	starts: Int32Array;
	dirty: boolean;
}

/** Where a file is held. */
interface Slot {
	readonly shard: Shard;
	readonly index: number;
}

/**
 * Every file's packed symbols, grouped in shards whose lower-case names form one string each, so
 * a search runs `indexOf` and one regular expression over large strings (native code) instead of
 * a loop per file and per name: only the names around a hit are looked at one by one.
 */
export class SymbolShards {
	private readonly shards: Shard[] = [];
	private readonly slots = new Map<string, Slot>();

	get size(): number {
		return this.slots.size;
	}

	get(uri: string): FileSymbols | undefined {
		const slot = this.slots.get(uri);
		return slot?.shard.files[slot.index];
	}

	set(uri: string, file: FileSymbols): void {
		const slot = this.slots.get(uri);
		if (slot) {
			slot.shard.files[slot.index] = file;
			slot.shard.dirty = true;
			return;
		}
		let shard = this.shards[this.shards.length - 1];
		if (!shard || shard.files.length >= FILES_PER_SHARD) {
			shard = { files: [], lower: '', inLower: [], starts: new Int32Array(0), dirty: true };
			this.shards.push(shard);
		}
		shard.files.push(file);
		shard.dirty = true;
		this.slots.set(uri, { shard, index: shard.files.length - 1 });
	}

	/** Forgets a file. Its slot stays empty until the shard is compacted (when half of it is empty). */
	delete(uri: string): void {
		const slot = this.slots.get(uri);
		if (!slot) {
			return;
		}
		this.slots.delete(uri);
		slot.shard.files[slot.index] = undefined;
		slot.shard.dirty = true;
	}

	/**
	 * Calls `found` for each name matching `query` (lower case): exact, prefix and substring hits
	 * of `indexOf`, then, while `fuzzy()` says looser matches may still rank, names holding the
	 * query's characters in order. Stops, returning false, once `inTime()` says no.
	 */
	search(query: string, fuzzy: () => boolean, inTime: () => boolean, found: (file: FileSymbols, i: number, match: NameMatch) => void): boolean {
		for (const shard of this.shards) {
			if (!inTime()) {
				return false;
			}
			this.refresh(shard);
			const { lower } = shard;
			for (let at = lower.indexOf(query); at >= 0;) {
				const { file, i, start, end } = locate(shard, at);
				found(file, i, at === start ? (end - start === query.length ? NameMatch.Exact : NameMatch.Prefix) : NameMatch.Substring);
				at = lower.indexOf(query, end + 1);
			}
		}
		if (!fuzzy()) {
			return true;
		}
		const letters = inOrder(query);
		for (const shard of this.shards) {
			if (!inTime()) {
				return false;
			}
			const { lower } = shard;
			letters.lastIndex = 0;
			for (let m = letters.exec(lower); m; m = letters.exec(lower)) {
				const { file, i, start, end } = locate(shard, m.index);
				// A name holding the whole query was found above.
				if (!lower.slice(start, end).includes(query)) {
					found(file, i, NameMatch.Fuzzy);
				}
				letters.lastIndex = end + 1;
			}
		}
		return true;
	}

	private refresh(shard: Shard): void {
		if (!shard.dirty) {
			return;
		}
		if (shard.files.filter(f => f !== undefined).length < shard.files.length / 2) {
			// Compact: the slots of the files left move, so their entries are set again.
			const kept = shard.files.filter(f => f !== undefined);
			for (const [uri, slot] of this.slots) {
				if (slot.shard === shard) {
					this.slots.set(uri, { shard, index: kept.indexOf(slot.shard.files[slot.index]!) });
				}
			}
			shard.files.length = 0;
			shard.files.push(...kept);
		}
		const inLower = shard.files.filter((f): f is FileSymbols => f !== undefined && f.count > 0);
		const starts = new Int32Array(inLower.length);
		let offset = 0;
		inLower.forEach((file, index) => {
			starts[index] = offset;
			offset += file.lower.length + 1;
		});
		shard.lower = inLower.map(f => f.lower).join('\n');
		shard.inLower = inLower;
		shard.starts = starts;
		shard.dirty = false;
	}
}

/** The file and name at an offset of a shard's string, with the name's start and end there. */
function locate(shard: Shard, at: number): { file: FileSymbols; i: number; start: number; end: number } {
	const { starts } = shard;
	let lo = 0;
	let hi = starts.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if (starts[mid] <= at) {
			lo = mid;
		} else {
			hi = mid - 1;
		}
	}
	const file = shard.inLower[lo];
	const local = at - starts[lo];
	let a = 0;
	let b = file.count - 1;
	while (a < b) {
		const mid = (a + b + 1) >> 1;
		if (file.starts[mid] <= local) {
			a = mid;
		} else {
			b = mid - 1;
		}
	}
	return { file, i: a, start: starts[lo] + file.starts[a], end: starts[lo] + file.starts[a + 1] - 1 };
}

/**
 * A regular expression for the query's characters in order within one name: each next character
 * after any run of others, never crossing a `\n`. `[^c\n]*c` takes the first `c`, so a match
 * never backtracks through the runs.
 */
function inOrder(query: string): RegExp {
	const escape = (ch: string) => ch.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
	let source = escape(query[0]);
	for (const ch of query.slice(1)) {
		source += `[^${escape(ch)}\\n]*${escape(ch)}`;
	}
	return new RegExp(source, 'g');
}
