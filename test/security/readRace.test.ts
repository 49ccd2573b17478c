import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileUri } from '../../src/core/uriGuard';
import { createFixture, Fixture } from '../helpers/fixtureWorkspace';
import { ConnectedClient, connectInMemory, createTestServer, TestServer } from '../helpers/harness';

const READS = Number(process.env.RACE_READS ?? 4000);

/**
 * Another process swaps a served file for a symlink to a file outside the workspace, by
 * `rename` (atomic), and back, as fast as it can. A check of the name followed by an open of
 * the name loses this race now and then; opening first and checking what was opened never does.
 */
const SWAPPER = `
const fs = require('node:fs');
const [target, outside, dir] = process.argv.slice(1);
const link = dir + '/.swap-link', file = dir + '/.swap-file';
let swaps = 0;
process.stdout.write('ready\\n');
for (;;) {
	try { fs.unlinkSync(link); } catch {}
	fs.symlinkSync(outside, link);
	fs.renameSync(link, target);
	fs.writeFileSync(file, 'inside\\n');
	fs.renameSync(file, target);
	if (++swaps % 100 === 0) process.stdout.write(swaps + '\\n');
}
`;

describe('read race: a file swapped for a link to outside', function () {
	this.timeout(300_000);
	let fx: Fixture;
	let server: TestServer;
	let conn: ConnectedClient;
	let swapper: ChildProcess | undefined;

	before(async () => {
		fx = createFixture();
		writeFileSync(path.join(fx.outside, 'secret.txt'), 'OUTSIDE SECRET\n');
		fx.write('race/data.txt', 'inside\n');
		server = createTestServer([fx.root]);
		await server.files.ready();
		conn = await connectInMemory(server.registry, server.log);
	});
	after(async () => {
		swapper?.kill();
		await conn.close();
		server.dispose();
		fx.dispose();
	});

	it(`serves the inside file or not-found, never the outside one, over ${READS} reads`, async () => {
		const target = fx.file('race/data.txt');
		swapper = spawn(process.execPath, ['-e', SWAPPER, target, path.join(fx.outside, 'secret.txt'), path.dirname(target)], { stdio: ['ignore', 'pipe', 'inherit'] });
		let swaps = 0;
		swapper.stdout!.setEncoding('utf8');
		const started = once(swapper.stdout!, 'data');
		swapper.stdout!.on('data', (chunk: string) => {
			for (const line of chunk.split('\n')) {
				swaps = /^\d+$/.test(line) ? Number(line) : swaps;
			}
		});
		await started;

		const outcomes = { inside: 0, outside: 0, notFound: 0 };
		for (let i = 0; i < READS; i++) {
			try {
				const result = await conn.client.readResource({ uri: fileUri(target) });
				const text = (result.contents[0] as { text?: string }).text;
				if (text === 'inside\n') {
					outcomes.inside++;
				} else {
					outcomes.outside++;
					assert.fail(`read ${i} served ${JSON.stringify(text)} (outcomes so far ${JSON.stringify(outcomes)})`);
				}
			} catch (err) {
				if ((err as { code?: number }).code !== -32602) {
					throw err;
				}
				outcomes.notFound++;
			}
		}
		swapper.kill();
		await once(swapper, 'close'); // after its output is read
		// The test means something only if the swapper really ran during the reads and both
		// kinds of answer occurred (the race window was open).
		assert.ok(swaps >= 100, `the swapper ran (${swaps} swaps; ${JSON.stringify(outcomes)})`);
		assert.ok(outcomes.inside > 0 && outcomes.notFound > 0, `both outcomes seen: ${JSON.stringify(outcomes)}`);
		assert.deepEqual(server.log.errors, []);
	});
});
