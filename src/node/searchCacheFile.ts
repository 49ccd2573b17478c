import { chmodSync, closeSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { IndexSetup } from '../core/search/ports';
import { CachedFiles, SeedFiles } from '../core/search/searchIndex';
import { CacheBytes, decodeSearchCache, encodedSize, writeSearchCache } from './searchCacheCodec';

/** The cache file's name in its folder. */
export const SEARCH_CACHE_FILE = 'search-index.bin';
/** A larger cache is not written: reading it back would cost about what it saves. */
export const MAX_CACHE_BYTES = 512 * 1024 * 1024;

/** A line for the host's log (the worker has none of its own). */
export type CacheLog = (level: 'debug' | 'info' | 'warn', message: string) => void;

/**
 * The search index's cache in one folder: read once when a process starts, written atomically
 * (a temporary file renamed over it) with the folder private to the user (0700, the file 0600).
 * Synchronous: it runs in the search's worker thread, never on the host's event loop.
 */
export class SearchCacheFile {
	readonly file: string;

	constructor(readonly dir: string, private readonly log: CacheLog) {
		this.file = path.join(dir, SEARCH_CACHE_FILE);
	}

	/** The files the cache holds for `setup`, or undefined (none yet, or one not usable: logged, and replaced on the next write). */
	load(setup: IndexSetup): SeedFiles | undefined {
		let files: SeedFiles | string;
		let fd: number | undefined;
		try {
			// Read a piece at a time into the seed's own store: the whole file in one buffer was
			// a second copy of every signature, left for a collection an idle worker may not run.
			fd = openSync(this.file, 'r');
			files = decodeSearchCache(CacheBytes.read(fd, fstatSync(fd).size), setup);
		} catch (err) {
			const code = (err as NodeJS.ErrnoException).code;
			if (code !== 'ENOENT') {
				this.log('warn', `search index: could not read its cache (${code ?? 'it ended early'}); building it afresh`);
			}
			return undefined;
		} finally {
			if (fd !== undefined) {
				closeSync(fd);
			}
		}
		if (typeof files === 'string') {
			this.log('info', `search index: its cache was not used (${files}); building it afresh`);
			return undefined;
		}
		return files;
	}

	/** Writes the files (false when it would be over the bound, or the write failed: logged). */
	save(setup: IndexSetup, files: CachedFiles): boolean {
		if (encodedSize(setup, files) > MAX_CACHE_BYTES) {
			this.log('info', 'search index: not cached, the cache would be over its bound');
			return false;
		}
		const temp = `${this.file}.${process.pid}.tmp`;
		try {
			mkdirSync(this.dir, { recursive: true, mode: 0o700 });
			chmodSync(this.dir, 0o700); // made earlier by someone with another umask
			// Written a piece at a time: the encoding of a large tree whole was a second copy of
			// every signature in memory while it lasted.
			const fd = openSync(temp, 'w', 0o600);
			try {
				writeSearchCache(setup, files, piece => {
					for (let done = 0; done < piece.length;) {
						done += writeSync(fd, piece, done);
					}
				});
			} finally {
				closeSync(fd);
			}
			renameSync(temp, this.file);
			this.log('debug', `search index: cache written (${files.length} files)`);
			return true;
		} catch (err) {
			try {
				rmSync(temp, { force: true });
			} catch {
				// Left behind: the next write replaces it.
			}
			this.log('warn', `search index: could not write its cache (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
			return false;
		}
	}
}
