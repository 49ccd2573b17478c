import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileUri } from '../../../src/core/uriGuard';
import { EraClient, outcomeOf, stdioEraClients } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';

/** Whole reads with `--max-file-size` far above what one stdio message may hold, through the SDK's stdio client in both eras. */
describe('whole reads under a raised --max-file-size over stdio', () => {
	let fx: Fixture;
	let home: string;
	let clients: readonly EraClient[];

	before(async () => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-whole-'));
		clients = await stdioEraClients(fx.root, home, ['--no-cache', '--max-file-size', '20000000']);
	});
	after(async () => {
		await Promise.all(clients.map(c => c.close()));
		rmSync(home, { recursive: true, force: true });
		fx.dispose();
	});

	it('refuse a whole read over 4 MB as the answer writes it, pointing at ranges, and stay connected', async () => {
		const wide = fx.write('wide.txt', 'w'.repeat(2999).concat('\n').repeat(5000));
		const quoted = fx.write('quoted.txt', '"\n'.repeat(1024 * 1024 + 1)); // 2 MB on disk, over 4 MB escaped
		const blob = fx.write('data.bin', Buffer.alloc(3.5 * 1024 * 1024, 0));
		const fits = fx.write('fits.txt', 'f'.repeat(3 * 1024 * 1024));
		for (const c of clients) {
			for (const [file, how] of [[wide, 'on disk'], [quoted, 'as JSON text'], [blob, 'in base64']]) {
				const refused = await outcomeOf(c.client.readResource({ uri: fileUri(file) }));
				assert.ok(!refused.ok && refused.code === -32600, `${c.label}: ${file}`);
				assert.match(refused.message, new RegExp(`over the 4 MB limit; a whole read answers at most 4 MB ${how}, whatever --max-file-size says .*read it in ranges`), c.label);
			}
			const { contents } = await c.client.readResource({ uri: fileUri(fits) });
			assert.equal((contents[0] as { text: string }).text.length, 3 * 1024 * 1024, `${c.label}: under the budget a whole read is whole`);
			const range = await c.client.readResource({ uri: `${fileUri(wide)}?lines=2-3` });
			assert.equal((range.contents[0] as { text: string }).text, 'w'.repeat(2999).concat('\n').repeat(2), `${c.label}: the refused file reads in ranges`);
		}
	});
});
