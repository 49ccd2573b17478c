import * as assert from 'node:assert/strict';
import { FileFilter } from '../../../src/core/files/fileFilter';
import { NodeFileSystem } from '../../../src/node/nodeFileSystem';
import { defaultFileSettings } from '../../fakes/fakeSettings';

const folder = { name: 'ws', path: '/nonexistent-ws' };

function filter(secrets: string[] = [], exclude: string[] = []): FileFilter {
	return new FileFilter(new NodeFileSystem(), { ...defaultFileSettings, secrets, exclude });
}

describe('FileFilter secrets', () => {
	const refused = [
		'.env', 'a/b/.env', '.env.local', '.env-production', 'a/.env_local', '.ENVRC', 'deploy/prod.env', 'keys/server.pem', 'x/id_rsa', 'x/id_ed25519.pub',
		'.npmrc', 'pkg/.npmrc', 'home/.ssh/config', '.ssh/known_hosts', 'a/.aws/credentials', 'x/.docker/config.json',
		'.docker/config.json', 'k/.kube/config', 'infra/terraform.tfstate', '.git/config', 'sub/.git/HEAD', 'a/credentials.json',
		// `.env*` as documented: not only `.env` and `.env.<name>`
		'.env-local', 'app/.env_production', '.env~', '.envrc.local', 'Api/.ENV-Staging',
		// the `.git` file of a worktree or submodule: git's pointer to its internals, an absolute path outside
		'.git', 'vendor/lib/.git',
	];
	for (const rel of refused) {
		it(`refuses ${rel} (file check with ancestors)`, () => {
			assert.equal(filter().isIgnored(folder, rel, false), true);
		});
	}

	const served = ['src/env.ts', 'environment.md', 'docs/ssh.md', 'keyboard.ts', 'a/config.json', 'docker/config.json', 'kube/config', 'README.md'];
	for (const rel of served) {
		it(`serves ${rel}`, () => {
			assert.equal(filter().isIgnored(folder, rel, false), false);
		});
	}

	it('refuses secret directories themselves, as the walk asks', () => {
		assert.equal(filter().isIgnored(folder, 'home/.ssh', true), true);
		assert.equal(filter().isIgnored(folder, '.git', true), true);
		assert.equal(filter().isIgnored(folder, 'src', true), false);
	});

	it('adds user secrets, with path patterns and negations', () => {
		assert.equal(filter(['*.secret']).isIgnored(folder, 'a/b/x.secret', false), true);
		assert.equal(filter(['config/prod/*.json']).isIgnored(folder, 'config/prod/db.json', false), true);
		assert.equal(filter(['config/prod/*.json']).isIgnored(folder, 'config/dev/db.json', false), false);
		// A negation keeps full .gitignore order semantics: it can re-allow a built-in name.
		assert.equal(filter(['!.env.example']).isIgnored(folder, '.env.example', false), false);
		assert.equal(filter(['!.env.example']).isIgnored(folder, '.env', false), true);
	});

	it('takes a folder\'s secrets pattern of any length in linear time (a long run of slashes inside it)', () => {
		// A folder's settings.json can hold a pattern of any length. Its trailing slashes were cut
		// with /\/+$/, which reads the rest of the run from each of its slashes: quadratic.
		const f = filter([`keys${'/'.repeat(300_000)}x.txt`, 'private/']);
		assert.equal(f.isIgnored(folder, 'keys/x.txt', false), false, 'a path of one slash is another path');
		assert.equal(f.isIgnored(folder, 'private/a.txt', false), true);
		assert.equal(f.isIgnored(folder, '.env', false), true);
	});

	it('applies exclude globs to the path and its ancestors', () => {
		const f = filter([], ['**/node_modules', 'build']);
		assert.equal(f.isIgnored(folder, 'a/node_modules/x/index.js', false), true);
		assert.equal(f.isIgnored(folder, 'build/out.js', false), true);
		assert.equal(f.isIgnored(folder, 'src/build/out.js', false), false, 'a pattern without **/ is anchored');
	});

	it('decides the names of a directory as the check of their whole paths does, with rule files above it and in it', () => {
		const f = filter();
		f.adoptGitignore(folder, '', '*.log\nbuild/\na/b/only.txt\n');
		f.adoptGitignore(folder, 'a', '!keep.log\nb/deep.txt\nsub/\n');
		f.adoptGitignore(folder, 'a/b', '*.tmp\n!z.tmp\n');
		f.adoptGitignore(folder, 'a/b/c', null);
		f.adoptGitignore(folder, 'x', 'plain.ts\n');
		const names = ['x.log', 'keep.log', 'only.txt', 'build', 'deep.txt', 'sub', 'y.tmp', 'z.tmp', 'plain.ts', '.env', 'id_rsa'];
		for (const dir of ['', 'a', 'a/b', 'a/b/c', 'x']) {
			const check = f.checkerFor(folder, dir);
			for (const name of names) {
				for (const isDirectory of [false, true]) {
					const rel = dir ? `${dir}/${name}` : name;
					assert.equal(check.isIgnored(name, isDirectory), f.isIgnored(folder, rel, isDirectory, true), `${rel}${isDirectory ? '/' : ''}`);
				}
			}
		}
		// And the answers are the rules' own, not merely alike.
		assert.equal(f.checkerFor(folder, 'a').isIgnored('keep.log', false), false);
		assert.equal(f.checkerFor(folder, 'a/b').isIgnored('only.txt', false), true);
		assert.equal(f.checkerFor(folder, 'a/b').isIgnored('deep.txt', false), true);
		assert.equal(f.checkerFor(folder, 'a/b/c').isIgnored('z.tmp', false), false);
		assert.equal(f.checkerFor(folder, 'a/b/c').isIgnored('y.tmp', false), true);
		assert.equal(f.checkerFor(folder, 'x').isIgnored('plain.ts', false), true);
		assert.equal(f.checkerFor(folder, '').isIgnored('plain.ts', false), false);
	});
});

describe('FileFilter forgetting gone directories', () => {
	it('forgets a gone directory and everything below it, and no directory whose name merely starts alike', async () => {
		const f = filter();
		const dirs = ['', 'a', 'a/b', 'a/b/c', 'a-b', 'ab', 'x', 'x/a', 'y', 'y/z'];
		dirs.forEach(dir => f.adoptGitignore(folder, dir, dir === 'a/b' ? '*.log\n' : null));
		dirs.forEach(dir => f.checkerFor(folder, dir));
		assert.equal(f.cachedDirectories, dirs.length);
		assert.equal(f.cachedChains, dirs.length);
		const pause = () => undefined;

		// Deleted files and paths it never read cost nothing and change nothing.
		await f.forgetGone([{ folder, rel: 'a/b/c/file.txt' }, { folder, rel: 'node_modules/x' }], pause);
		assert.equal(f.cachedDirectories, dirs.length);

		await f.forgetGone([{ folder, rel: 'a' }], pause);
		assert.equal(f.cachedDirectories, dirs.length - 3, 'a, a/b and a/b/c');
		assert.equal(f.cachedChains, dirs.length - 3);
		assert.equal(f.isIgnored(folder, 'a/b/x.log', false), false, 'the rules of a/b went with it');
		// Several at once, one below another, and a folder root (kept, as the index keeps it).
		await f.forgetGone([{ folder, rel: 'y/z' }, { folder, rel: 'y' }, { folder, rel: 'x/a' }, { folder, rel: '' }], pause);
		assert.equal(f.cachedDirectories, 4, "'', 'a-b', 'ab', 'x'");
		assert.equal(f.cachedChains, 4);
	});
});
