import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileUri } from '../../../src/core/uriGuard';
import { answeredWhile, EraClient, stdioEraClients } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';

/**
 * Grammars parse in a worker thread: a large file's outline or signatures (seconds of
 * tree-sitter for 5 MB) must not hold the host while other requests wait. The built CLI over
 * stdio in both eras, as users run it.
 */
describe('grammars parse in a worker thread while clients are answered', function () {
	this.timeout(120_000);
	let fx: Fixture;
	let home: string;
	let clients: readonly EraClient[];
	let large: string;
	let small: string;

	before(async () => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-grammar-thread-'));
		// 80,000 small functions, 5 MB: past the read cap, which ranges and signatures read past.
		large = fx.write('large.ts', Array.from({ length: 80_000 }, (_, i) => `export function f${i}(a: number): number {\n\treturn a + ${i};\n}\n`).join(''));
		small = fx.write('small.ts', 'export function one(): number {\n\treturn 1;\n}\n');
		clients = await stdioEraClients(fx.root, home, ['--no-cache']);
	});
	after(async () => {
		await Promise.all(clients.map(c => c.close()));
		rmSync(home, { recursive: true, force: true });
		fx.dispose();
	});

	it('answers requests sent while a 5 MB file is parsed for its signatures', async () => {
		for (const c of clients) {
			// The grammar loaded first (its WASM inflated and compiled, which is asynchronous anyway).
			await c.client.readResource({ uri: `${fileUri(small)}?view=signatures` });
			const { result: view, answeredFirst } = await answeredWhile(c, c.client.readResource({ uri: `${fileUri(large)}?view=signatures` }));
			const text = view.contents[0] as { text: string };
			assert.match(text.text, /^export function f0\(a: number\): number \{ … \}\n/, c.label);
			assert.match(text.text, /\nexport function f79999\(a: number\): number \{ … \}\n$/, c.label);
			// Held by the parse, the host answered only while the file was read (a dozen here);
			// beside it, thousands.
			assert.ok(answeredFirst >= 100, `${c.label}: ${answeredFirst} requests answered while the file was parsed`);
		}
	});
});
