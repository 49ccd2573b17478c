import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_ANSWER_BYTES } from '../../../src/core/answerBudget';
import { fileUri } from '../../../src/core/uriGuard';
import { EraClient, outcomeOf, stdioEraClients } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';

/** The SDK stdio client's read buffer (`STDIO_DEFAULT_MAX_BUFFER_SIZE`): one longer line and it drops the connection. */
const SDK_STDIO_BUFFER = 10 * 1024 * 1024;

/**
 * Ranges of files whose lines are long, read as users read them: `serve --stdio` and the SDK's
 * stdio client, in both eras. 5,000 lines of 3,000 bytes are a 15 MB range under the line cap.
 */
describe('ranges of wide files over stdio', () => {
	let fx: Fixture;
	let home: string;
	let clients: readonly EraClient[];
	let wide: string;
	let wideText: string;
	let oneLine: string;
	let declared: string;
	let declaredText: string;

	before(async () => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-wide-'));
		wideText = Array.from({ length: 5000 }, (_, i) => `${String(i + 1).padStart(5, '0')} ${'w'.repeat(2993)}\n`).join('');
		wide = fx.write('wide.txt', wideText);
		oneLine = fx.write('one-line.json', `${'"a",'.repeat(2 * 1024 * 1024)}\nlast\n`);
		// 2,000 signatures of 3 KB: a 6 MB view of a 6 MB file.
		declaredText = Array.from({ length: 2000 }, (_, i) => `export function f${i + 1}(a: "${'s'.repeat(3000)}"): void {\n\treturn;\n}\n`).join('');
		declared = fx.write('declared.ts', declaredText);
		clients = await stdioEraClients(fx.root, home, ['--no-cache']);
	});
	after(async () => {
		await Promise.all(clients.map(c => c.close()));
		rmSync(home, { recursive: true, force: true });
		fx.dispose();
	});

	const read = async (c: EraClient, uri: string) => {
		const { contents } = await c.client.readResource({ uri });
		return (contents[0] as { text: string }).text;
	};

	it('tells a whole read of a file over 4 MB to use ranges, not to raise the read cap that could not help', async () => {
		for (const c of clients) {
			const refused = await outcomeOf(c.client.readResource({ uri: fileUri(wide) }));
			assert.ok(!refused.ok && refused.code === -32600, c.label);
			assert.match(refused.message, /over the 1 MB limit; read it in ranges \(\?lines=N-M\): a whole read answers at most 4 MB, whatever --max-file-size says/, c.label);
		}
	});

	it('cut a range under the byte cap at a line end, naming the next range, until the whole file is read', async () => {
		for (const c of clients) {
			let next: number | undefined = 1;
			let joined = '';
			let reads = 0;
			while (next !== undefined) {
				const text = await read(c, `${fileUri(wide)}?lines=${next}-`);
				reads++;
				assert.ok(Buffer.byteLength(JSON.stringify(text)) <= MAX_ANSWER_BYTES, `${c.label}: an answer within the budget`);
				const marker = /\[\.\.\. [\d,]+ more lines? cut here: a range returns at most 4 MB; read lines=(\d+)- next \.\.\.\]\n$/.exec(text);
				joined += marker ? text.slice(0, marker.index) : text;
				next = marker ? Number(marker[1]) : undefined;
			}
			assert.ok(joined === wideText, `${c.label}: the ranges put together are the file`);
			assert.equal(reads, 4, c.label);
			assert.ok((await c.client.listResources()).resources.length > 0, `${c.label}: still connected`);
		}
	});

	it('cut a signatures view at a declaration within the budget, naming the line its rest begins on', async () => {
		for (const c of clients) {
			const text = await read(c, `${fileUri(declared)}?view=signatures`);
			assert.ok(Buffer.byteLength(JSON.stringify(text)) <= MAX_ANSWER_BYTES, `${c.label}: an answer within the budget`);
			const marker = /\n\[\.\.\. the declarations from line ([\d,]+) on are cut here: a view returns at most 4 MB; read lines=(\d+)- for the rest of the file \.\.\.\]\n$/.exec(text);
			assert.ok(marker, `${c.label}: ends with the cut's marker: ${JSON.stringify(text.slice(-300))}`);
			const kept = text.slice(0, marker.index + 1).split('\n').filter(l => l.startsWith('export function'));
			assert.ok(kept.length > 1000 && kept.length < 2000, `${c.label}: ${kept.length} declarations kept`);
			assert.equal(kept[kept.length - 1], `export function f${kept.length}(a: "${'s'.repeat(3000)}"): void { … }`, c.label);
			const restFrom = Number(marker[2]);
			assert.equal(marker[1].replace(/,/g, ''), String(restFrom), c.label);
			const restLine = declaredText.split('\n')[restFrom - 1];
			assert.ok(restLine.startsWith(`export function f${kept.length + 1}(`), `${c.label}: the rest begins with the next declaration, not ${restLine.slice(0, 30)}`);
		}
	});

	it('give the head of one line longer than the cap, say it was cut inside, and name the line after it', async () => {
		for (const c of clients) {
			const text = await read(c, `${fileUri(oneLine)}?lines=1-`);
			assert.ok(Buffer.byteLength(JSON.stringify(text)) < SDK_STDIO_BUFFER / 2, c.label);
			assert.match(text, /^("a",)+"?a?"?,?\n\[\.\.\. line 1 cut here after [\d,]+ characters: a range returns at most 4 MB, and the rest of a longer line cannot be read as text; read lines=2- next \.\.\.\]\n$/, c.label);
			assert.equal(await read(c, `${fileUri(oneLine)}?lines=2-`), 'last\n', c.label);
		}
	});
});
