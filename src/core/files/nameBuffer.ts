import { growArray } from './growArray';

/**
 * File names as UTF-8 in one buffer, a start and a length per file number: a million names as
 * strings would be a million objects for the collector to copy and mark, and twice the bytes.
 * Removed names stay as dead bytes until `compact` copies the live ones once they dominate.
 */
export class NameBuffer {
	private bytes = Buffer.allocUnsafe(1 << 16);
	private used = 0;
	/** Bytes of names of removed files, reclaimed by `compact`. */
	private dead = 0;
	private starts: Uint32Array;
	private lengths: Uint32Array;

	constructor(capacity: number) {
		this.starts = new Uint32Array(capacity);
		this.lengths = new Uint32Array(capacity);
	}

	/** Room for `capacity` file numbers. */
	resize(capacity: number): void {
		this.starts = growArray(this.starts, new Uint32Array(capacity));
		this.lengths = growArray(this.lengths, new Uint32Array(capacity));
	}

	set(slot: number, name: string): void {
		const room = name.length * 3;
		if (this.used + room > this.bytes.length) {
			const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + room));
			this.bytes.copy(bigger, 0, 0, this.used);
			this.bytes = bigger;
		}
		this.starts[slot] = this.used;
		this.lengths[slot] = this.bytes.write(name, this.used, 'utf8');
		this.used += this.lengths[slot];
	}

	get(slot: number): string {
		const start = this.starts[slot];
		return this.bytes.toString('utf8', start, start + this.lengths[slot]);
	}

	release(slot: number): void {
		this.dead += this.lengths[slot];
		this.lengths[slot] = 0;
	}

	/**
	 * Copies the names of present files (slots below `slotCount`) into a new buffer once most
	 * of it belongs to removed files (many branch switches). Readers see the old buffer until
	 * the swap at the end.
	 */
	async compact(slotCount: number, pause: () => Promise<void> | undefined): Promise<void> {
		if (this.dead < 1 << 20 || this.dead * 2 < this.used) {
			return;
		}
		const bytes = Buffer.allocUnsafe(Math.max(1 << 16, Math.ceil((this.used - this.dead) * 1.5)));
		const starts = new Uint32Array(this.starts.length);
		let used = 0;
		for (let slot = 0; slot < slotCount; slot++) {
			if ((slot & 0xffff) === 0xffff) {
				const wait = pause();
				if (wait) {
					await wait;
				}
			}
			const length = this.lengths[slot];
			if (length > 0) {
				this.bytes.copy(bytes, used, this.starts[slot], this.starts[slot] + length);
				starts[slot] = used;
				used += length;
			}
		}
		this.bytes = bytes;
		this.starts = starts;
		this.used = used;
		this.dead = 0;
	}
}
