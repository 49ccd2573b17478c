import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileUri } from '../../../src/core/uriGuard';
import { EraClient, readOutcome, stdioEraClients } from '../../helpers/eraClients';
import { createFixture, Fixture } from '../../helpers/fixtureWorkspace';
import { SYMBOL_SAMPLES } from '../../helpers/symbolSamples';
import { until } from '../../helpers/until';

interface Found {
	readonly name: string;
	readonly kind: string;
	readonly container?: string;
	readonly path: string;
	readonly line: number;
	readonly uri: string;
}

interface Answer {
	readonly symbols: Found[];
	readonly complete: boolean;
	readonly note?: string;
}

async function search(c: EraClient, query: string): Promise<Answer> {
	const outcome = await readOutcome(c, `symbols://workspace?${query}`);
	assert.ok(outcome.ok, `${c.label}: ${query} failed: ${JSON.stringify(outcome)}`);
	return JSON.parse((outcome.value as { text: string }[])[0].text) as Answer;
}

/** Searches until the index is built and the answer holds (the first search starts the index). */
async function searchUntil(c: EraClient, query: string, holds: (a: Answer) => boolean): Promise<Answer> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const answer = await search(c, query);
		if (answer.complete && holds(answer)) {
			return answer;
		}
		assert.ok(Date.now() < deadline, `${c.label}: ${query} never answered as expected: ${JSON.stringify(answer)}`);
		await new Promise(resolve => setTimeout(resolve, 50)); // the next look at a condition, not a wait standing in for it
	}
}

/** Subscribes (2025) or listens (2026-07-28) to `uris`, each taken; resolves to what stops it. */
async function watch(c: EraClient, uris: string[]): Promise<() => Promise<void>> {
	if (c.era === 'legacy') {
		for (const uri of uris) {
			await c.client.subscribeResource({ uri });
		}
		return async () => {
			for (const uri of uris) {
				await c.client.unsubscribeResource({ uri });
			}
		};
	}
	const listen = await c.client.listen({ resourceSubscriptions: uris });
	assert.deepEqual(listen.honoredFilter.resourceSubscriptions, uris, `${c.label}: every URI taken`);
	return () => listen.close();
}

/**
 * `symbols://workspace{?q,kind,max}` headless: the built CLI over stdio in both eras, from the
 * index of the grammars' declarations of served files, kept current by the file watcher.
 */
describe('headless workspace symbols from the grammars (built CLI, both eras)', function () {
	this.timeout(90_000);
	let fx: Fixture;
	let home: string;
	let clients: EraClient[];

	before(async () => {
		fx = createFixture();
		home = mkdtempSync(path.join(os.tmpdir(), 'mwr-symbols-home-'));
		for (const sample of SYMBOL_SAMPLES) {
			fx.write(sample.file, sample.text);
		}
		fx.write('.env.ts', 'export const SECRET_TOKEN = "x";\n');
		fx.write('build/gen.ts', 'export function generatedHelper() {}\n');
		clients = await stdioEraClients(fx.root, home);
		for (const c of clients) {
			await searchUntil(c, 'q=parseShape', a => a.symbols.length > 0);
		}
	});
	after(async () => {
		await Promise.all((clients ?? []).map(c => c.close()));
		fx.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	it('finds each language\'s declaration by name, with its container, path, line and the URI of its lines', async () => {
		for (const c of clients) {
			for (const sample of SYMBOL_SAMPLES) {
				const answer = await search(c, `q=${encodeURIComponent(sample.search.name)}&max=1000`);
				const found = answer.symbols.find(s => s.path === sample.file && s.name === sample.search.name && s.container === sample.search.container);
				assert.ok(found, `${c.label}: ${sample.search.name} in ${sample.search.container ?? 'no container'} of ${sample.file}: ${JSON.stringify(answer)}`);
				assert.equal(found.uri.split('?')[0], fileUri(fx.file(sample.file)));
				const lines = await readOutcome(c, found.uri);
				assert.ok(lines.ok && (lines.value as { text: string }[])[0].text.includes(sample.search.name), `${c.label}: ${found.uri} reads the symbol`);
				assert.equal(sample.text.split('\n')[found.line - 1].includes(sample.search.name), true, `${c.label}: line ${found.line} of ${sample.file}`);
			}
		}
	});

	it('matches any case, exact before prefix before substring before the letters in order', async () => {
		for (const c of clients) {
			const prefix = await search(c, 'q=PARSESH');
			assert.deepEqual(prefix.symbols.map(s => s.name), ['parseShape']);
			const fuzzy = await search(c, 'q=prsshp');
			assert.deepEqual(fuzzy.symbols.map(s => s.name), ['parseShape']);
			const ranked = await search(c, 'q=add&max=1000');
			const names = ranked.symbols.map(s => s.name);
			assert.equal(names[0], 'add', `${c.label}: ${names.join(', ')}`);
			const sub = await search(c, 'q=shape');
			assert.deepEqual(sub.symbols.map(s => s.name), ['Shape', 'parseShape', 'describeShape'], `${c.label}: exact, then substrings, shorter first`);
		}
	});

	it('kind narrows, max bounds (complete false when more matched), and every field is there', async () => {
		for (const c of clients) {
			const classes = await search(c, 'q=e&kind=class,STRUCT');
			assert.ok(classes.symbols.length > 0 && classes.symbols.every(s => s.kind === 'Class' || s.kind === 'Struct'), `${c.label}: ${JSON.stringify(classes.symbols)}`);
			const one = await search(c, 'q=a&max=1');
			assert.equal(one.symbols.length, 1);
			assert.equal(one.complete, false);
			const all = await search(c, 'q=a&max=1000');
			assert.equal(all.complete, true);
			assert.ok(all.symbols.length > 20);
			for (const s of all.symbols) {
				assert.deepEqual(Object.keys(s).filter(k => k !== 'container'), ['name', 'kind', 'path', 'line', 'uri']);
			}
		}
	});

	it('never finds a symbol of a secret or ignored file', async () => {
		for (const c of clients) {
			for (const q of ['SECRET_TOKEN', 'generatedHelper']) {
				const answer = await search(c, `q=${q}`);
				assert.deepEqual(answer.symbols, [], `${c.label}: ${q}`);
			}
		}
	});

	it('bad input is -32602 saying what to do, and the server stays up', async () => {
		const cases: [string, RegExp][] = [
			['symbols://workspace', /needs q/],
			['symbols://workspace?q=', /needs q/],
			['symbols://workspace?q=a&max=0', /Invalid max "0": a whole number from 1 to 1,000/],
			['symbols://workspace?q=a&max=1001', /Invalid max/],
			['symbols://workspace?q=a&kind=widget', /Unknown kind "widget": kinds are File, Module/],
			['symbols://workspace?q=a&sort=name', /Unknown parameter "sort": this template takes q, kind, max/],
			['symbols://workspace?q=a&q=b', /"q" is given twice/],
			[`symbols://workspace?q=${'x'.repeat(201)}`, /at most 200 characters/],
		];
		for (const c of clients) {
			for (const [uri, message] of cases) {
				const outcome = await readOutcome(c, uri);
				assert.ok(!outcome.ok && outcome.code === -32602 && message.test(outcome.message), `${c.label}: ${uri} gave ${JSON.stringify(outcome)}`);
			}
			assert.ok((await search(c, 'q=Circle')).symbols.length > 0, `${c.label}: still serving`);
		}
	});

	it('relations need the editor: no template, and a read says so (-32602)', async () => {
		for (const c of clients) {
			const templates = (await c.client.listResourceTemplates()).resourceTemplates.map(t => t.uriTemplate);
			assert.ok(templates.includes('symbols://workspace{?q,kind,max}'), `${c.label}: ${templates.join(', ')}`);
			assert.ok(!templates.some(t => /^symbols:\/\/(references|definitions)/.test(t)), `${c.label}: ${templates.join(', ')}`);
			const outcome = await readOutcome(c, 'symbols://references/src/shapes.ts?symbol=Circle');
			assert.ok(!outcome.ok && outcome.code === -32602 && /needs the editor's language services/.test(outcome.message), `${c.label}: ${JSON.stringify(outcome)}`);
		}
	});

	it('keeps the index current from the watcher, and a subscribed search hears updated only when its answer changes', async () => {
		const uri = 'symbols://workspace?q=freshlyWritten';
		const stops = await Promise.all(clients.map(c => watch(c, [uri])));
		// A change that leaves the answer as it was: indexed (a search finds it), never told.
		writeFileSync(fx.file('src/unrelated.ts'), 'export function unrelatedHelper() {}\n');
		for (const c of clients) {
			await searchUntil(c, 'q=unrelatedHelper', a => a.symbols.length === 1);
		}
		writeFileSync(fx.file('src/fresh.py'), 'def other():\n    pass\n\nclass freshlyWritten:\n    pass\n');
		for (const c of clients) {
			await until(c.onDidUpdate, () => c.updates.includes(uri), `${c.label} to hear ${uri}`, 20_000);
			const answer = await search(c, 'q=freshlyWritten');
			assert.deepEqual(answer.symbols.map(s => [s.name, s.kind, s.path]), [['freshlyWritten', 'Class', 'src/fresh.py']]);
			assert.deepEqual(c.updates.filter(u => u === uri), [uri], `${c.label}: told once, not for the unrelated file`);
		}
		rmSync(fx.file('src/fresh.py'));
		for (const c of clients) {
			await searchUntil(c, 'q=freshlyWritten', a => a.symbols.length === 0);
		}
		await Promise.all(stops.map(stop => stop()));
	});
	it('holds a file once however a client spelled the URI it subscribed to the file by', async () => {
		const file = 'src/spelled.ts';
		writeFileSync(fx.file(file), 'export function spelledOnce() {}\n');
		symlinkSync('src', fx.file('linked'));
		for (const c of clients) {
			await searchUntil(c, 'q=spelledOnce', a => a.symbols.length === 1);
		}
		const own = fileUri(fx.file(file));
		// Changes to the file are told under each of these too: an encoded letter, the host
		// spelled out, and a path through a linked directory.
		const spellings = [`${fileUri(fx.root)}/%73rc/spelled.ts`, own.replace('file://', 'file://localhost'), fileUri(fx.file('linked/spelled.ts'))];
		const searched = 'symbols://workspace?q=spelledOnce';
		const stops = await Promise.all(clients.map(c => watch(c, [...spellings, searched])));
		const heard = clients.map(c => c.updates.length);
		writeFileSync(fx.file(file), '// one line down\nexport function spelledOnce() {}\n');
		for (const [i, c] of clients.entries()) {
			const since = () => c.updates.slice(heard[i]);
			// The search is told once the index has taken every URI of that change.
			await until(c.onDidUpdate, () => [...spellings, searched].every(u => since().includes(u)), `${c.label} to hear the spellings and ${searched}`, 20_000);
			const answer = await search(c, 'q=spelledOnce');
			assert.deepEqual(answer.symbols.map(s => [s.name, s.path, s.line, s.uri]), [['spelledOnce', file, 2, `${own}?lines=2`]], `${c.label}: one entry, by the file's own URI`);
		}
		await Promise.all(stops.map(stop => stop()));
		rmSync(fx.file('linked'));
		rmSync(fx.file(file));
		for (const c of clients) {
			await searchUntil(c, 'q=spelledOnce', a => a.symbols.length === 0);
		}
	});
});
