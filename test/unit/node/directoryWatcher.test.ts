import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FileChangeEvent } from '../../../src/core/ports';
import { DirectoryWatcher } from '../../../src/node/directoryWatcher';
import { nullLogger } from '../../../src/common/logger';

/** The headless host's watcher: one inotify watch per directory, dropped when the directory goes. */
describe('DirectoryWatcher', () => {
	let root: string;
	let watcher: DirectoryWatcher;
	let seen: FileChangeEvent[];
	let waiting: { until: (events: readonly FileChangeEvent[]) => boolean; resolve: () => void } | undefined;

	/** Resolves once the events seen so far satisfy `until` (they are cleared first). */
	function eventsUntil(until: (events: readonly FileChangeEvent[]) => boolean): Promise<void> {
		seen = [];
		return new Promise(resolve => { waiting = { until, resolve }; });
	}
	const has = (kind: FileChangeEvent['kind'], file: string) => (events: readonly FileChangeEvent[]) => events.some(e => e.kind === kind && e.path === file);

	beforeEach(() => {
		root = mkdtempSync(path.join(os.tmpdir(), 'dirwatch-'));
		mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
		mkdirSync(path.join(root, 'c'));
		writeFileSync(path.join(root, 'c', 'one.txt'), '1');
		seen = [];
		watcher = new DirectoryWatcher(nullLogger);
		watcher.onDidChange(events => {
			seen.push(...events);
			if (waiting?.until(seen)) {
				waiting.resolve();
				waiting = undefined;
			}
		});
		watcher.watch([], () => false, [root, path.join(root, 'a'), path.join(root, 'a', 'b'), path.join(root, 'c')]);
	});

	afterEach(() => {
		watcher.dispose();
		rmSync(root, { recursive: true, force: true });
	});

	it('keeps watching a folder whose files are deleted, and reports each kind of change', async () => {
		const one = path.join(root, 'c', 'one.txt');
		let next = eventsUntil(has('deleted', one));
		unlinkSync(one);
		await next;
		const two = path.join(root, 'c', 'two.txt');
		next = eventsUntil(has('changed', two));
		writeFileSync(two, '2');
		await next;
		const nested = path.join(root, 'a', 'b', 'deep.txt');
		next = eventsUntil(has('changed', nested));
		writeFileSync(nested, 'deep');
		await next;
	});

	it('drops the watches of a deleted folder tree and watches it again when it comes back', async () => {
		const a = path.join(root, 'a');
		let next = eventsUntil(has('deleted', a));
		rmSync(a, { recursive: true });
		await next;
		next = eventsUntil(has('created', a));
		mkdirSync(a);
		await next;
		const file = path.join(a, 'again.txt');
		next = eventsUntil(has('changed', file));
		writeFileSync(file, 'again');
		await next;
	});
});
