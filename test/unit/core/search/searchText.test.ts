import * as assert from 'node:assert/strict';
import { MAX_LINE_CHARS } from '../../../../src/core/search/lineText';
import { fileUri } from '../../../../src/core/uriGuard';
import { FakeDocuments } from '../../../fakes/fakeDocuments';
import { EraClient, outcomeOf } from '../../../helpers/eraClients';
import { createFixture, Fixture, PNG_BYTES } from '../../../helpers/fixtureWorkspace';
import { bothEras, createSearchServer, FilesJson, readSearch, SearchJson, SearchServer, textUri } from '../../../helpers/searchServer';

/** Relevance as a test sets it: the ranked files' URIs, first to last. */
class FakeRanking {
	uris: string[] = [];
	rankedUris(): readonly string[] {
		return this.uris;
	}
}

describe('search://text and search://files through SDK clients of both eras', function () {
	this.timeout(60_000);
	let fx: Fixture;
	let server: SearchServer;
	let documents: FakeDocuments;
	let ranking: FakeRanking;
	let eras: { clients: EraClient[]; close(): Promise<void> };

	beforeEach(async () => {
		fx = createFixture();
		fx.write('src/alpha.ts', 'export function activate() {\n\treturn Activate;\n}\n// activated later\n');
		fx.write('src/beta.ts', 'import { activate } from "./alpha";\nactivate();\n');
		fx.write('docs/guide.md', 'Call ACTIVATE first.\r\nThen deactivate.\r\n');
		fx.write('src/deep/gamma.ts', 'const unrelated = 1;\n');
		fx.write('big/huge.txt', 'activate\n'.repeat(50) + 'x'.repeat(2000));
		fx.write('bin/blob.dat', Buffer.concat([Buffer.from('activate'), Buffer.from([0, 1, 2])]));
		fx.write('images/activate.png', PNG_BYTES);
		fx.write('bom/marked.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('needleAfterMark first\n')]));
		fx.write('long/minified.js', `${'a'.repeat(500)}needleInLongLine${'b'.repeat(400)}\n`);
		documents = new FakeDocuments();
		ranking = new FakeRanking();
		server = createSearchServer([fx.root], { documents, ranking, settings: { maxFileSize: 1024 } });
		eras = await bothEras(server.registry);
	});
	afterEach(async () => {
		await eras.close();
		server.dispose();
		fx.dispose();
	});

	/** Each client's answer, checked to be the same in both eras; the one answer is returned. */
	async function ask<T = SearchJson>(uri: string): Promise<T> {
		const answers = await Promise.all(eras.clients.map(c => readSearch<T>(c, uri)));
		assert.deepEqual(answers[1], answers[0], `both eras answer ${uri} alike`);
		return answers[0];
	}

	const where = (answer: SearchJson) => answer.files.flatMap(f => f.matches.map(m => `${f.path}:${m.line}:${m.column}`));

	it('offers both templates, with titles and descriptions, and lists no search', async () => {
		for (const c of eras.clients) {
			const { resourceTemplates } = await c.client.listResourceTemplates();
			const search = resourceTemplates.filter(t => t.uriTemplate.startsWith('search:'));
			assert.deepEqual(search.map(t => t.uriTemplate), ['search://text{?q,regex,case,word,glob,max}', 'search://files{?q,max}'], c.label);
			assert.ok(search.every(t => t.title && t.description && t.mimeType === 'application/json'), c.label);
			const { resources } = await c.client.listResources();
			assert.ok(!resources.some(r => r.uri.startsWith('search:')), c.label);
		}
	});

	it('finds a literal in any case by default, lines and columns 1-based, each line with a URI that reads it', async () => {
		const answer = await ask(textUri('activate'));
		assert.deepEqual(where(answer), ['docs/guide.md:1:6', 'docs/guide.md:2:8', 'src/alpha.ts:1:17', 'src/alpha.ts:2:9', 'src/alpha.ts:4:4', 'src/beta.ts:1:10', 'src/beta.ts:2:1']);
		assert.equal(answer.matchCount, 7);
		assert.equal(answer.fileCount, 3);
		assert.equal(answer.complete, true);
		const guide = answer.files[0];
		assert.equal(guide.uri, fileUri(`${fx.root}/docs/guide.md`));
		assert.deepEqual(guide.matches[0], { line: 1, column: 6, text: 'Call ACTIVATE first.', uri: `${guide.uri}?lines=1` });
		for (const c of eras.clients) {
			const { contents } = await c.client.readResource({ uri: answer.files[1].matches[1].uri });
			assert.equal((contents[0] as { text: string }).text, '\treturn Activate;\n', c.label);
		}
	});

	it('a file with a byte order mark is searched as a read serves it: columns from the text, ^ at its start', async () => {
		const answer = await ask(textUri('needleAfterMark'));
		assert.deepEqual(where(answer), ['bom/marked.txt:1:1']);
		assert.equal(answer.files[0].matches[0].text, 'needleAfterMark first');
		assert.deepEqual(where(await ask(textUri('^needleAfterMark', { regex: true }))), ['bom/marked.txt:1:1']);
		for (const c of eras.clients) {
			const { contents } = await c.client.readResource({ uri: answer.files[0].matches[0].uri });
			assert.equal((contents[0] as { text: string }).text, 'needleAfterMark first\n', c.label);
		}
	});

	it('case=true matches the case given; word=true whole words only; both together', async () => {
		assert.deepEqual(where(await ask(textUri('Activate', { case: true }))), ['src/alpha.ts:2:9']);
		assert.deepEqual(where(await ask(textUri('activate', { word: true }))), ['docs/guide.md:1:6', 'src/alpha.ts:1:17', 'src/alpha.ts:2:9', 'src/beta.ts:1:10', 'src/beta.ts:2:1']);
		assert.deepEqual(where(await ask(textUri('activate', { word: true, case: true }))), ['src/alpha.ts:1:17', 'src/beta.ts:1:10', 'src/beta.ts:2:1']);
		assert.deepEqual(where(await ask(textUri('activate', { word: false, case: false, regex: false, max: 2 }))), ['docs/guide.md:1:6', 'docs/guide.md:2:8']);
	});

	it('regex=true runs RE2: classes, anchors, alternation, in any case unless case=true', async () => {
		assert.deepEqual(where(await ask(textUri('^\\w+ \\{ activate', { regex: true }))), ['src/beta.ts:1:1']);
		assert.deepEqual(where(await ask(textUri('de|re(turn)', { regex: true, case: true }))), ['docs/guide.md:2:6', 'src/alpha.ts:2:2', 'src/ünïcödé 文件.txt:1:6']);
		assert.deepEqual(where(await ask(textUri('ACTIVATE\\(', { regex: true }))), ['src/alpha.ts:1:17', 'src/beta.ts:2:1']);
		assert.deepEqual(where(await ask(textUri('ACTIVATE\\(', { regex: true, case: true }))), []);
		assert.deepEqual(where(await ask(textUri('activate', { regex: true, word: true, case: true }))), ['src/alpha.ts:1:17', 'src/beta.ts:1:10', 'src/beta.ts:2:1']);
	});

	it('glob limits the paths: ** and comma-separated alternatives, a bare pattern anywhere', async () => {
		assert.deepEqual(where(await ask(textUri('activate', { glob: 'src/**' }))).map(w => w.split(':')[0]), ['src/alpha.ts', 'src/alpha.ts', 'src/alpha.ts', 'src/beta.ts', 'src/beta.ts']);
		assert.deepEqual([...new Set(where(await ask(textUri('activate', { glob: '*.md,src/b*.ts' }))).map(w => w.split(':')[0]))], ['docs/guide.md', 'src/beta.ts']);
		assert.deepEqual(where(await ask(textUri('activate', { glob: '{docs,nothing}/*.{md,txt}' }))).length, 2);
		assert.deepEqual(where(await ask(textUri('activate', { glob: 'none/**' }))), []);
	});

	it('max caps the matched lines, complete is false with a reason; 200 by default, at most 5,000', async () => {
		const lines = Array.from({ length: 260 }, (_, i) => `hit ${i}`).join('\n');
		fx.write('many.txt', lines);
		const fresh = createSearchServer([fx.root], { settings: { maxFileSize: 1024 * 1024 } });
		const freshEras = await bothEras(fresh.registry);
		try {
			const read = (uri: string) => Promise.all(freshEras.clients.map(c => readSearch(c, uri)));
			for (const answer of await read(textUri('hit'))) {
				assert.equal(answer.matchCount, 200);
				assert.equal(answer.complete, false);
				assert.match(answer.reason!, /max=200/);
			}
			for (const answer of await read(textUri('hit', { max: 5000 }))) {
				assert.equal(answer.matchCount, 260);
				assert.equal(answer.complete, true);
				assert.equal(answer.reason, undefined);
			}
			for (const answer of await read(textUri('hit', { max: 260 }))) {
				assert.equal(answer.complete, true, 'exactly max matches is complete');
			}
			for (const answer of await read(textUri('hit', { max: 259 }))) {
				assert.equal(answer.complete, false);
			}
		} finally {
			await freshEras.close();
			fresh.dispose();
		}
	});

	it('ranked files come first in rank order, then every other file by path', async () => {
		ranking.uris = [fileUri(`${fx.root}/src/beta.ts`), fileUri(`${fx.root}/src/alpha.ts`)];
		const answer = await ask(textUri('activate'));
		assert.deepEqual(answer.files.map(f => f.path), ['src/beta.ts', 'src/alpha.ts', 'docs/guide.md']);
		const capped = await ask(textUri('activate', { max: 2 }));
		assert.deepEqual(where(capped), ['src/beta.ts:1:10', 'src/beta.ts:2:1'], 'the cap keeps the ranked files first');
	});

	it('binaries and files over maxFileSize are not searched; a long line is cut around its match with a marker', async () => {
		const answer = await ask(textUri('activate'));
		assert.ok(!answer.files.some(f => /blob|png|huge/.test(f.path)), JSON.stringify(answer.files.map(f => f.path)));
		const long = await ask(textUri('needleInLongLine'));
		const text = long.files[0].matches[0].text;
		assert.ok(text.length <= MAX_LINE_CHARS + 2, `${text.length} characters`);
		assert.match(text, /^…a+needleInLongLineb+…$/);
		assert.equal(long.files[0].matches[0].column, 501);
	});

	it('searches the unsaved text of an open document instead of the disk, and the disk again once it is reverted', async () => {
		const alpha = `${fx.root}/src/alpha.ts`;
		documents.edit(alpha, 'const typedButNotSaved = 1;\n');
		await untilAnswer(textUri('typedButNotSaved'), a => a.matchCount === 1);
		assert.deepEqual(where(await ask(textUri('typedButNotSaved'))), ['src/alpha.ts:1:7']);
		assert.ok(!where(await ask(textUri('activate'))).some(w => w.startsWith('src/alpha.ts')), 'the saved text is not what is searched');
		documents.revert(alpha);
		await untilAnswer(textUri('typedButNotSaved'), a => a.matchCount === 0);
		assert.ok(where(await ask(textUri('activate'))).some(w => w.startsWith('src/alpha.ts')));
	});

	it('never shows the unsaved text of a file that is not served', async () => {
		documents.edit(`${fx.root}/.env`, 'UNSAVED_SECRET=1\n');
		documents.edit(`${fx.root}/build/out.js`, 'UNSAVED_SECRET=2\n');
		const probe = `${fx.root}/src/deep/gamma.ts`;
		documents.edit(probe, 'probe UNSAVED_SECRET\n');
		await untilAnswer(textUri('UNSAVED_SECRET'), a => a.matchCount > 0);
		assert.deepEqual(where(await ask(textUri('UNSAVED_SECRET'))), ['src/deep/gamma.ts:1:7']);
	});

	it('search://files matches paths as Quick Open does, best first, max 50 by default', async () => {
		const answer = await ask<FilesJson>('search://files?q=alpts');
		assert.equal(answer.files[0].path, 'src/alpha.ts');
		assert.equal(answer.files[0].uri, fileUri(`${fx.root}/src/alpha.ts`));
		assert.ok(answer.files[0].score > 0 && answer.files[0].score <= 1);
		assert.equal(answer.complete, true);
		for (let i = 0; i < 60; i++) {
			fx.write(`gen/file${i}.ts`, '');
		}
		const fresh = createSearchServer([fx.root]);
		const freshEras = await bothEras(fresh.registry);
		try {
			for (const c of freshEras.clients) {
				const many = await readSearch<FilesJson>(c, 'search://files?q=genfile');
				assert.equal(many.files.length, 50, c.label);
				assert.equal(many.complete, false, c.label);
				const scores = many.files.map(f => f.score);
				assert.deepEqual(scores, [...scores].sort((a, b) => b - a), 'best first');
				assert.equal((await readSearch<FilesJson>(c, 'search://files?q=genfile&max=3')).files.length, 3);
			}
		} finally {
			await freshEras.close();
			fresh.dispose();
		}
	});

	it('search://files finds a name in either Unicode spelling, whichever spelling q has', async () => {
		fx.write('names/caf\u00e9-composed.txt', '');
		fx.write('names/cafe\u0301-decomposed.txt', '');
		const fresh = createSearchServer([fx.root]);
		const freshEras = await bothEras(fresh.registry);
		try {
			for (const c of freshEras.clients) {
				for (const q of ['caf\u00e9', 'cafe\u0301']) {
					const found = await readSearch<FilesJson>(c, `search://files?q=${encodeURIComponent(q)}`);
					assert.deepEqual(found.files.map(f => f.path.normalize('NFC')).sort(), ['names/caf\u00e9-composed.txt', 'names/caf\u00e9-decomposed.txt'], `${c.label} ${JSON.stringify(q)}`);
				}
			}
		} finally {
			await freshEras.close();
			fresh.dispose();
		}
	});

	it('relevance breaks ties between paths that score the same', async () => {
		fx.write('a/same.ts', '');
		fx.write('b/same.ts', '');
		const ranked = new FakeRanking();
		ranked.uris = [fileUri(`${fx.root}/b/same.ts`)];
		const fresh = createSearchServer([fx.root], { ranking: ranked });
		const freshEras = await bothEras(fresh.registry);
		try {
			for (const c of freshEras.clients) {
				const answer = await readSearch<FilesJson>(c, 'search://files?q=same.ts');
				assert.deepEqual(answer.files.slice(0, 2).map(f => f.path), ['b/same.ts', 'a/same.ts'], c.label);
			}
		} finally {
			await freshEras.close();
			fresh.dispose();
		}
	});

	it('bad input is -32602 with a reason to act on, and the server answers the next request', async () => {
		const bad: [string, RegExp][] = [
			['search://text', /non-empty q/],
			['search://text?q=', /non-empty q/],
			[textUri('x'.repeat(1025)), /1025 bytes, over the 1024-byte limit/],
			[textUri('(unclosed', { regex: true }), /Invalid regex.*missing closing \)/],
			[textUri('(?=look)ahead', { regex: true }), /Invalid regex/],
			[textUri('x', { regex: 'yes' }), /regex=true or regex=false/],
			[textUri('x', { max: 0 }), /whole number from 1 to 5,000/],
			[textUri('x', { max: 5001 }), /over the limit of 5,000/],
			[textUri('x', { max: 'ten' }), /whole number/],
			[`${textUri('x')}&colour=red`, /Unknown parameter "colour".*q, regex, case, word, glob, max/],
			[`${textUri('x')}&q=y`, /given twice/],
			[textUri('x', { glob: 'src/**,' }), /empty alternative/],
			[textUri('x', { glob: '!src/**' }), /starts with "!".*excludes nothing/],
			[textUri('x', { glob: 'docs,src\\' }), /ends with a lone \\/],
			[textUri('x', { glob: 'src/[z-a]*.ts' }), /range \[z-a\], whose end comes before its start/],
			['search://files?q=a&glob=x', /Unknown parameter "glob"/],
			['search://files?q=a&max=1001', /over the limit of 1,000/],
			['search://text?q=%E0%A4%A', /percent-encoding/],
		];
		for (const c of eras.clients) {
			for (const [uri, reason] of bad) {
				const outcome = await outcomeOf(c.client.readResource({ uri }));
				assert.ok(!outcome.ok, `${c.label} ${uri}`);
				assert.equal(outcome.code, -32602, `${c.label} ${uri}`);
				assert.match(outcome.message, reason, `${c.label} ${uri}`);
				assert.doesNotMatch(outcome.message, /\/tmp|at .*\.js/, 'no path or stack');
			}
			assert.equal((await readSearch(c, textUri('activate'))).complete, true, `${c.label}: still answering`);
		}
		assert.deepEqual(server.log.errors, []);
	});

	/**
	 * Asks every era until each answer satisfies `done` (the index hears of unsaved text a few
	 * milliseconds after the editor). Not through `ask`: while the change is on its way, one era's
	 * read may come before it and the other's after.
	 */
	async function untilAnswer(uri: string, done: (a: SearchJson) => boolean): Promise<void> {
		for (const stop = Date.now() + 5000; Date.now() < stop;) {
			const answers = await Promise.all(eras.clients.map(c => readSearch<SearchJson>(c, uri)));
			if (answers.every(done)) {
				return;
			}
			await new Promise<void>(resolve => setImmediate(resolve));
		}
		assert.fail('the answer never came');
	}
});
