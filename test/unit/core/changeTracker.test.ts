import * as assert from 'node:assert/strict';
import { ChangeTracker } from '../../../src/core/changeTracker';
import { ResourceChange } from '../../../src/core/resource';

function nextFlush(tracker: ChangeTracker): Promise<ResourceChange> {
	return new Promise(resolve => {
		const sub = tracker.onDidFlush(change => {
			sub.dispose();
			resolve(change);
		});
	});
}

describe('ChangeTracker', () => {
	it('coalesces and dedupes changes into one flush', async () => {
		const tracker = new ChangeTracker({ debounceMs: 10, maxDelayMs: 100, listChangedIntervalMs: 0 });
		const flushed = nextFlush(tracker);
		for (let i = 0; i < 1000; i++) {
			tracker.push({ updated: [`file:///a${i % 10}`], listChanged: i === 500 });
		}
		const change = await flushed;
		assert.deepEqual([...change.updated].sort(), Array.from({ length: 10 }, (_, i) => `file:///a${i}`));
		assert.equal(change.listChanged, true);
		tracker.dispose();
	});

	it('flushes within maxDelay even while changes keep coming', async () => {
		const tracker = new ChangeTracker({ debounceMs: 30, maxDelayMs: 60, listChangedIntervalMs: 0 });
		const started = performance.now();
		const flushed = nextFlush(tracker);
		const pump = setInterval(() => tracker.push({ updated: ['file:///x'], listChanged: false }), 5);
		await flushed;
		clearInterval(pump);
		assert.ok(performance.now() - started < 1000, 'a steady stream must not postpone the flush forever');
		tracker.dispose();
	});

	it('lets another source\'s change ride along with a pending batch instead of postponing it; a source that keeps changing still does', async () => {
		// Timers created together fire in the order they are due, however late: the batch is
		// due at 30, the other source's change comes at 20, the mark is at 45.
		const order = (secondSource: string) => new Promise<string[]>(resolve => {
			const tracker = new ChangeTracker({ debounceMs: 30, maxDelayMs: 1000, listChangedIntervalMs: 0 });
			const events: string[] = [];
			tracker.onDidFlush(change => events.push(`flush ${[...change.updated].sort().join(' ')}`));
			tracker.push({ updated: ['file:///written'], listChanged: false }, 'files');
			setTimeout(() => tracker.push({ updated: ['context://relevant'], listChanged: false }, secondSource), 20);
			setTimeout(() => events.push('mark'), 45);
			setTimeout(() => {
				tracker.dispose();
				resolve(events);
			}, 100);
		});
		assert.deepEqual(await order('relevance'), ['flush context://relevant file:///written', 'mark'], 'one flush, when the first change was due');
		assert.deepEqual(await order('files'), ['mark', 'flush context://relevant file:///written'], 'the same source postpones it: its burst goes on');
	});

	it('spaces list_changed flushes by the interval, keeping the last one', async () => {
		const tracker = new ChangeTracker({ debounceMs: 1, maxDelayMs: 5, listChangedIntervalMs: 200 });
		const flushes: ResourceChange[] = [];
		tracker.onDidFlush(c => flushes.push(c));
		tracker.push({ updated: ['a'], listChanged: true });
		tracker.flush();
		tracker.push({ updated: ['b'], listChanged: true });
		tracker.flush();
		assert.deepEqual(flushes.map(f => f.listChanged), [true, false], 'second list_changed held back');
		const last = nextFlush(tracker);
		assert.equal((await last).listChanged, true, 'held list_changed is sent after the interval');
		tracker.dispose();
	});

	it('ignores empty changes and stops after dispose', () => {
		const tracker = new ChangeTracker();
		let count = 0;
		tracker.onDidFlush(() => count++);
		tracker.push({ updated: [], listChanged: false });
		tracker.flush();
		tracker.dispose();
		tracker.push({ updated: ['x'], listChanged: true });
		tracker.flush();
		assert.equal(count, 0);
	});
});
