import { GrowArray } from './growArray';

/** Bytes per buffer of names; a name never spans two (names are at most a few hundred bytes). */
const BLOCK_BITS = 20;
const BLOCK_SIZE = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_SIZE - 1;
/** The longest name a 16-bit length holds (see `lengths`). */
const MAX_NAME_BYTES = 0xffff;

/**
 * File names as UTF-8 in a few large buffers, a start and a length per file number: a million
 * names as strings would be a million objects for the collector to copy and mark, and twice the
 * bytes. Buffers are added as names arrive, never copied to grow. Removed names stay as dead
 * bytes until `compact` copies the live ones once they dominate.
 */
export class NameBuffer {
	private blocks: Buffer[] = [];
	/** Where the next name goes: block number in the high bits, offset in the low ones. */
	private used = 0;
	/** Bytes of names of removed files, reclaimed by `compact`. */
	private dead = 0;
	private live = 0;
	private starts = new GrowArray('uint32');
	/**
	 * UTF-8 bytes per name: file systems cap a name at 255 bytes (Linux) or 255 UTF-16 units
	 * (macOS, Windows: at most 765 bytes), so 16 bits hold any real name with room to spare, at
	 * half the size of a 32-bit length.
	 */
	private readonly lengths = new GrowArray('uint16');

	/** Room for `length` file numbers. */
	reserve(length: number): void {
		this.starts.reserve(length);
		this.lengths.reserve(length);
	}

	set(slot: number, name: string): void {
		if (name.length * 3 > MAX_NAME_BYTES && Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) {
			throw new RangeError(`a file name of over ${MAX_NAME_BYTES} bytes`);
		}
		this.used = place(this.blocks, this.used, name.length * 3);
		const length = this.blocks[this.used >>> BLOCK_BITS].write(name, this.used & BLOCK_MASK, 'utf8');
		this.starts.set(slot, this.used);
		this.lengths.set(slot, length);
		this.used += length;
		this.live += length;
	}

	get(slot: number): string {
		const start = this.starts.get(slot);
		const offset = start & BLOCK_MASK;
		return this.blocks[start >>> BLOCK_BITS].toString('utf8', offset, offset + this.lengths.get(slot));
	}

	release(slot: number): void {
		const length = this.lengths.get(slot);
		this.dead += length;
		this.live -= length;
		this.lengths.set(slot, 0);
	}

	/**
	 * Copies the names of present files (slots below `slotCount`) into new buffers once most
	 * of the bytes belong to removed files (many branch switches). Readers see the old buffers
	 * until the swap at the end.
	 */
	async compact(slotCount: number, pause: () => Promise<void> | undefined): Promise<void> {
		if (this.dead < 1 << 20 || this.dead < this.live) {
			return;
		}
		const blocks: Buffer[] = [];
		const starts = new GrowArray('uint32');
		starts.reserve(slotCount);
		let used = 0;
		for (let slot = 0; slot < slotCount; slot++) {
			if ((slot & 0xffff) === 0xffff) {
				const wait = pause();
				if (wait) {
					await wait;
				}
			}
			const length = this.lengths.get(slot);
			if (length > 0) {
				used = place(blocks, used, length);
				const start = this.starts.get(slot);
				const offset = start & BLOCK_MASK;
				this.blocks[start >>> BLOCK_BITS].copy(blocks[used >>> BLOCK_BITS], used & BLOCK_MASK, offset, offset + length);
				starts.set(slot, used);
				used += length;
			}
		}
		this.blocks = blocks;
		this.starts = starts;
		this.used = used;
		this.dead = 0;
	}
}

/** Where `room` bytes go at or after `used`: there, or at the start of a new buffer. */
function place(blocks: Buffer[], used: number, room: number): number {
	if (used >>> BLOCK_BITS < blocks.length && (used & BLOCK_MASK) + room <= BLOCK_SIZE) {
		return used;
	}
	blocks.push(Buffer.allocUnsafe(BLOCK_SIZE));
	return (blocks.length - 1) * BLOCK_SIZE;
}
