import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

interface DependenciesModule {
	staleReason(root: string): string | undefined;
}

type Packages = Record<string, { version?: string; optional?: boolean }>;

// scripts/bootstrap/dependencies.mjs decides whether `npm test`, `npm start` and `npm run bench` run
// `npm ci` first. Its answer on a fresh clone is proven by running them there; these cases are
// the ones a clone cannot show: a checkout next to a current node_modules must not reinstall.
describe('scripts: when node_modules needs npm ci', () => {
	let root: string;
	let deps: DependenciesModule;
	const locked: Packages = {
		'': { version: '1.0.0' },
		'node_modules/zod': { version: '4.6.7' },
		'node_modules/@esbuild/darwin-arm64': { version: '0.28.2', optional: true },
	};

	before(async () => {
		const file = path.join(__dirname, '../../../../scripts/bootstrap/dependencies.mjs');
		deps = await import(pathToFileURL(file).href) as DependenciesModule;
	});
	beforeEach(() => {
		root = mkdtempSync(path.join(os.tmpdir(), 'mwr-deps-'));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	function write(lock: Packages, installed: Packages | undefined, lockNewer: boolean): void {
		const lockFile = path.join(root, 'package-lock.json');
		writeFileSync(lockFile, JSON.stringify({ lockfileVersion: 3, packages: lock }));
		if (installed) {
			mkdirSync(path.join(root, 'node_modules'));
			const hidden = path.join(root, 'node_modules', '.package-lock.json');
			writeFileSync(hidden, JSON.stringify({ lockfileVersion: 3, packages: installed }));
			const [older, newer] = [new Date(Date.now() - 60_000), new Date()];
			utimesSync(lockFile, lockNewer ? newer : older, lockNewer ? newer : older);
			utimesSync(hidden, lockNewer ? older : newer, lockNewer ? older : newer);
		}
	}

	it('installs when node_modules is missing', () => {
		write(locked, undefined, false);
		assert.equal(deps.staleReason(root), 'node_modules is missing');
	});

	it('does nothing when the last install is newer than package-lock.json', () => {
		write(locked, { 'node_modules/zod': { version: '1.0.0' } }, false);
		assert.equal(deps.staleReason(root), undefined);
	});

	it('does nothing when package-lock.json is newer (a fresh checkout) but locks what is installed', () => {
		// The optional package for another platform is locked but never installed.
		write(locked, { 'node_modules/zod': { version: '4.6.7' } }, true);
		assert.equal(deps.staleReason(root), undefined);
	});

	it('installs when package-lock.json is newer and a locked version differs, is missing or is gone', () => {
		const changed = 'package-lock.json changed since the last install';
		write(locked, { 'node_modules/zod': { version: '4.6.6' } }, true);
		assert.equal(deps.staleReason(root), changed);
		rmSync(path.join(root, 'node_modules'), { recursive: true });
		write({ ...locked, 'node_modules/ignore': { version: '7.0.5' } }, { 'node_modules/zod': { version: '4.6.7' } }, true);
		assert.equal(deps.staleReason(root), changed);
		rmSync(path.join(root, 'node_modules'), { recursive: true });
		write(locked, { 'node_modules/zod': { version: '4.6.7' }, 'node_modules/left-pad': { version: '1.3.0' } }, true);
		assert.equal(deps.staleReason(root), changed);
	});
});
