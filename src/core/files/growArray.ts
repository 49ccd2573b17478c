const CHUNK_BITS = 16;
const CHUNK_LENGTH = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_LENGTH - 1;

/**
 * A growable array of numbers kept in typed chunks of 65,536: growing adds a chunk and never
 * copies. A doubling array leaves each old copy behind, and as those have lived long they are
 * freed only by a full collection, which an idle process may not run for minutes, so the
 * resident size carried them.
 */
export class GrowArray {
	private readonly chunks: (Uint8Array | Uint16Array | Uint32Array | Float64Array)[] = [];

	constructor(private readonly kind: 'uint8' | 'uint16' | 'uint32' | 'float64') {}

	get(index: number): number {
		return this.chunks[index >>> CHUNK_BITS][index & CHUNK_MASK];
	}

	set(index: number, value: number): void {
		this.chunks[index >>> CHUNK_BITS][index & CHUNK_MASK] = value;
	}

	/** Makes `get` and `set` valid below `length`. */
	reserve(length: number): void {
		while (this.chunks.length * CHUNK_LENGTH < length) {
			this.chunks.push(this.kind === 'uint8' ? new Uint8Array(CHUNK_LENGTH) : this.kind === 'uint16' ? new Uint16Array(CHUNK_LENGTH) : this.kind === 'uint32' ? new Uint32Array(CHUNK_LENGTH) : new Float64Array(CHUNK_LENGTH));
		}
	}
}
