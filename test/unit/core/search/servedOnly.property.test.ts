import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { FakeDocuments } from '../../../fakes/fakeDocuments';
import { bothEras, createSearchServer, FilesJson, readSearch, textUri } from '../../../helpers/searchServer';

/** Names the built-in deny-list hides, in any letter case. */
const SECRET_NAMES = ['.env', '.env.production', 'id_rsa', 'id_rsa.pub', 'server.pem', 'private.key', '.npmrc'];
const PLAIN_NAMES = ['a.ts', 'b.md', 'c.txt', 'notes', 'main.py'];
const DIRS = ['', 'src', 'src/deep', 'lib', 'ignored', 'build'];

/** One file of a random tree: where, what kind, and (for secrets) the letter case of its name. */
type Entry =
	| { kind: 'plain'; dir: string; name: string }
	| { kind: 'secret'; dir: string; name: string; upper: boolean[] }
	| { kind: 'log'; dir: string }
	| { kind: 'outward-file'; dir: string }
	| { kind: 'outward-dir'; dir: string };

const entry: fc.Arbitrary<Entry> = fc.oneof(
	fc.record({ kind: fc.constant('plain' as const), dir: fc.constantFrom(...DIRS), name: fc.constantFrom(...PLAIN_NAMES) }),
	fc.record({ kind: fc.constant('secret' as const), dir: fc.constantFrom(...DIRS), name: fc.constantFrom(...SECRET_NAMES), upper: fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }) }),
	fc.record({ kind: fc.constant('log' as const), dir: fc.constantFrom(...DIRS) }),
	fc.record({ kind: fc.constant('outward-file' as const), dir: fc.constantFrom(...DIRS) }),
	fc.record({ kind: fc.constant('outward-dir' as const), dir: fc.constantFrom(...DIRS) }),
);

/** Queries that would find every line of every file, were everything served. */
const queries = fc.constantFrom(
	textUri('needle'), textUri('NEEDLE'), textUri('needle', { case: true, word: true }), textUri('need', { max: 5000 }),
	textUri('ne+dle', { regex: true }), textUri('^.*$', { regex: true, max: 5000 }), textUri('[a-z]', { regex: true, glob: '**', max: 5000 }),
	textUri('needle', { glob: '{src,lib,ignored,build}/**' }), textUri('SECRET|OUTSIDE|IGNORED', { regex: true }),
);

function withCase(name: string, upper: boolean[]): string {
	return Array.from(name, (ch, i) => (upper[i % upper.length] ? ch.toUpperCase() : ch)).join('');
}

describe('property: no search ever returns a line, or a path, of a file that is not served', function () {
	this.timeout(300_000);

	it('random trees with secrets in any case, ignored files and links out of the workspace', async () => {
		await fc.assert(fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 25 }), fc.array(queries, { minLength: 1, maxLength: 3 }), async (entries, uris) => {
			const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-search-prop-')));
			const root = path.join(base, 'ws');
			const outside = path.join(base, 'outside');
			mkdirSync(outside, { recursive: true });
			writeFileSync(path.join(outside, 'target.txt'), 'needle OUTSIDE\n');
			const write = (rel: string, text: string) => {
				mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
				writeFileSync(path.join(root, rel), text);
			};
			write('.gitignore', 'ignored/\n*.log\n');
			const served = new Set<string>(['.gitignore']);
			const documents = new FakeDocuments();
			entries.forEach((e, i) => {
				const at = (name: string) => (e.dir ? `${e.dir}/${name}` : name);
				if (e.kind === 'plain') {
					const rel = at(`${i}-${e.name}`);
					write(rel, `needle plain ${i}\n`);
					if (!e.dir.startsWith('ignored')) {
						served.add(rel);
					}
				} else if (e.kind === 'secret') {
					const rel = at(withCase(e.name, e.upper));
					write(rel, 'needle SECRET\n');
					documents.edit(path.join(root, rel), 'needle SECRET unsaved\n');
				} else if (e.kind === 'log') {
					write(at(`${i}.log`), 'needle IGNORED\n');
				} else {
					mkdirSync(path.join(root, e.dir), { recursive: true });
					symlinkSync(e.kind === 'outward-file' ? path.join(outside, 'target.txt') : outside, path.join(root, at(`link${i}`)));
				}
			});
			const server = createSearchServer([root], { documents });
			const eras = await bothEras(server.registry);
			try {
				for (const c of eras.clients) {
					for (const uri of uris) {
						const answer = await readSearch(c, uri);
						for (const file of answer.files) {
							assert.ok(served.has(file.path), `${c.label} ${uri}: ${file.path} is not served`);
							for (const m of file.matches) {
								assert.doesNotMatch(m.text, /SECRET|OUTSIDE|IGNORED/, `${c.label} ${uri}: ${file.path}:${m.line}`);
							}
						}
					}
					const paths = await readSearch<FilesJson>(c, 'search://files?q=e&max=1000');
					for (const file of paths.files) {
						assert.ok(served.has(file.path), `${c.label} search://files: ${file.path} is not served`);
					}
					// And nothing served is missed: every plain file holds the needle.
					const all = await readSearch(c, textUri('needle plain', { max: 5000 }));
					assert.deepEqual(all.files.map(f => f.path).sort(), [...served].filter(p => p !== '.gitignore').sort(), `${c.label}: every served file found`);
				}
			} finally {
				await eras.close();
				server.dispose();
				rmSync(base, { recursive: true, force: true });
			}
		}), { numRuns: 25 });
	});
});
