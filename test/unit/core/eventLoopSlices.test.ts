import * as assert from 'node:assert/strict';
import { EventLoopSlices } from '../../../src/core/files/eventLoopSlices';

/** Holds this thread for `ms`, as other code on the same event loop would. */
function holdLoop(ms: number): void {
	const end = performance.now() + ms;
	while (performance.now() < end) {
		// busy
	}
}

/** A slicer whose first slice is used up, so its next `pause()` waits for a turn. */
function spentSlices(): EventLoopSlices {
	const slices = new EventLoopSlices();
	holdLoop(10);
	return slices;
}

/** The timers phase of a fresh loop iteration: immediates queued from here run in this iteration. */
const inTimersPhase = () => new Promise<void>(resolve => setTimeout(resolve, 0));

describe('EventLoopSlices', () => {
	it('lets a task go on at once while its slice lasts, and makes it wait for a turn after', async () => {
		const slices = new EventLoopSlices();
		assert.equal(slices.pause(), undefined);
		holdLoop(10);
		const wait = slices.pause();
		assert.ok(wait instanceof Promise);
		await wait;
		assert.equal(slices.pause(), undefined, 'a turn starts a new slice');
	});

	it('does not start a slice in a turn that other work already held: the timers due meanwhile run first', async () => {
		await inTimersPhase();
		const slices = spentSlices();
		const order: string[] = [];
		// Another extension's long callback runs in the same turn, just before ours would.
		setImmediate(() => holdLoop(30));
		const wait = slices.pause()!;
		setTimeout(() => order.push('timer'), 1);
		await wait;
		order.push('slice');
		assert.deepEqual(order, ['timer', 'slice']);
	});

	it('still gets its turn when every turn of the loop is held', async () => {
		await inTimersPhase();
		const slices = spentSlices();
		let heldTurns = 0;
		let stop = false;
		const hog = () => {
			if (stop) {
				return;
			}
			heldTurns++;
			holdLoop(15);
			setImmediate(hog);
		};
		setImmediate(hog);
		await slices.pause();
		stop = true;
		assert.ok(heldTurns <= 5, `the task waited ${heldTurns} held turns`);
	});
});
