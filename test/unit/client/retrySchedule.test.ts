import * as assert from 'node:assert/strict';
import { RetrySchedule } from '../../../src/client/retrySchedule';

describe('retry schedule', () => {
	it('walks the delays and repeats the last one, and starts over after a reset', () => {
		const schedule = new RetrySchedule([10, 20, 50]);
		assert.deepEqual([1, 2, 3, 4, 5].map(() => schedule.nextDelay()), [10, 20, 50, 50, 50]);
		schedule.reset();
		assert.equal(schedule.nextDelay(), 10);
	});

	it('keeps one retry pending: a new start replaces the last, cancel drops it', async () => {
		const schedule = new RetrySchedule([0]);
		const ran: string[] = [];
		let finished!: () => void;
		const second = new Promise<void>(resolve => { finished = resolve; });
		schedule.start(0, () => ran.push('first'));
		schedule.start(0, () => {
			ran.push('second');
			finished();
		});
		await second;
		assert.deepEqual(ran, ['second']);
		schedule.start(0, () => ran.push('cancelled'));
		schedule.cancel();
		// Node runs timers of one delay in the order they were set: a cancelled retry that still
		// ran would run before this one, set after it on another schedule.
		await new Promise<void>(resolve => new RetrySchedule([0]).start(0, resolve));
		assert.deepEqual(ran, ['second']);
	});
});
