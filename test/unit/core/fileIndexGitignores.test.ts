import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileFilter } from '../../../src/core/files/fileFilter';
import { FileIndex } from '../../../src/core/files/fileIndex';
import { WorkspaceRoots } from '../../../src/core/files/workspaceRoots';
import { FileSystemReader } from '../../../src/core/ports';
import { fileUri } from '../../../src/core/uriGuard';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { defaultFileSettings } from '../../fakes/fakeSettings';
import { applyWatcherBatch, writeUnder } from '../../helpers/watcherBatch';

/** The disk, counting the `.gitignore` files read. */
class CountingReader extends NodeFileSystem {
	gitignoreReads = 0;

	override readFileUpTo(...args: Parameters<FileSystemReader['readFileUpTo']>): ReturnType<FileSystemReader['readFileUpTo']> {
		if (path.basename(args[0]) === '.gitignore') {
			this.gitignoreReads++;
		}
		return super.readFileUpTo(...args);
	}
}

/**
 * The filter's `.gitignore` cache follows the served directories on disk, as the directory table
 * follows listed files: it kept an entry per directory ever walked (about 80 bytes each, 5-24 KB
 * with a `.gitignore` of its own), so tools that keep making uniquely named directories grew it
 * for the window's life. A directory deleted and made again is judged by what it holds now.
 */
describe('files index .gitignore cache', () => {
	let root: string;
	let reader: CountingReader;
	let index: FileIndex;

	const write = (rel: string, text?: string) => writeUnder(root, rel, text);
	const apply = (kind: 'created' | 'deleted', rels: readonly string[]) => applyWatcherBatch(index, root, kind, rels);
	const listedUnder = (dir: string) => {
		const view = index.sorted();
		const prefix = `${fileUri(path.join(root, dir))}/`;
		return Array.from({ length: view.length }, (_, i) => view.at(i)!.uri).filter(uri => uri.startsWith(prefix)).map(uri => uri.slice(prefix.length));
	};
	/** Directories on disk the rules serve (what the filter may know), the folder root included. */
	const servedDirectoriesOnDisk = (rel = ''): string[] => {
		const below = readdirSync(path.join(root, rel), { withFileTypes: true })
			.filter(entry => entry.isDirectory())
			.map(entry => (rel ? `${rel}/${entry.name}` : entry.name))
			.filter(child => !index.filter.isIgnored(index.roots.folders[0], child, true));
		return [rel, ...below.flatMap(child => servedDirectoriesOnDisk(child))];
	};

	beforeEach(async () => {
		root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-ignores-')));
		write('.gitignore', 'node_modules/\n');
		write('src/a.ts');
		write('node_modules/pkg/index.js');
		// Served, but listing nothing: its own `.gitignore` hides everything in it, itself too.
		write('dist/.gitignore', '*\n');
		mkdirSync(path.join(root, 'tmp'));
		reader = new CountingReader();
		const roots = await WorkspaceRoots.resolve([{ name: 'ws', path: root }], reader);
		index = new FileIndex(reader, roots, new FileFilter(reader, defaultFileSettings));
		await index.build();
	});

	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it('forgets every uniquely named directory that came and went, with and without a .gitignore of its own', async () => {
		const live = servedDirectoriesOnDisk().length;
		assert.equal(index.filter.cachedDirectories, live, 'right after the walk: every served directory');
		for (let round = 0; round < 12; round++) {
			// Half the rounds put them below one directory that then goes as a whole, reported
			// alone, as editors' watchers coalesce a deleted tree into its top.
			const top = round % 2 === 0 ? undefined : `tmp/batch-${round}`;
			const made: string[] = [];
			for (let k = 0; k < 25; k++) {
				const dir = `${top ?? 'tmp'}/${round.toString(36)}${k.toString(36)}${Math.random().toString(36).slice(2, 10)}`;
				// A test runner's temp directory with files, half with a `.gitignore` of their own
				// and a nested one with its own, and an empty one in it.
				write(`${dir}/out.txt`);
				write(`${dir}/deep/er/x.txt`);
				mkdirSync(path.join(root, `${dir}/empty`));
				if (k % 2 === 0) {
					write(`${dir}/.gitignore`, '*.log\n');
					write(`${dir}/deep/.gitignore`, 'nothing-here/\n');
				}
				made.push(dir);
			}
			assert.equal((await apply('created', top ? [top] : made)).listChanged, true);
			assert.ok(index.filter.cachedDirectories >= live + 25 * 4, `the made directories are read: ${index.filter.cachedDirectories}`);
			for (const dir of top ? [top] : made) {
				rmSync(path.join(root, dir), { recursive: true });
			}
			await apply('deleted', top ? [top] : made);
		}
		assert.deepEqual(listedUnder('tmp'), []);
		assert.deepEqual(servedDirectoriesOnDisk().sort(), ['', 'dist', 'src', 'tmp']);
		assert.equal(index.filter.cachedDirectories, live, '1,200 directories were walked over the rounds');
		assert.ok(index.filter.cachedChains <= live, `chains cached: ${index.filter.cachedChains}`);
	});

	it('judges a directory deleted and made again by the .gitignore it has now, reported by its files or as a directory', async () => {
		const folder = index.roots.folders[0];
		const files = ['a.txt', 'b.log', 'c.md', 'inner/d.txt', 'inner/e.log'];
		/** Makes `gen` again with these rules (none: no `.gitignore`) in it and in `gen/inner`. */
		const remake = (rules: string | undefined, innerRules: string | undefined) => {
			rmSync(path.join(root, 'gen'), { recursive: true, force: true });
			files.forEach(rel => write(`gen/${rel}`));
			if (rules !== undefined) {
				write('gen/.gitignore', rules);
			}
			if (innerRules !== undefined) {
				write('gen/inner/.gitignore', innerRules);
			}
		};
		const reportFiles = () => apply('created', files.map(rel => `gen/${rel}`));
		const remove = async () => {
			rmSync(path.join(root, 'gen'), { recursive: true });
			await apply('deleted', ['gen']);
			assert.deepEqual(listedUnder('gen'), []);
		};

		remake('*.log\n', 'd.txt\n');
		await apply('created', ['gen']);
		assert.deepEqual(listedUnder('gen'), ['.gitignore', 'a.txt', 'c.md', 'inner/.gitignore']);

		// Made again with other rules, reported only by the files in it (not its `.gitignore`
		// files, whose events would rebuild the index): they must not be judged by the old ones.
		await remove();
		remake('*.txt\n', '!d.txt\ne.log\n');
		await reportFiles();
		assert.deepEqual(listedUnder('gen'), ['b.log', 'c.md', 'inner/d.txt']);
		assert.equal(index.filter.isIgnored(folder, 'gen/z.txt', false), true, 'what editors and problems are judged by');
		assert.equal(index.filter.isIgnored(folder, 'gen/z.log', false), false);

		// Made again with no `.gitignore` at all: nothing of the old rules is left.
		await remove();
		remake(undefined, undefined);
		await reportFiles();
		assert.deepEqual(listedUnder('gen'), files);

		// Its subdirectory reported before it (or alone): judged by the parent's rules as they are now.
		await remove();
		remake('inner/\n', undefined);
		await apply('created', ['gen/inner', 'gen/c.md']);
		assert.deepEqual(listedUnder('gen'), ['c.md']);

		// And reported as a directory, walked.
		await remove();
		remake('c.md\n', '*\n');
		await apply('created', ['gen']);
		assert.deepEqual(listedUnder('gen'), ['.gitignore', 'a.txt', 'b.log']);
	});

	it('reads no .gitignore for events under ignored directories, nor again under a served one that lists nothing', async () => {
		const reads = reader.gitignoreReads;
		for (let round = 0; round < 20; round++) {
			const files = [`node_modules/.cache/${round}/entry.json`, `node_modules/pkg/${round}.js`, `dist/${round}.js`, `dist/chunks-${round}/main.js`];
			files.forEach(rel => write(rel));
			await apply('created', [...files, `node_modules/.cache/${round}`, `dist/chunks-${round}`]);
		}
		assert.equal(reader.gitignoreReads, reads);
		assert.deepEqual(listedUnder('dist'), []);
		assert.deepEqual(listedUnder('node_modules'), []);
	});
});
