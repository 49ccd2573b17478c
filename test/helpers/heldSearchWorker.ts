// A search worker for ThreadSearchBackend's `script` option: the real worker's code
// (serveSearchRequests) with its reads of files named held* waiting until the test lets them
// go, so the index has work pending for as long as the test needs. It talks over a
// BroadcastChannel: ThreadSearchBackend starts the worker without a port for the test.
import * as path from 'node:path';
import { BroadcastChannel, parentPort } from 'node:worker_threads';
import { serveSearchRequests } from '../../src/node/serveSearchRequests';
import { HeldReads } from './heldReads';

/** The channel: the worker posts `{ held: path }` when a read starts waiting; `{ release: true }` lets them all go. */
export const HELD_SEARCH_READS = 'mcpwr-test-held-search-reads';
/** This script, compiled, for ThreadSearchBackend's `script` option. */
export const HELD_SEARCH_WORKER = __filename;

if (parentPort) {
	const reader = new HeldReads(filePath => path.basename(filePath).startsWith('held'));
	const channel = new BroadcastChannel(HELD_SEARCH_READS);
	reader.onDidHold(held => channel.postMessage({ held }));
	channel.onmessage = event => {
		if ((event as { data?: { release?: boolean } }).data?.release) {
			reader.release();
		}
	};
	channel.unref();
	serveSearchRequests(parentPort, reader);
}
