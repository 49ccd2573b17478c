import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IndexSetup } from '../../../src/core/search/ports';
import { CachedFile } from '../../../src/core/search/searchIndex';
import { CACHE_FORMAT_VERSION, CacheBytes, decodeSearchCache, encodedSize, encodeSearchCache } from '../../../src/node/searchCacheCodec';
import { SearchCacheFile } from '../../../src/node/searchCacheFile';

const setup: IndexSetup = { roots: [{ path: '/w/app', realPath: '/real/app', name: 'app' }], maxFileSize: 1024 };
const files: CachedFile[] = [
	{ display: 'src/a.ts', size: 120, mtimeMs: 1_700_000_000_123.5, state: 1, signature: Int32Array.from([1, -2, 3, 0x7fffffff]) },
	{ display: 'img/logo.png', size: 9000, mtimeMs: 1_700_000_000_000, state: 2, signature: undefined },
	{ display: 'docs/ünïcödé.md', size: 3, mtimeMs: 0, state: 1, signature: Int32Array.from([42, 43]) },
];

/** A decoded file as it was written: without where the seed's store put its signature. */
function withoutAddress(file: CachedFile & { address: number }): CachedFile {
	return { display: file.display, size: file.size, mtimeMs: file.mtimeMs, state: file.state, signature: file.signature };
}

/** The files `bytes` decode to, from the buffer or (with `chunk`) from a file read that many bytes at a time. */
function decodedFiles(bytes: Buffer, chunk?: number): CachedFile[] {
	let decoded;
	if (chunk === undefined) {
		decoded = decodeSearchCache(bytes, setup);
	} else {
		const dir = mkdtempSync(path.join(os.tmpdir(), 'mwr-cache-pieces-'));
		const file = path.join(dir, 'cache.bin');
		writeFileSync(file, bytes);
		const fd = openSync(file, 'r');
		try {
			decoded = decodeSearchCache(CacheBytes.read(fd, bytes.length, chunk), setup);
		} finally {
			closeSync(fd);
			rmSync(dir, { recursive: true, force: true });
		}
	}
	assert.ok(typeof decoded !== 'string', String(decoded));
	return [...decoded.files.values()].map(withoutAddress);
}

describe('search index cache codec', () => {
	it('gives back every file as written, by display path, and its size is what encodedSize said', () => {
		const bytes = encodeSearchCache(setup, files);
		assert.equal(bytes.length, encodedSize(setup, files));
		assert.deepEqual(decodedFiles(bytes), files);
	});

	it('a cache larger than its write pieces (a signature larger than one too) reads back whole', () => {
		const many: CachedFile[] = Array.from({ length: 3000 }, (_, i) => ({
			display: `src/dir${i % 17}/file${i}.ts`, size: 1000 + i, mtimeMs: 1_700_000_000_000 + i, state: 1,
			signature: Int32Array.from({ length: 100 + (i % 300) }, (_v, j) => Math.imul(i + 1, j + 7)),
		}));
		many.push({ display: 'big.min.js', size: 5_000_000, mtimeMs: 1, state: 1, signature: Int32Array.from({ length: 400_000 }, (_v, j) => j * 3) });
		const bytes = encodeSearchCache(setup, many);
		assert.ok(bytes.length > 2 * 1024 * 1024);
		assert.equal(bytes.length, encodedSize(setup, many));
		assert.deepEqual(decodedFiles(bytes), many);
		assert.deepEqual(decodedFiles(bytes, 4096), many, 'read from a file 4 KB at a time, records across the pieces');
	});

	it('refuses random bytes, another version, other roots, another read cap', () => {
		assert.equal(decodeSearchCache(randomBytes(4096), setup), 'not a cache file');
		assert.equal(decodeSearchCache(Buffer.alloc(0), setup), 'not a cache file');
		const bytes = encodeSearchCache(setup, files);
		const other = Buffer.from(bytes);
		other.writeUInt32LE(CACHE_FORMAT_VERSION + 1, 8);
		assert.equal(decodeSearchCache(other, setup), 'another format version');
		assert.equal(decodeSearchCache(bytes, { ...setup, roots: [{ ...setup.roots[0], realPath: '/elsewhere' }] }), 'other folders');
		assert.equal(decodeSearchCache(bytes, { ...setup, maxFileSize: 2048 }), 'other folders');
	});

	it('refuses the bytes cut at any length, or with any byte changed, without throwing', () => {
		const bytes = encodeSearchCache(setup, files);
		for (let cut = 0; cut < bytes.length; cut++) {
			const answer = decodeSearchCache(bytes.subarray(0, cut), setup);
			assert.equal(typeof answer, 'string', `cut at ${cut}`);
		}
		for (let at = 0; at < bytes.length; at++) {
			const changed = Buffer.from(bytes);
			changed[at] ^= 0x5a;
			assert.equal(typeof decodeSearchCache(changed, setup), 'string', `byte ${at} changed`);
		}
	});
});

describe('search index cache file', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(path.join(os.tmpdir(), 'mwr-cache-file-'));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	it('writes atomically in a 0700 folder as a 0600 file, and reads it back', () => {
		const lines: string[] = [];
		const cache = new SearchCacheFile(path.join(dir, 'nested', 'search'), (level, line) => lines.push(`${level} ${line}`));
		assert.equal(cache.load(setup), undefined, 'no cache yet: nothing, and nothing logged');
		assert.deepEqual(lines, []);
		assert.equal(cache.save(setup, files), true);
		assert.deepEqual(lines, [`debug search index: cache written (${files.length} files)`]);
		assert.equal(statSync(cache.dir).mode & 0o777, 0o700);
		assert.equal(statSync(cache.file).mode & 0o777, 0o600);
		assert.deepEqual([...cache.load(setup)!.files.values()].map(withoutAddress), files);
	});

	it('logs one line and gives nothing for a damaged cache; the next write replaces it', () => {
		const lines: string[] = [];
		const cache = new SearchCacheFile(dir, (level, line) => level !== 'debug' && lines.push(`${level} ${line}`));
		cache.save(setup, files);
		writeFileSync(cache.file, readFileSync(cache.file).subarray(0, 40));
		assert.equal(cache.load(setup), undefined);
		assert.deepEqual(lines, ['info search index: its cache was not used (damaged); building it afresh']);
		cache.save(setup, files.slice(0, 1));
		assert.deepEqual([...cache.load(setup)!.files.keys()], ['src/a.ts']);
	});
});
