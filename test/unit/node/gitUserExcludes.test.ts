import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileFilter } from '../../../src/core/files/fileFilter';
import { FileIndex } from '../../../src/core/files/fileIndex';
import { excludesFileIn } from '../../../src/core/files/gitUserExcludes';
import { WorkspaceRoots } from '../../../src/core/files/workspaceRoots';
import { GitUserConfig } from '../../../src/core/ports';
import { gitUserConfig } from '../../../src/node/gitUserConfig';
import { createHeadlessRegistry } from '../../../src/node/headless';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { ThreadWalker } from '../../../src/node/threadWalker';
import { defaultFileSettings } from '../../fakes/fakeSettings';
import { FakeWatcher } from '../../fakes/fakeWatcher';
import { TestRepo } from '../../helpers/gitRepo';
import { connectInMemory, errorOf, listAll, RecordingLogger } from '../../helpers/harness';

describe('git config: core.excludesFile as git reads it', () => {
	it('takes the last value in [core], any letter case, quoted or not, comments and spaces dropped', () => {
		assert.equal(excludesFileIn('[user]\n\tname = x\n[core]\n\texcludesfile = ~/.gitignore_global\n'), '~/.gitignore_global');
		assert.equal(excludesFileIn('[Core]\n  excludesFile=/a/b ; comment\n[core]\nExcludesFile = "/with space/#not a comment" # comment\n'), '/with space/#not a comment');
		assert.equal(excludesFileIn('[core]\n\texcludesfile = "C:\\\\Users\\\\me\\\\.gitignore"\n'), 'C:\\Users\\me\\.gitignore');
		assert.equal(excludesFileIn('[alias]\n\texcludesfile = /not/core\n[core "sub"]\n\texcludesfile = /not/core/either\n'), undefined);
		assert.equal(excludesFileIn('[core]\n\tattributesfile = /x\n'), undefined);
	});

	it('finds the files where git reads its user-level config, by git\'s environment variables', () => {
		assert.deepEqual(gitUserConfig({}, '/home/me', 'linux'), {
			configFiles: ['/etc/gitconfig', '/home/me/.config/git/config', '/home/me/.gitconfig'], home: '/home/me', defaultExcludesFile: '/home/me/.config/git/ignore',
		});
		assert.deepEqual(gitUserConfig({ XDG_CONFIG_HOME: '/xdg', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/g/config' }, '/home/me', 'linux'), {
			configFiles: ['/g/config'], home: '/home/me', defaultExcludesFile: '/xdg/git/ignore',
		});
		assert.equal(gitUserConfig({}, '', 'linux'), undefined);
	});
});

/**
 * The user's global excludes file (`core.excludesFile`, or git's default) hides files in every
 * repository, as git does: compared with `git ls-files --others --ignored --exclude-standard`
 * run with the same user config.
 */
describe('the user\'s global git excludes file', () => {
	let repo: TestRepo;
	let home: string;
	beforeEach(() => {
		home = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwr-home-')));
		repo = new TestRepo('app');
		for (const rel of ['src/a.ts', 'notes.scratch', 'src/deep/b.scratch', '.idea/workspace.xml', 'keep.scratch']) {
			repo.write(rel, 'x\n');
		}
		repo.write('.gitignore', '!keep.scratch\n');
	});
	afterEach(() => {
		repo.dispose();
		rmSync(home, { recursive: true, force: true });
	});

	function config(files: Record<string, string>): GitUserConfig {
		for (const [rel, text] of Object.entries(files)) {
			mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
			writeFileSync(path.join(home, rel), text);
		}
		return gitUserConfig({ GIT_CONFIG_NOSYSTEM: '1' }, home, 'linux')!;
	}

	/** The untracked files git itself calls ignored, with the same home. */
	function ignoredByGit(): string[] {
		const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
		delete env.XDG_CONFIG_HOME;
		delete env.GIT_CONFIG_GLOBAL;
		return execFileSync('git', ['ls-files', '--others', '--ignored', '--exclude-standard'], { cwd: repo.root, encoding: 'utf8', env })
			.split('\n').filter(Boolean).sort();
	}

	async function served(gitUser: GitUserConfig, folder = repo.root): Promise<{ listed: string[]; refused: string[] }> {
		const log = new RecordingLogger();
		const { registry } = createHeadlessRegistry({ roots: [folder], log, watcher: new FakeWatcher(), gitUser });
		const conn = await connectInMemory(registry, log, 10);
		try {
			const listed = (await listAll(conn.client)).filter(r => r.uri.startsWith('file:')).map(r => r.name).sort();
			const refused: string[] = [];
			for (const rel of ['notes.scratch', 'src/deep/b.scratch', '.idea/workspace.xml']) {
				const err = await errorOf(conn.client.readResource({ uri: pathToFileURL(path.join(folder, rel)).href })).catch(() => undefined);
				if (err?.code === -32602) {
					refused.push(rel);
				}
			}
			return { listed, refused };
		} finally {
			await conn.close();
			registry.dispose();
		}
	}

	it('hides what core.excludesFile in ~/.gitconfig names, as git does, with the repository\'s own rules after it', async () => {
		const gitUser = config({ '.gitconfig': '[core]\n\texcludesFile = ~/.gitignore_global\n', '.gitignore_global': '*.scratch\n.idea/\n' });
		assert.deepEqual(ignoredByGit(), ['.idea/workspace.xml', 'notes.scratch', 'src/deep/b.scratch']);
		const { listed, refused } = await served(gitUser);
		assert.deepEqual(listed, ['.gitignore', 'keep.scratch', 'src/a.ts']);
		assert.deepEqual(refused, ['notes.scratch', 'src/deep/b.scratch', '.idea/workspace.xml']);
	});

	it('hides the same files when the walk runs in its own thread (the editor\'s index)', async () => {
		const gitUser = config({ '.gitconfig': '[core]\n\texcludesFile = ~/.gitignore_global\n', '.gitignore_global': '*.scratch\n.idea/\n' });
		const reader = new NodeFileSystem();
		const log = new RecordingLogger();
		const roots = await WorkspaceRoots.resolve([{ name: 'app', path: repo.root }], reader);
		const index = new FileIndex(reader, roots, new FileFilter(reader, { ...defaultFileSettings, gitUser }), new ThreadWalker(log));
		await index.build();
		const view = index.sorted();
		assert.deepEqual(Array.from({ length: view.length }, (_, i) => view.at(i)!.name), ['.gitignore', 'keep.scratch', 'src/a.ts']);
		assert.deepEqual(log.warnings, [], 'the worker walked');
	});

	it('reads git\'s default ~/.config/git/ignore when no config names a file', async () => {
		const gitUser = config({ '.config/git/ignore': '*.scratch\n' });
		assert.deepEqual(ignoredByGit(), ['notes.scratch', 'src/deep/b.scratch']);
		assert.deepEqual((await served(gitUser)).listed, ['.gitignore', '.idea/workspace.xml', 'keep.scratch', 'src/a.ts']);
	});

	it('applies to a repository\'s subfolder opened alone, relative to the repository\'s top', async () => {
		const gitUser = config({ '.config/git/ignore': '/src/deep/\n' });
		assert.deepEqual(ignoredByGit(), ['src/deep/b.scratch']);
		assert.deepEqual((await served(gitUser, path.join(repo.root, 'src'))).listed, ['a.ts']);
	});

	it('leaves a folder no repository holds alone, as git does', async () => {
		const gitUser = config({ '.config/git/ignore': '*.scratch\n' });
		const plain = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcpwr-plain-')));
		try {
			writeFileSync(path.join(plain, 'x.scratch'), 'x\n');
			assert.deepEqual((await served(gitUser, plain)).listed, ['x.scratch']);
		} finally {
			rmSync(plain, { recursive: true, force: true });
		}
	});

	it('does not let the repository\'s own .git/config name another excludes file: a folder only hides more', async () => {
		const gitUser = config({ '.config/git/ignore': '*.scratch\n', 'elsewhere': '' });
		repo.git('config', 'core.excludesFile', path.join(home, 'elsewhere'));
		const { listed } = await served(gitUser);
		assert.deepEqual(listed, ['.gitignore', '.idea/workspace.xml', 'keep.scratch', 'src/a.ts']);
	});

	it('skips a config or excludes file that is not a regular file (a FIFO would block)', async () => {
		const gitUser = config({ '.gitconfig': '[core]\n\texcludesFile = ~/fifo\n' });
		execFileSync('mkfifo', [path.join(home, 'fifo')]);
		assert.deepEqual((await served(gitUser)).listed, ['.gitignore', '.idea/workspace.xml', 'keep.scratch', 'notes.scratch', 'src/a.ts', 'src/deep/b.scratch']);
	});
});
