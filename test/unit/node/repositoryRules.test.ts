import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileFilter } from '../../../src/core/files/fileFilter';
import { FileIndex } from '../../../src/core/files/fileIndex';
import { WorkspaceRoots } from '../../../src/core/files/workspaceRoots';
import { OffThreadWalker } from '../../../src/core/files/walkBatch';
import { createHeadlessRegistry } from '../../../src/node/headless';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { ThreadWalker } from '../../../src/node/threadWalker';
import { defaultFileSettings } from '../../fakes/fakeSettings';
import { FakeWatcher } from '../../fakes/fakeWatcher';
import { TestRepo } from '../../helpers/gitRepo';
import { connectInMemory, errorOf, listAll, RecordingLogger } from '../../helpers/harness';

const reader = new NodeFileSystem();

/** The files an index of `folder` lists, by relative path, walked in this thread or by `walker`. */
async function indexedNames(folder: string, walker?: OffThreadWalker): Promise<string[]> {
	const roots = await WorkspaceRoots.resolve([{ name: path.basename(folder), path: folder }], reader);
	const index = new FileIndex(reader, roots, new FileFilter(reader, defaultFileSettings), walker);
	await index.build();
	const view = index.sorted();
	return Array.from({ length: view.length }, (_, i) => view.at(i)!.name);
}

/**
 * A repository's subfolder opened on its own (a package of a monorepo): git applies the
 * `.gitignore` files from the repository's top down to it, and so must the served-or-not rule.
 */
describe('a repository\'s ignore rules outside an opened folder', () => {
	let repo: TestRepo;
	beforeEach(() => {
		repo = new TestRepo('mono');
		repo.write('.gitignore', '*.log\n!keep.log\nlocal.json\npackages/app/dist/\nbuild/\n');
		repo.write('packages/.gitignore', 'generated/\n');
		for (const rel of ['src/a.ts', 'x.log', 'keep.log', 'local.json', 'dist/out.js', 'generated/g.ts', 'sub/y.log']) {
			repo.write(`packages/app/${rel}`, 'x\n');
		}
		repo.write('build/out.js', 'x\n');
	});
	afterEach(() => repo.dispose());

	const served = ['keep.log', 'src/a.ts'];

	it('hides what they ignore in the folder, in lists and reads, as git does', async () => {
		const app = path.join(repo.root, 'packages', 'app');
		const log = new RecordingLogger();
		const { registry } = createHeadlessRegistry({ roots: [app], log, watcher: new FakeWatcher() });
		const conn = await connectInMemory(registry, log, 10);
		try {
			const files = (await listAll(conn.client)).filter(r => r.uri.startsWith('file:'));
			assert.deepEqual(files.map(r => r.name), served);
			for (const rel of ['x.log', 'local.json', 'dist/out.js', 'generated/g.ts', 'sub/y.log']) {
				const uri = pathToFileURL(path.join(app, rel)).href;
				const err = await errorOf(conn.client.readResource({ uri }));
				assert.deepEqual([err.code, err.data], [-32602, { uri }], rel);
			}
		} finally {
			await conn.close();
			registry.dispose();
		}
	});

	it('hides the same files when the walk runs in its own thread', async () => {
		const app = path.join(repo.root, 'packages', 'app');
		const log = new RecordingLogger();
		assert.deepEqual(await indexedNames(app, new ThreadWalker(log)), served);
		assert.deepEqual(log.warnings, [], 'the worker walked');
	});

	it('serves a folder the rules above ignore (a build output opened on purpose) by its own rules', async () => {
		assert.deepEqual(await indexedNames(path.join(repo.root, 'build')), ['out.js']);
	});

	it('hides what the repository\'s .git/info/exclude names, at its top and in a subfolder', async () => {
		repo.write('.git/info/exclude', 'scratch.md\n/packages/app/TODO.txt\n');
		repo.write('scratch.md', 'x\n');
		repo.write('packages/app/scratch.md', 'x\n');
		repo.write('packages/app/TODO.txt', 'x\n');
		repo.write('top.ts', 'x\n');
		assert.deepEqual(await indexedNames(path.join(repo.root, 'packages', 'app')), served);
		const atTop = await indexedNames(repo.root);
		assert.ok(atTop.includes('top.ts') && atTop.includes('.gitignore'), atTop.join(' '));
		assert.deepEqual(atTop.filter(name => name.endsWith('scratch.md') || name.endsWith('TODO.txt')), []);
	});

	it('takes a rule file that is no regular file (a FIFO, a link to /dev/zero) as absent, as git does, and never hangs on it', async () => {
		// Read whole, a FIFO blocks a thread-pool thread for good and /dev/zero fills memory.
		const fifo = (rel: string) => {
			rmSync(path.join(repo.root, rel), { force: true });
			mkdirSync(path.dirname(path.join(repo.root, rel)), { recursive: true });
			execFileSync('mkfifo', [path.join(repo.root, rel)]);
		};
		fifo('packages/.gitignore');
		fifo('packages/app/deep/new/.gitignore');
		fifo('packages/app/src/.gitignore');
		rmSync(path.join(repo.root, '.git/info/exclude'), { force: true });
		symlinkSync('/dev/zero', path.join(repo.root, '.git/info/exclude'));
		const app = path.join(repo.root, 'packages', 'app');
		assert.deepEqual(await indexedNames(app), ['generated/g.ts', ...served]);
		const filter = new FileFilter(reader, defaultFileSettings);
		const folder = { name: 'app', path: app };
		assert.equal(await filter.isServed(folder, 'deep/new/x.ts', false), true, 'a directory the index has not seen');
		assert.equal(await filter.isServed(folder, 'deep/new/x.log', false), false);
	});

	it('reads no .gitignore above a folder that no repository holds, as git reads none', async () => {
		const parent = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwr-norepo-')));
		try {
			writeFileSync(path.join(parent, '.gitignore'), '*.log\n');
			mkdirSync(path.join(parent, 'app'));
			writeFileSync(path.join(parent, 'app', 'x.log'), 'x\n');
			assert.deepEqual(await indexedNames(path.join(parent, 'app')), ['x.log']);
		} finally {
			rmSync(parent, { recursive: true, force: true });
		}
	});
});
