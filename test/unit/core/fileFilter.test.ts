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
		'.env', 'a/b/.env', '.env.local', 'deploy/prod.env', 'keys/server.pem', 'x/id_rsa', 'x/id_ed25519.pub',
		'.npmrc', 'pkg/.npmrc', 'home/.ssh/config', '.ssh/known_hosts', 'a/.aws/credentials', 'x/.docker/config.json',
		'.docker/config.json', 'k/.kube/config', 'infra/terraform.tfstate', '.git/config', 'sub/.git/HEAD', 'a/credentials.json',
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

	it('applies exclude globs to the path and its ancestors', () => {
		const f = filter([], ['**/node_modules', 'build']);
		assert.equal(f.isIgnored(folder, 'a/node_modules/x/index.js', false), true);
		assert.equal(f.isIgnored(folder, 'build/out.js', false), true);
		assert.equal(f.isIgnored(folder, 'src/build/out.js', false), false, 'a pattern without **/ is anchored');
	});
});
