import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Bytes of a 1x1 PNG: a real binary file with NUL bytes. */
export const PNG_BYTES = Buffer.from(
	'89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f1d5e60000000049454e44ae426082',
	'hex',
);

export interface Fixture {
	/** Real path of a temp directory holding `ws/` (the workspace) and `outside/`. */
	readonly base: string;
	readonly root: string;
	readonly outside: string;
	file(rel: string): string;
	write(rel: string, content: string | Buffer): string;
	dispose(): void;
}

/**
 * A workspace with everything the guard and filters must handle: unicode and spaced names,
 * a binary file, nested .gitignore with a negation, secrets, and symlinks that stay inside
 * or point outside (to a file and to a directory).
 */
export function createFixture(): Fixture {
	const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mwr-fixture-')));
	const root = path.join(base, 'ws');
	const outside = path.join(base, 'outside');
	const write = (rel: string, content: string | Buffer) => {
		const abs = path.join(root, rel);
		mkdirSync(path.dirname(abs), { recursive: true });
		writeFileSync(abs, content);
		return abs;
	};
	mkdirSync(outside, { recursive: true });
	writeFileSync(path.join(outside, 'passwd'), 'root:x:0:0\n');
	writeFileSync(path.join(outside, 'secret.txt'), 'outside secret\n');

	write('README.md', '# Fixture\n');
	write('src/index.ts', 'export const answer = 42;\n');
	write('src/ünïcödé 文件.txt', 'unicode name\n');
	write('src/with space & #hash?.txt', 'odd name\n');
	write('images/pixel.png', PNG_BYTES);
	write('data/latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in Latin-1
	write('.gitignore', 'build/\n*.log\n');
	write('build/out.js', 'ignored\n');
	write('debug.log', 'ignored\n');
	write('pkg/.gitignore', 'generated/\n!keep.log\n');
	write('pkg/keep.log', 'kept by negation\n');
	write('pkg/generated/gen.ts', 'ignored by nested .gitignore\n');
	write('pkg/lib.ts', 'export {};\n');
	write('.env', 'API_KEY=hunter2\n');
	write('config/.env.production', 'DB_PASSWORD=x\n');
	write('certs/server.pem', '-----BEGIN PRIVATE KEY-----\n');
	write('.npmrc', '//registry.npmjs.org/:_authToken=secret\n');
	write('.git/config', '[core]\n');
	symlinkSync(path.join(outside, 'passwd'), path.join(root, 'link-outside-file'));
	symlinkSync(outside, path.join(root, 'link-outside-dir'));
	symlinkSync(path.join(root, 'README.md'), path.join(root, 'link-inside.md'));
	symlinkSync(path.join(root, '.env'), path.join(root, 'link-to-secret'));

	return {
		base,
		root,
		outside,
		file: rel => path.join(root, rel),
		write,
		dispose: () => rmSync(base, { recursive: true, force: true }),
	};
}

/** The files the fixture serves, as workspace-relative names, sorted by URI. */
export const SERVED_NAMES = [
	'README.md',
	'data/latin1.txt',
	'images/pixel.png',
	'link-inside.md',
	'pkg/.gitignore',
	'pkg/keep.log',
	'pkg/lib.ts',
	'src/index.ts',
	'src/with space & #hash?.txt',
	'src/ünïcödé 文件.txt',
	'.gitignore',
];
