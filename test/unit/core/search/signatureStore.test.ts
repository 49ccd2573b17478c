import * as assert from 'node:assert/strict';
import { SignatureHolders, SignatureStore } from '../../../../src/core/search/signatureStore';

/** Signatures of many lengths whose words tell which one they are. */
function signature(id: number, length: number): Int32Array {
	const words = new Int32Array(length);
	for (let i = 0; i < length; i++) {
		words[i] = Math.imul(id + 1, 0x9e3779b1) ^ i;
	}
	return words;
}

/** Holders as plain arrays, as the index keeps them per slot. */
class Holders implements SignatureHolders {
	readonly addresses: number[] = [];
	readonly lengths: number[] = [];
	get count(): number {
		return this.addresses.length;
	}
	address(holder: number): number {
		return this.addresses[holder];
	}
	length(holder: number): number {
		return this.lengths[holder];
	}
	moved(holder: number, address: number): void {
		this.addresses[holder] = address;
	}
}

describe('search index: signatures kept in shared slabs', () => {
	/** About 20 MB of signatures: several slabs, one signature too large to share one. */
	function filled(): { store: SignatureStore; holders: Holders; lengthOf: (id: number) => number } {
		const store = new SignatureStore();
		const holders = new Holders();
		const lengthOf = (id: number) => (id === 7 ? 300_000 : 3 + (id * 37) % 5000);
		for (let id = 0; id < 2000; id++) {
			holders.addresses.push(store.put(signature(id, lengthOf(id))));
			holders.lengths.push(lengthOf(id));
		}
		return { store, holders, lengthOf };
	}

	function assertHeld(store: SignatureStore, holders: Holders, lengthOf: (id: number) => number): void {
		for (let id = 0; id < holders.count; id++) {
			if (holders.lengths[id] > 0) {
				assert.deepEqual(store.get(holders.addresses[id], holders.lengths[id]), signature(id, lengthOf(id)), `signature ${id}`);
			}
		}
	}

	it('gives back each signature as it was put, across slabs and for one larger than a shared slab takes', () => {
		const { store, holders, lengthOf } = filled();
		assertHeld(store, holders, lengthOf);
	});

	it('moves what is left in mostly freed slabs, telling each holder, and views given out before stay as they were', () => {
		const { store, holders, lengthOf } = filled();
		const before = new Map<number, Int32Array>();
		for (let id = 0; id < holders.count; id++) {
			if (id % 10 !== 0) {
				store.free(holders.addresses[id], holders.lengths[id]);
				holders.lengths[id] = 0;
			} else {
				before.set(id, store.get(holders.addresses[id], holders.lengths[id]));
			}
		}
		assert.ok(store.reclaimable() > 0, 'nine tenths freed is worth moving');
		const addresses = [...holders.addresses];
		store.compact(holders);
		assert.ok(holders.addresses.some((a, id) => holders.lengths[id] > 0 && a !== addresses[id]), 'some signature moved');
		assert.equal(store.reclaimable(), 0);
		assertHeld(store, holders, lengthOf);
		for (const [id, view] of before) {
			assert.deepEqual(view, signature(id, lengthOf(id)), `the view of ${id} taken before the move`);
		}
		// Put after the move, read with the others.
		holders.addresses[1] = store.put(signature(1, lengthOf(1)));
		holders.lengths[1] = lengthOf(1);
		assertHeld(store, holders, lengthOf);
	});

	it('moves nothing while little is free', () => {
		const { store, holders, lengthOf } = filled();
		for (let id = 0; id < holders.count; id += 10) {
			store.free(holders.addresses[id], holders.lengths[id]);
			holders.lengths[id] = 0;
		}
		assert.equal(store.reclaimable(), 0);
		const addresses = [...holders.addresses];
		store.compact(holders);
		assert.deepEqual(holders.addresses, addresses);
		assertHeld(store, holders, lengthOf);
	});
});
