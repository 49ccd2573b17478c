import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileFilter } from '../../../src/core/files/fileFilter';
import { FileIndex } from '../../../src/core/files/fileIndex';
import { FileStore } from '../../../src/core/files/fileStore';
import { WorkspaceRoots } from '../../../src/core/files/workspaceRoots';
import { paginate } from '../../../src/core/pager';
import { fileUri } from '../../../src/core/uriGuard';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { defaultFileSettings } from '../../fakes/fakeSettings';
import { applyWatcherBatch, writeUnder } from '../../helpers/watcherBatch';

const reader = new NodeFileSystem();
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The directory table follows what is listed: a directory stays while a listed file is in it or
 * below it, and its number is used again once it goes. Tools that keep making uniquely named
 * directories (hashed build output, test runners' temp dirs, `node_modules/.cache/<hash>`) grew
 * it by a directory each, for the life of the window.
 */
describe('files index directories', () => {
	let root: string;
	let index: FileIndex;

	const write = (rel: string, text?: string) => writeUnder(root, rel, text);
	const apply = (kind: 'created' | 'deleted', rels: readonly string[]) => applyWatcherBatch(index, root, kind, rels);
	const listedUris = () => {
		const view = index.sorted();
		return Array.from({ length: view.length }, (_, i) => view.at(i)!.uri);
	};
	/** Every directory on the way to a listed file, the folder root included. */
	const directoriesOfListed = () => {
		const dirs = new Set<string>();
		for (const uri of listedUris()) {
			for (let dir = path.dirname(fileURLToPath(uri)); !dirs.has(dir); dir = path.dirname(dir)) {
				dirs.add(dir);
				if (dir === root) {
					break;
				}
			}
		}
		return [...dirs].sort();
	};

	beforeEach(async () => {
		root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-dirs-')));
		write('.gitignore', 'node_modules/\n');
		write('src/a.ts');
		write('src/lib/b.ts');
		write('node_modules/pkg/index.js');
		mkdirSync(path.join(root, 'empty'));
		const roots = await WorkspaceRoots.resolve([{ name: 'ws', path: root }], reader);
		index = new FileIndex(reader, roots, new FileFilter(reader, defaultFileSettings));
		await index.build();
	});

	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it('holds only the directories of listed files after many uniquely named ones came and went', async () => {
		for (let round = 0; round < 20; round++) {
			const made: string[] = [];
			const events: string[] = [];
			for (let k = 0; k < 25; k++) {
				const hash = `${round.toString(36)}${k.toString(36)}${Math.random().toString(36).slice(2, 10)}`;
				// Build output with a hashed name, a test runner's temp directory (empty when the
				// event is looked at), and an ignored cache (only its file is reported).
				write(`dist/${hash}/chunks/main.js`);
				mkdirSync(path.join(root, 'tmp', hash), { recursive: true });
				write(`node_modules/.cache/${hash}/entry.json`);
				made.push(`dist/${hash}`, `tmp/${hash}`, `node_modules/.cache/${hash}`);
				events.push(`dist/${hash}`, `tmp/${hash}`, `node_modules/.cache/${hash}/entry.json`);
			}
			assert.equal((await apply('created', events)).listChanged, true);
			for (const rel of made) {
				rmSync(path.join(root, rel), { recursive: true });
			}
			await apply('deleted', made);
		}
		assert.deepEqual(listedUris(), ['.gitignore', 'src/a.ts', 'src/lib/b.ts'].map(rel => fileUri(path.join(root, rel))));
		// `dist`, `tmp` and `empty` still exist, but hold nothing listed.
		assert.deepEqual([...index.directories()].sort(), directoriesOfListed());
		assert.deepEqual(directoriesOfListed(), [root, path.join(root, 'src'), path.join(root, 'src', 'lib')]);
		// 2,000 directories were interned over the rounds; their numbers were used again.
		assert.ok(index.store.dirs.length <= 160, `directory numbers in use or free: ${index.store.dirs.length}`);
	});

	it('hands the watcher every directory walked, empty ones too, and lets the empty ones go with the first batch', async () => {
		const walked = [root, 'empty', 'src', 'src/lib'].map(rel => path.resolve(root, rel));
		assert.deepEqual([...index.directories()].sort(), walked, 'no ignored directory, as none was walked');
		write('src/lib/c.ts');
		await apply('created', ['src/lib/c.ts']);
		assert.deepEqual([...index.directories()].sort(), walked.filter(dir => !dir.endsWith('empty')));
	});

	it('lists, pages and finds files as before when released directory numbers are used again', async () => {
		const gone = ['a-gone/1.txt', 'a-gone/2.txt', 'a-gone/3.txt', 'a-gone/sub/4.txt', 'a-gone/sub/5.txt'];
		gone.forEach(rel => write(rel));
		await apply('created', ['a-gone']);
		const goneDirs = new Set(gone.map(rel => index.store.dirNumberOf(index.store.find(fileUri(path.join(root, rel))))));
		assert.equal(goneDirs.size, 2);
		const numbersBefore = index.store.dirs.length;
		// A cursor inside the directory that goes: `.gitignore`, `a-gone/1.txt`, `a-gone/2.txt`.
		const sections = () => [{ id: 'files', items: index.sorted() }];
		const first = paginate(sections(), undefined, 3);
		assert.deepEqual(first.resources.map(r => r.name), ['.gitignore', 'a-gone/1.txt', 'a-gone/2.txt']);

		rmSync(path.join(root, 'a-gone'), { recursive: true });
		await apply('deleted', ['a-gone']);
		// Two new directories, one sorting before `src/` and one after it, each with files, and a
		// file added to a directory that stayed: the new ones take the released numbers.
		const added = ['b-mid/x.txt', 'b-mid/y.txt', 'zz-new/p.txt', 'zz-new/q.txt', 'src/c.ts'];
		added.forEach(rel => write(rel));
		await apply('created', ['b-mid', 'zz-new', 'src/c.ts']);
		assert.equal(index.store.dirs.length, numbersBefore, 'no new directory numbers');
		const addedDirs = new Set(added.slice(0, 4).map(rel => index.store.dirNumberOf(index.store.find(fileUri(path.join(root, rel))))));
		assert.deepEqual([...addedDirs].sort(), [...goneDirs].sort(), 'the released numbers hold the new directories');

		const expected = ['.gitignore', 'src/a.ts', 'src/lib/b.ts', ...added].sort((a, b) => byCodeUnits(fileUri(path.join(root, a)), fileUri(path.join(root, b))));
		assert.deepEqual(listedUris(), expected.map(rel => fileUri(path.join(root, rel))));
		// Page by page from the start, and from the cursor taken before the change.
		const walked: string[] = [];
		let cursor: string | undefined;
		do {
			const page = paginate(sections(), cursor, 2);
			walked.push(...page.resources.map(r => r.name));
			cursor = page.nextCursor;
		} while (cursor);
		assert.deepEqual(walked, expected);
		const resumed = paginate(sections(), first.nextCursor, 3);
		assert.deepEqual(resumed.resources.map(r => r.name), expected.filter(rel => fileUri(path.join(root, rel)) > fileUri(path.join(root, 'a-gone/2.txt'))).slice(0, 3));
		assert.deepEqual(resumed.resources.map(r => r.name), ['b-mid/x.txt', 'b-mid/y.txt', 'src/a.ts']);
		// Lookups: each file by its URI, with its own entry; the gone ones not at all.
		for (const rel of expected) {
			const uri = fileUri(path.join(root, rel));
			const slot = index.store.find(uri);
			assert.ok(slot >= 0, rel);
			assert.equal(index.store.uriOf(slot), uri);
			assert.equal(index.store.entryOf(slot).name, rel);
		}
		for (const rel of gone) {
			assert.equal(index.store.find(fileUri(path.join(root, rel))), -1, rel);
		}
		assert.deepEqual(index.store.below(fileUri(path.join(root, 'a-gone'))), []);
		assert.deepEqual(index.store.below(fileUri(path.join(root, 'zz-new'))).map(f => f.uri).sort(), ['zz-new/p.txt', 'zz-new/q.txt'].map(rel => fileUri(path.join(root, rel))));
	});
});

describe('files store directory numbers', () => {
	it('orders from scratch as the merges do when directory numbers were released and used again', async () => {
		const base = path.join(os.tmpdir(), 'ws');
		const store = new FileStore(['ws'], false);
		const root = store.dirs.root(0, base);
		const uriOf = (rel: string) => fileUri(path.join(base, rel));
		const add = (rel: string) => {
			let dir = root;
			const parts = rel.split('/');
			for (const part of parts.slice(0, -1)) {
				dir = store.dirs.child(dir, part);
			}
			store.add(dir, parts[parts.length - 1], 1, 0, uriOf(rel));
		};
		['m.txt', 'k/a.txt', 'k/deep/b.txt', 'k/deep/er/c.txt', 'q/d.txt'].forEach(add);
		await store.sortAll(() => undefined);
		const numbers = store.dirs.length;
		for (const rel of ['k/a.txt', 'k/deep/b.txt', 'k/deep/er/c.txt']) {
			store.remove(store.find(uriOf(rel)), uriOf(rel));
		}
		await store.commit(() => undefined);
		// Released `k`, `k/deep` and `k/deep/er`; new ones whose numbers are lower than their parents'.
		const now = ['m.txt', 'q/d.txt', 'q/z/e.txt', 'q/z/y/f.txt', 'a/g.txt'];
		now.slice(2).forEach(add);
		await store.commit(() => undefined);
		assert.equal(store.dirs.length, numbers, 'no new directory numbers');
		const listed = () => Array.from({ length: store.view.length }, (_, i) => store.view.at(i)!.uri);
		const expected = now.map(uriOf).sort(byCodeUnits);
		assert.deepEqual(listed(), expected);
		await store.sortAll(() => undefined);
		assert.deepEqual(listed(), expected);
	});
});
