import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitignoreRules, parseGitignore } from '../../../src/core/files/gitignoreRules';
import { FileStore } from '../../../src/core/files/fileStore';
import { NameGlobs } from '../../../src/core/files/nameGlobs';
import { fileUri } from '../../../src/core/uriGuard';
import { connectInMemory, createTestServer, listAll } from '../../helpers/harness';

/**
 * Names whose URIs sort differently from their paths, or that sit where a directory's files and
 * its subdirectories interleave: the compact index orders by directory, and must still give
 * exactly the URI order.
 */
const TRICKY = [
	'a-', 'a-b/x.txt', 'a.b', 'a/b.txt', 'a/b/c.txt', 'a/b-c.txt', 'a/b!.txt', 'a/~b.txt', 'a/B.txt',
	'a0/z.txt', 'a!/y.txt', 'with space/f.txt', 'with space.txt', 'pct%20/f.txt', 'pct%/g.txt', 'hash#/h.txt',
	'q?/i.txt', 'é/j.txt', 'e/k.txt', 'Z/l.txt', 'z/m.txt', 'deep/er/than/most/n.txt', 'deep/er-/o.txt',
	'deep/er.txt', 'brace{}/p.txt', 'back`tick/q.txt', 'caret^/r.txt', 'pipe|/s.txt', 'semi;/t.txt', 'ünï/文件.txt',
];

describe('files index order and URIs', () => {
	let root: string;

	beforeEach(() => {
		root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwr-order-')));
		for (const rel of TRICKY) {
			mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
			writeFileSync(path.join(root, rel), rel);
		}
	});

	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it('lists the URIs pathToFileURL gives, in code unit order, across pages and changes', async () => {
		const server = createTestServer([root]);
		await server.files.ready();
		const conn = await connectInMemory(server.registry, server.log, 7);
		try {
			const expected = (rels: string[]) => rels.map(rel => fileUri(path.join(root, rel))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
			assert.deepEqual((await listAll(conn.client)).map(r => r.uri), expected(TRICKY));
			const byUri = new Map((await listAll(conn.client)).map(r => [r.uri, r.name]));
			assert.equal(byUri.get(fileUri(path.join(root, 'ünï/文件.txt'))), 'ünï/文件.txt');

			const added = ['a/b/a.txt', 'a/b c.txt', 'pct%20/e.txt', 'new dir/ß.txt'];
			for (const rel of added) {
				mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
				writeFileSync(path.join(root, rel), rel);
			}
			unlinkSync(path.join(root, 'a/b-c.txt'));
			rmSync(path.join(root, 'deep'), { recursive: true });
			const changed = conn.waitForListChanged();
			server.watcher.fire(
				...['a/b/a.txt', 'a/b c.txt', 'pct%20/e.txt', 'new dir', 'a/b-c.txt', 'deep'].map(rel => ({ kind: 'created' as const, path: path.join(root, rel) })),
			);
			await changed;
			const now = TRICKY.filter(rel => rel !== 'a/b-c.txt' && !rel.startsWith('deep/')).concat(added);
			assert.deepEqual((await listAll(conn.client)).map(r => r.uri), expected(now));
		} finally {
			await conn.close();
			server.dispose();
		}
	});
});

describe('files store', () => {
	it('orders by URI after the first walk, whether a directory\'s files came sorted, reversed or among subdirectories', async () => {
		const base = path.join(os.tmpdir(), 'ws');
		const store = new FileStore(['ws'], false);
		const root = store.dirs.root(0, base);
		// Around `sub/`: `sub.txt` sorts before it ('.' < '/') and `sub0` after ('0' > '/').
		const names = ['b.txt', 'a b.txt', 'a-', 'é.txt', 'Z', 'c%', 'sub.txt', 'sub0', 'zz.txt'];
		const sorted = [...names];
		store.dirs.sortNames(store.dirs.get(root), sorted);
		const [sub, spaced, zz] = ['sub', 'a b', 'zz'].map(name => store.dirs.child(root, name));
		const added: string[] = [];
		const add = (dir: number, rel: string, name: string) => {
			store.add(dir, name, 1, 0);
			added.push(path.join(base, rel, name));
		};
		sorted.forEach(name => add(root, '', name));
		[...sorted].reverse().forEach(name => add(sub, 'sub', name));
		sorted.forEach(name => add(spaced, 'a b', name));
		add(zz, 'zz', 'only');
		await store.sortAll(() => undefined);
		const listed = Array.from({ length: store.view.length }, (_, i) => store.view.at(i)!.uri);
		assert.deepEqual(listed, added.map(fileUri).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
	});

	it('lists a modification time past year 9999 or before year 1 (a 64-bit file system\'s) as the nearest one an ISO date-time can write', async () => {
		const store = new FileStore(['ws'], false);
		const root = store.dirs.root(0, path.join(os.tmpdir(), 'ws'));
		const times = { 'y10000.txt': 253_402_300_800_000, 'past-date.txt': 8.64e15 + 1, 'huge.txt': 1e300, 'y0.txt': -62_135_596_800_001, 'tiny.txt': -1e300, 'now.txt': 1_700_000_000_123 };
		for (const [name, mtimeMs] of Object.entries(times)) {
			store.add(root, name, 1, mtimeMs);
		}
		await store.sortAll(() => undefined);
		const listed = Object.fromEntries(Array.from({ length: store.view.length }, (_, i) => store.view.at(i)!).map(e => [e.name, e.annotations?.lastModified]));
		assert.deepEqual(listed, {
			'y10000.txt': '9999-12-31T23:59:59.999Z', 'past-date.txt': '9999-12-31T23:59:59.999Z', 'huge.txt': '9999-12-31T23:59:59.999Z',
			'y0.txt': '0001-01-01T00:00:00.000Z', 'tiny.txt': '0001-01-01T00:00:00.000Z', 'now.txt': '2023-11-14T22:13:20.123Z',
		});
	});

	it('keeps names, order and lookups right when most names are removed and their bytes reclaimed', async () => {
		const store = new FileStore(['ws'], false);
		const root = store.dirs.root(0, path.join(os.tmpdir(), 'ws'));
		const dir = store.dirs.child(root, 'sub');
		const name = (i: number) => `${'long-name-'.repeat(8)}${i}-ü.txt`;
		const uriOf = (i: number) => fileUri(path.join(os.tmpdir(), 'ws', 'sub', name(i)));
		for (let i = 0; i < 20_000; i++) {
			store.add(dir, name(i), i, 0, uriOf(i));
		}
		await store.commit(() => undefined);
		for (let i = 0; i < 20_000; i++) {
			if (i % 100 !== 0) {
				store.remove(store.find(uriOf(i)), uriOf(i));
			}
		}
		store.add(dir, name(20_000), 1, 0, uriOf(20_000));
		await store.commit(() => undefined); // over 1 MB of dead names: copied to a new buffer
		const kept = [...Array.from({ length: 200 }, (_, k) => k * 100), 20_000];
		assert.equal(store.size, kept.length);
		assert.deepEqual(Array.from({ length: store.view.length }, (_, i) => store.view.at(i)!.uri), kept.map(uriOf).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
		for (const i of kept) {
			assert.equal(store.view.at(store.find(uriOf(i)) >= 0 ? store.search(uriOf(i), false) : -1)?.name, `sub/${name(i)}`);
		}
		assert.equal(store.find(uriOf(1)), -1);
	});
});

describe('gitignore rules', () => {
	const RULE_FILES = ['*.log\nbuild/\n', 'node_modules\ncoverage/\n*.tmp\n?.bak\nfoo*\n', 'Thumbs.db\n.DS_Store\n*.o\n*.a\n', '*.log\n!a.log\n', '[ab].tmp\n'];
	const NAMES = ['a.log', 'A.LOG', 'build', 'x.ts', 'node_modules', 'coverage', 'c.tmp', 'x.bak', 'xy.bak', 'foo', 'foobar', 'barfoo', 'thumbs.db', '.DS_Store', 'lib.o', 'lib.a', '.log', 'log', 'a.tmp', 'b.TMP'];

	it('answers a name alike through the compiled names and through the rules one by one (whose answers gitignoreGit.test.ts checks against git)', () => {
		for (const text of RULE_FILES) {
			const rules = parseGitignore(text)!;
			assert.ok(rules.byNameOnly);
			for (const name of NAMES) {
				for (const isDirectory of [false, true]) {
					const path = isDirectory ? `${name}/` : name;
					assert.equal(rules.testName(name, isDirectory).ignored, rules.test(path).ignored, `${JSON.stringify(text)} ${path}`);
					assert.equal(rules.test(`dir/${path}`).ignored, rules.test(path).ignored);
				}
			}
		}
	});

	it('reads a rule line longer than a path can be without trouble, and the rules after it', () => {
		// A `.gitignore` from a clone: 40,000 characters on one line, then an ordinary rule.
		const rules = parseGitignore(`${'a/'.repeat(20_000)}x\n*.log\n`);
		assert.ok(rules);
		assert.deepEqual([rules.test('x.log').ignored, rules.test('dir/x.txt').ignored, rules.ignores('b.log')], [true, false, true]);
	});

	it('compiles a 60,000-character line of `**/` to one token, and a line needing more units than a path holds to nothing', () => {
		const rules = new GitignoreRules([`${'**/'.repeat(20_000)}x`, `${'*a'.repeat(20_000)}*`], false);
		assert.equal(rules.test('a/b/x').ignored, true);
		assert.equal(rules.test('x').ignored, true);
		assert.equal(rules.test('a'.repeat(4096)).ignored, false);
	});

	it('tells rules that need the whole path from those that need only the name', () => {
		assert.equal(new GitignoreRules(['/build'], false).byNameOnly, false);
		assert.equal(new GitignoreRules(['docs/*.md'], false).byNameOnly, false);
		assert.equal(new GitignoreRules(['**/x'], false).byNameOnly, false);
		assert.equal(new GitignoreRules(['*.log', '!keep.log'], false).negates, true);
		const negated = new GitignoreRules(['*.log', '!keep.log'], false);
		assert.equal(negated.testName('keep.log', false).ignored, false);
		assert.equal(negated.testName('other.log', false).ignored, true);
	});

	it('matches name globs without regard to case, as the secrets list needs', () => {
		const secrets = new NameGlobs(['.env', '.env.*', '*.pem', 'id_rsa*', '*.tfstate.*', 'credentials.json', '[ab].key']);
		const isSecret = (name: string) => secrets.matches(name);
		for (const name of ['.env', '.ENV', '.env.local', 'server.PEM', 'ID_RSA.pub', 'x.tfstate.backup', 'Credentials.JSON', 'a.key', 'B.KEY']) {
			assert.ok(isSecret(name), name);
		}
		for (const name of ['env', 'x.env.txt', 'pem', 'my_id_rsa', 'x.tfstate', 'credentials.json.txt', 'c.key']) {
			assert.ok(!isSecret(name), name);
		}
	});

	it('matches suffix globs by the whole suffix, whatever the extension lookup finds first', () => {
		const globs = new NameGlobs(['*.tar.gz', '*.gz.bak', '*~', '*.pem', 'ab*', 'a.c*']);
		const matches = (name: string) => globs.matches(name);
		for (const name of ['x.tar.gz', 'X.TAR.GZ', '.tar.gz', 'y.gz.bak', 'notes~', '~', '.pem', 'k.PEM', 'abc', 'a.cfg', 'AB']) {
			assert.ok(matches(name), name);
		}
		for (const name of ['x.gz', 'x.tar.gzip', 'tar.gz', 'x.bak', 'notes~.txt', 'pem', 'x.pem.txt', 'a.b', 'ba', '', '.']) {
			assert.ok(!matches(name), name);
		}
	});

	it('matches *part* globs anywhere in a name, as git does, and names outside ASCII against every list', () => {
		const globs = ['*.tfstate.*', '*.*', '*é*', 'é*', '*é', 'émoji'];
		const matcher = new NameGlobs(globs);
		const matches = (name: string, lower?: string) => matcher.matches(name, lower);
		const expected = new Map([['.tfstate.', true], ['A.TFSTATE.b', true], ['x.y', true], ['.', true], ['é', true], ['Émoji', true], ['xéx', true], ['éa', true], ['aé', true], ['plain', false], ['tfstate', false]]);
		for (const [name, gitSays] of expected) {
			assert.strictEqual(matches(name), gitSays, name);
			// The same answer when the caller hands over the name in lower case.
			assert.strictEqual(matches(name, name.toLowerCase()), gitSays, name);
		}
	});
});
