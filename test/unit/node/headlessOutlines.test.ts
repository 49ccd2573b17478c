import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileUri } from '../../../src/core/uriGuard';
import { EraClient, readOutcome, stdioEraClients } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { SYMBOL_SAMPLES } from '../../helpers/symbolSamples';

interface OutlineJson {
	readonly name: string;
	readonly kind: string;
	readonly lines: string;
	readonly uri: string;
	readonly children?: OutlineJson[];
}

/** Every symbol of an outline by dotted name, with its kind. */
function dotted(symbols: readonly OutlineJson[], prefix = ''): Map<string, OutlineJson> {
	const out = new Map<string, OutlineJson>();
	for (const s of symbols) {
		const name = `${prefix}${s.name}`;
		if (!out.has(name)) {
			out.set(name, s);
		}
		for (const [child, symbol] of dotted(s.children ?? [], `${name}.`)) {
			if (!out.has(child)) {
				out.set(child, symbol);
			}
		}
	}
	return out;
}

async function text(c: EraClient, uri: string): Promise<string> {
	const outcome = await readOutcome(c, uri);
	assert.ok(outcome.ok, `${c.label}: ${uri} failed: ${JSON.stringify(outcome)}`);
	return ((outcome.value as { text: string }[])[0]).text;
}

/**
 * The headless host reads outlines, `?symbol=` ranges and signatures from tree-sitter grammars
 * found in dist/grammars, one language at a time: the built CLI over stdio, in both eras.
 */
describe('headless outlines, symbol ranges and signatures from grammars (built CLI, both eras)', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let home: string;
	let clients: EraClient[];

	before(async () => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-symbols-home-'));
		for (const sample of SYMBOL_SAMPLES) {
			fx.write(sample.file, sample.text);
		}
		fx.write('.env.ts', 'export const KEY = "secret";\n');
		fx.write('build/gen.ts', 'export function generated() {}\n');
		fx.write('src/over-cap.ts', 'export function f(): void {}\n'.repeat(50_000)); // 1.4 MB, past the 1 MB read cap
		fx.write('src/grouped.go', 'package p\n\nconst (\n\tRed = iota\n\tGreen\n)\n\nvar (\n\tcount = 1\n\tname  = "x"\n)\n\nvar single = 2\n');
		for (const ext of ['ts', 'js']) {
			fx.write(`src/anonymous.${ext}`, 'export default class {\n\tgreet() {\n\t\treturn 1;\n\t}\n}\n');
			fx.write(`src/anonymousFn.${ext}`, 'export default function () {\n\treturn 2;\n}\n');
		}
		clients = await stdioEraClients(fx.root, home);
	});
	after(async () => {
		await Promise.all((clients ?? []).map(c => c.close()));
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	for (const sample of SYMBOL_SAMPLES) {
		it(`${sample.language}: the outline holds each declaration with its kind, and its range URI reads it`, async () => {
			for (const c of clients) {
				const body = JSON.parse(await text(c, `outline://file/${sample.file}`)) as { symbols: OutlineJson[] };
				const found = dotted(body.symbols);
				for (const [name, kind] of Object.entries(sample.symbols)) {
					assert.equal(found.get(name)?.kind, kind, `${c.label} ${sample.file}: ${name} (outline: ${[...found.keys()].join(', ')})`);
				}
				const [first, symbol] = [...found].find(([name]) => name.includes('.')) ?? [...found][0];
				const lines = await text(c, symbol.uri);
				assert.ok(lines.includes(symbol.name), `${c.label}: ${first} reads ${JSON.stringify(lines)}`);
				assert.equal(await text(c, `${fileUri(fx.file(sample.file))}?symbol=${encodeURIComponent(first)}`), lines, `${c.label}: ?symbol=${first}`);
			}
		});

		it(`${sample.language}: view=signatures keeps declarations and first doc lines, drops bodies`, async () => {
			for (const c of clients) {
				const view = await text(c, `${fileUri(fx.file(sample.file))}?view=signatures`);
				for (const kept of sample.kept) {
					assert.ok(view.includes(kept), `${c.label} ${sample.file}: keeps ${JSON.stringify(kept)}:\n${view}`);
				}
				for (const dropped of sample.dropped) {
					assert.ok(!view.includes(dropped), `${c.label} ${sample.file}: drops ${JSON.stringify(dropped)}:\n${view}`);
				}
				assert.ok(view.includes('…'), `${c.label}: a dropped body is marked`);
				assert.ok(view.length < sample.text.length, `${c.label}: shorter than the file`);
			}
		});
	}

	it('an anonymous default export is a declaration named default: its members stay inside it, in the outline and the signatures', async () => {
		for (const c of clients) {
			for (const ext of ['ts', 'js']) {
				const cls = JSON.parse(await text(c, `outline://file/src/anonymous.${ext}`)) as { symbols: OutlineJson[] };
				assert.deepEqual(cls.symbols.map(s => [s.name, s.kind, s.lines, (s.children ?? []).map(m => m.name)]), [['default', 'Class', '1-5', ['greet']]], `${c.label} ${ext}`);
				assert.equal(await text(c, `${fileUri(fx.file(`src/anonymous.${ext}`))}?view=signatures`), 'export default class {\n\tgreet() { … }\n}\n', `${c.label} ${ext}`);
				assert.equal(await text(c, `${fileUri(fx.file(`src/anonymous.${ext}`))}?symbol=default.greet`), '\tgreet() {\n\t\treturn 1;\n\t}\n', `${c.label} ${ext}`);
				const fn = JSON.parse(await text(c, `outline://file/src/anonymousFn.${ext}`)) as { symbols: OutlineJson[] };
				assert.deepEqual(fn.symbols.map(s => [s.name, s.kind, s.lines]), [['default', 'Function', '1-3']], `${c.label} ${ext}`);
				assert.equal(await text(c, `${fileUri(fx.file(`src/anonymousFn.${ext}`))}?view=signatures`), 'export default function () { … }\n', `${c.label} ${ext}`);
			}
		}
	});

	it('Go: a grouped var (...) declares each of its variables, as a grouped const (...) does', async () => {
		for (const c of clients) {
			const body = JSON.parse(await text(c, 'outline://file/src/grouped.go')) as { symbols: OutlineJson[] };
			assert.deepEqual(body.symbols.map(s => [s.name, s.kind, s.lines]),
				[['Red', 'Constant', '4-4'], ['Green', 'Constant', '5-5'], ['count', 'Variable', '9-9'], ['name', 'Variable', '10-10'], ['single', 'Variable', '13-13']], c.label);
			assert.equal(await text(c, `${fileUri(fx.file('src/grouped.go'))}?symbol=name`), '\tname  = "x"\n', c.label);
		}
	});

	it('says why a file over the read cap has no outline, and that its signatures still read', async () => {
		for (const c of clients) {
			const body = JSON.parse(await text(c, 'outline://file/src/over-cap.ts')) as { symbols: OutlineJson[]; note: string };
			assert.deepEqual(body.symbols, [], c.label);
			assert.match(body.note, /over the read cap \(\?lines= and \?view=signatures read a text file up to 16 MB\)/, c.label);
			assert.match(await text(c, `${fileUri(fx.file('src/over-cap.ts'))}?view=signatures`), /^export function f\(\): void \{ … \}\n/, c.label);
		}
	});

	it('offers the outline, symbol and signatures templates', async () => {
		for (const c of clients) {
			const templates = (await c.client.listResourceTemplates()).resourceTemplates.map(t => t.uriTemplate);
			for (const t of ['outline://file/{+path}', 'file:///{+path}{?symbol}', 'file:///{+path}{?view}']) {
				assert.ok(templates.includes(t), `${c.label}: ${t} in ${templates.join(', ')}`);
			}
		}
	});

	it('a language without a grammar, an unknown view or symbol: -32602 saying what to do', async () => {
		for (const c of clients) {
			const markdown = await readOutcome(c, `${fileUri(fx.file('README.md'))}?view=signatures`);
			assert.ok(!markdown.ok && markdown.code === -32602, `${c.label}: ${JSON.stringify(markdown)}`);
			assert.match(markdown.message, /No grammar for "\.md" files.*reads TypeScript, .*Python/);
			const view = await readOutcome(c, `${fileUri(fx.file('src/shapes.ts'))}?view=bodies`);
			assert.ok(!view.ok && view.code === -32602 && /Unknown view "bodies".*view=signatures/.test(view.message), `${c.label}: ${JSON.stringify(view)}`);
			const symbol = await readOutcome(c, `${fileUri(fx.file('src/shapes.ts'))}?symbol=Nope`);
			assert.ok(!symbol.ok && symbol.code === -32602 && /No symbol "Nope" in this file; it has Shape, Shape.area/.test(symbol.message), `${c.label}: ${JSON.stringify(symbol)}`);
			const both = await readOutcome(c, `${fileUri(fx.file('src/shapes.ts'))}?view=signatures&lines=1`);
			assert.ok(!both.ok && /\?lines=N-M, \?symbol=NAME or \?view=signatures \(one of them\)/.test(both.message), `${c.label}: ${JSON.stringify(both)}`);
		}
	});

	it('a secret or ignored source file has no outline, symbols or signatures: not found, as any unknown path', async () => {
		for (const c of clients) {
			for (const uri of ['outline://file/.env.ts', 'outline://file/build/gen.ts', `${fileUri(fx.file('.env.ts'))}?view=signatures`,
				`${fileUri(fx.file('build/gen.ts'))}?symbol=generated`, `${fileUri(path.join(fx.outside, 'passwd'))}?view=signatures`]) {
				const outcome = await readOutcome(c, uri);
				assert.ok(!outcome.ok && (outcome.code === -32602 || outcome.code === -32002), `${c.label}: ${uri} gave ${JSON.stringify(outcome)}`);
				assert.ok(!JSON.stringify(outcome).includes('secret'), `${c.label}: nothing of the file leaks`);
			}
		}
	});
});
