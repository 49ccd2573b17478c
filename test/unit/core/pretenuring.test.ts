import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

/**
 * Listed entries must never be placed in the old generation on their site's record (see
 * `plainConstructor`): at a million files that made every listed entry old-generation garbage,
 * and the process grew to about 400 MiB before a full collection. Only V8 can say where an object
 * lives, so the probe runs in a child with natives syntax, single-threaded: V8's pretenuring
 * decision follows what survives its scavenges, and with compiler and collector helper threads
 * racing the main thread on a busy machine the control once came out young (seen once in a full
 * unit run under load 7).
 */
describe('listed entries and V8 pretenuring', () => {
	it('stay young after many pages held across young collections, where a literal of their shape does not', async () => {
		const probe = path.join(__dirname, '../../helpers/pretenuringProbe.js');
		const { stdout } = await promisify(execFile)(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--single-threaded', probe]);
		const generations = JSON.parse(stdout) as { literal: boolean[]; listed: boolean[]; annotated: boolean[] };
		assert.deepEqual(generations.literal, [false, false], 'the control: this V8 pretenures a literal entry paged this way');
		assert.deepEqual(generations.listed, [true, true], 'an index entry and its annotations');
		assert.deepEqual(generations.annotated, [true, true], 'a ranked entry and its annotations');
	});
});
