import { GrowArray } from '../files/growArray';
import { SignatureHolders } from './signatureStore';

/** Slots the arrays grow by (one chunk of a `GrowArray`). */
const RESERVE_STEP = 1 << 16;

/** A file's text not looked at yet (new, or changed since). */
export const PENDING = 0;
/** Its signature is current. */
export const INDEXED = 1;
/** Nothing to search in it: binary, over the size cap, or no longer readable as served. */
export const SKIPPED = 2;

/**
 * The files the search index holds, a slot each, as parallel typed arrays and one array of display
 * paths: an object per file, with its numbers boxed, cost several times as much at a million
 * files. Slots of removed files are used again. The signatures themselves are in a
 * `SignatureStore`; a slot keeps its signature's address and length (0: none).
 */
export class IndexedFiles implements SignatureHolders {
	private readonly displays: (string | undefined)[] = [];
	private readonly slotsByDisplay = new Map<string, number>();
	private readonly free: number[] = [];
	private live = 0;
	/** Slots the typed arrays have room for. */
	private reserved = 0;
	/** The folder each file is in (index of `IndexSetup.roots`). */
	readonly folders = new GrowArray('uint16');
	readonly sizes = new GrowArray('float64');
	readonly mtimes = new GrowArray('float64');
	/** PENDING, INDEXED or SKIPPED. */
	readonly states = new GrowArray('uint8');
	/** A stamp that changes whenever the slot's file does, so a read that a change overtook stores nothing. */
	readonly generations = new GrowArray('uint32');
	readonly signatureAddresses = new GrowArray('float64');
	readonly signatureLengths = new GrowArray('uint32');

	/** Slots used so far (some may be free again: see `has`). */
	get count(): number {
		return this.displays.length;
	}

	/** Files held. */
	get size(): number {
		return this.live;
	}

	add(display: string, folder: number, size: number, mtimeMs: number, generation: number): number {
		const slot = this.free.pop() ?? this.displays.length;
		if (slot >= this.reserved) {
			this.reserve(slot + RESERVE_STEP);
		}
		this.displays[slot] = display;
		this.slotsByDisplay.set(display, slot);
		this.folders.set(slot, folder);
		this.sizes.set(slot, size);
		this.mtimes.set(slot, mtimeMs);
		this.states.set(slot, PENDING);
		this.generations.set(slot, generation);
		this.signatureLengths.set(slot, 0);
		this.live++;
		return slot;
	}

	remove(slot: number): void {
		this.slotsByDisplay.delete(this.displays[slot]!);
		this.displays[slot] = undefined;
		this.signatureLengths.set(slot, 0);
		this.free.push(slot);
		this.live--;
	}

	has(slot: number): boolean {
		return this.displays[slot] !== undefined;
	}

	display(slot: number): string {
		return this.displays[slot]!;
	}

	slotOf(display: string): number | undefined {
		return this.slotsByDisplay.get(display);
	}

	address(slot: number): number {
		return this.signatureAddresses.get(slot);
	}

	length(slot: number): number {
		return this.signatureLengths.get(slot);
	}

	moved(slot: number, address: number): void {
		this.signatureAddresses.set(slot, address);
	}

	private reserve(length: number): void {
		this.reserved = length;
		for (const numbers of [this.folders, this.sizes, this.mtimes, this.states, this.generations, this.signatureAddresses, this.signatureLengths]) {
			numbers.reserve(length);
		}
	}
}
