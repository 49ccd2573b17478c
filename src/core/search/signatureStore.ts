/** Words of a slab: signatures are copied one after another into slabs of this size. */
const SLAB_WORDS = 1 << 20;
/** A signature larger than this gets a slab of its own: it would leave too much of one unused. */
const LARGEST_SHARED = SLAB_WORDS >>> 3;
/** A slab at most this full is emptied by `compact` (its signatures move to the last slab). */
const SPARSE_WORDS = (SLAB_WORDS * 3) >>> 2;

/** Where signatures are held, for `SignatureStore.compact`: each holder's address and length (0: none). */
export interface SignatureHolders {
	readonly count: number;
	address(holder: number): number;
	length(holder: number): number;
	moved(holder: number, address: number): void;
}

/**
 * The index's signatures, copied into a few large slabs instead of a typed array each: a typed
 * array, its buffer and the allocation behind it cost about as much again as a small file's
 * signature, per file, and a million small allocations that live for hours fragment the heap they
 * are made in. A signature is found by its address (a slab and a word in it) and its length,
 * which the caller keeps. A freed signature's words are not used again until its whole slab is
 * free, or `compact` moves what is left in mostly free slabs to the end. Signatures are never
 * written over in place, so a view `get` gave out stays what it was.
 */
export class SignatureStore {
	private readonly slabs: (Int32Array | undefined)[] = [];
	/** Live words per slab. */
	private readonly used: number[] = [];
	private readonly freeSlabs: number[] = [];
	/** The slab being filled, and how far. */
	private current = -1;
	private fill = 0;

	/** Copies a signature in; returns its address. */
	put(signature: Int32Array): number {
		const address = this.place(signature.length);
		this.get(address, signature.length).set(signature);
		return address;
	}

	/**
	 * Copies in a signature given as its bytes (native byte order, a multiple of 4, at any offset:
	 * as a cache file holds it); returns its address.
	 */
	putBytes(bytes: Uint8Array): number {
		const address = this.place(bytes.length >>> 2);
		const words = this.get(address, bytes.length >>> 2);
		new Uint8Array(words.buffer, words.byteOffset, bytes.length).set(bytes);
		return address;
	}

	/** Whether no signature is held. */
	get empty(): boolean {
		return this.used.every(words => words === 0);
	}

	/** A view of a held signature (not a copy: nothing else is ever written where it lies). */
	get(address: number, length: number): Int32Array {
		const slab = Math.floor(address / SLAB_WORDS);
		const at = address - slab * SLAB_WORDS;
		return this.slabs[slab]!.subarray(at, at + length);
	}

	/** `test` on a held signature's words where they lie ([start, end) of a slab): no view made. */
	probe<T>(address: number, length: number, test: (words: Int32Array, start: number, end: number) => T): T {
		const slab = Math.floor(address / SLAB_WORDS);
		const at = address - slab * SLAB_WORDS;
		return test(this.slabs[slab]!, at, at + length);
	}

	/** The signature at `address` is no longer held; a slab left empty is let go. */
	free(address: number, length: number): void {
		const slab = Math.floor(address / SLAB_WORDS);
		this.used[slab] -= length;
		if (this.used[slab] === 0 && slab !== this.current) {
			this.slabs[slab] = undefined;
			this.freeSlabs.push(slab);
		}
	}

	/** Words of the slabs `compact` would empty that nothing uses: worth the move once large. */
	reclaimable(): number {
		let words = 0;
		let live = 0;
		this.slabs.forEach((slab, i) => {
			live += this.used[i];
			if (this.isSparse(i)) {
				words += slab!.length - this.used[i];
			}
		});
		return words >= 2 * SLAB_WORDS && words * 8 >= live ? words : 0;
	}

	/**
	 * Moves the signatures of mostly free slabs to the end and lets those slabs go, when enough is
	 * free to be worth it (`reclaimable`). Tells each holder of a moved signature its new address.
	 */
	compact(holders: SignatureHolders): void {
		if (this.reclaimable() === 0) {
			return;
		}
		const sparse = new Set<number>();
		this.slabs.forEach((_, i) => this.isSparse(i) && sparse.add(i));
		for (let holder = 0; holder < holders.count; holder++) {
			const length = holders.length(holder);
			const address = holders.address(holder);
			if (length > 0 && sparse.has(Math.floor(address / SLAB_WORDS))) {
				holders.moved(holder, this.put(this.get(address, length)));
			}
		}
		for (const slab of sparse) {
			this.slabs[slab] = undefined;
			this.used[slab] = 0;
			this.freeSlabs.push(slab);
		}
	}

	/** Room for `length` words (a slab of its own when large); returns its address. */
	private place(length: number): number {
		if (length > LARGEST_SHARED) {
			const own = this.newSlab(length);
			this.used[own] = length;
			return own * SLAB_WORDS;
		}
		if (this.current < 0 || this.fill + length > SLAB_WORDS) {
			this.current = this.newSlab(SLAB_WORDS);
			this.fill = 0;
		}
		const at = this.fill;
		this.fill += length;
		this.used[this.current] += length;
		return this.current * SLAB_WORDS + at;
	}

	/** A shared slab, not the one being filled, at most `SPARSE_WORDS` full. */
	private isSparse(slab: number): boolean {
		const words = this.slabs[slab];
		return words !== undefined && slab !== this.current && words.length === SLAB_WORDS && this.used[slab] <= SPARSE_WORDS;
	}

	private newSlab(words: number): number {
		const slab = this.freeSlabs.pop() ?? this.slabs.length;
		this.slabs[slab] = new Int32Array(words);
		this.used[slab] = 0;
		return slab;
	}
}
