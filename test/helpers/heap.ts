import * as assert from 'node:assert/strict';

/** Heap in use after two full collections (the reliability suite runs Node with --expose-gc). */
export function heapAfterGc(): number {
	const gc = (globalThis as { gc?: () => void }).gc;
	assert.ok(gc, 'run with --expose-gc');
	gc();
	gc();
	return process.memoryUsage().heapUsed;
}
