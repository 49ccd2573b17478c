import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ExcludeGlobs, expandBraces, MAX_BRACE_EXPANSIONS } from '../../../src/core/files/excludeGlobs';
import { connectInMemory, createTestServer, listAll } from '../../helpers/harness';

/** `files.exclude` keys and `mcpResources.exclude`: VS Code's glob syntax, matched against the folder-relative path. */
describe('exclude globs (VS Code glob syntax)', () => {
	const cases: [string, string[], string[]][] = [
		['**/node_modules', ['node_modules', 'a/node_modules', 'a/b/node_modules'], ['node_modules2', 'a/node_modules/x', 'Node_Modules']],
		['build', ['build'], ['src/build', 'build2']],
		['src/**', ['src', 'src/a.ts', 'src/b/c.ts'], ['a/src/x', 'srcx/a']],
		['**/*.{js,map}', ['a.js', 'a/b.map', 'a/b/c.js'], ['a.ts', 'a.jsx', 'js']],
		['{a,b}/x', ['a/x', 'b/x'], ['c/x', '{a,b}/x']],
		['\\{a,b\\}/x', ['{a,b}/x'], ['a/x']],
		['[a-c].txt', ['a.txt', 'c.txt'], ['d.txt', 'A.txt']],
		['[!a].txt', ['b.txt', 'd.txt'], ['a.txt', '/.txt']],
		['a?c', ['abc', 'a.c'], ['ac', 'a/c', 'abbc']],
		['**/build/**/*.js', ['build/a.js', 'x/build/z.js', 'x/build/y/z.js'], ['build/a.ts', 'x/builds/a.js']],
		['a/**/b/**/c', ['a/b/c', 'a/x/b/y/c'], ['a/b', 'a/c', 'b/c']],
		['x/*/y', ['x/a/y'], ['x/y', 'x/a/b/y']],
		['**/.vscode/*.json', ['.vscode/settings.json', 'a/.vscode/x.json'], ['.vscode/a/x.json']],
		['[unclosed', ['[unclosed'], ['u']],
		['a**b', ['ab', 'axxb'], ['a/b', 'ax/yb']],
	];
	for (const [pattern, matched, unmatched] of cases) {
		it(`${pattern} matches ${matched.join(', ')} and not ${unmatched.join(', ')}`, () => {
			const globs = new ExcludeGlobs([pattern], message => assert.fail(message));
			for (const rel of matched) {
				assert.equal(globs.matches(rel), true, rel);
			}
			for (const rel of unmatched) {
				assert.equal(globs.matches(rel), false, rel);
			}
		});
	}

	it('matches a backtracking glob against a 1,000-directory path and a long name (once minutes of CPU)', () => {
		const deep = `${'d/'.repeat(1000)}x/y/z.ts`;
		assert.equal(new ExcludeGlobs(['**/build/**/*.js'], assert.fail).matches(deep), false);
		assert.equal(new ExcludeGlobs([`${'*a'.repeat(20)}*b`], assert.fail).matches('a'.repeat(5000)), false);
		assert.equal(new ExcludeGlobs([`${'**/a'.repeat(20)}/**/b`], assert.fail).matches(`${'a/'.repeat(2000)}c`), false);
	});

	it('expands braces, nested too, up to a bound', () => {
		assert.deepEqual(expandBraces('x.{a,{b,c}d}'), ['x.a', 'x.bd', 'x.cd']);
		assert.deepEqual(expandBraces('{a'), ['{a']);
		assert.equal(expandBraces('{a,b}'.repeat(10))!.length, MAX_BRACE_EXPANSIONS);
		assert.equal(expandBraces('{a,b}'.repeat(11)), undefined);
	});

	it('fails closed, with a warning, on a pattern it cannot compile: over 16,384 characters, or too many alternatives', () => {
		for (const pattern of [`${'a/'.repeat(35_000)}x`, `x\nforged log line${'{a,b}'.repeat(40)}`]) {
			const warnings: string[] = [];
			const globs = new ExcludeGlobs(['**/other', pattern], message => warnings.push(message));
			assert.equal(warnings.length, 1);
			assert.ok(warnings[0].length < 400, 'the warning does not repeat the whole pattern');
			assert.ok(!warnings[0].includes('\n'), 'one line, whatever the pattern holds');
			assert.equal(globs.matches('README.md'), true);
			assert.equal(globs.matchesIn('src/', 'a.ts'), true);
		}
	});

	it('serves nothing, answers lists and warns when a setting holds a 70,000-character pattern (picomatch threw and the walk stopped)', async () => {
		const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-exclude-')));
		try {
			mkdirSync(path.join(root, 'src'));
			writeFileSync(path.join(root, 'src', 'a.ts'), 'x');
			writeFileSync(path.join(root, 'README.md'), 'x');
			const server = createTestServer([root], { settings: { exclude: [`${'a/'.repeat(35_000)}x`] } });
			const conn = await connectInMemory(server.registry);
			try {
				assert.deepEqual((await listAll(conn.client)).filter(r => r.uri.startsWith('file:')), []);
				assert.ok(server.log.warnings.some(w => /exclude pattern .* cannot be used/.test(w)), server.log.warnings.join('\n'));
				// Fixing the setting serves again, without a restart.
				const changed = conn.waitForListChanged();
				server.settings.set({ exclude: ['src/**'] });
				await changed;
				assert.deepEqual((await listAll(conn.client)).filter(r => r.uri.startsWith('file:')).map(r => r.name), ['README.md']);
			} finally {
				await conn.close();
				server.dispose();
			}
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});
});
