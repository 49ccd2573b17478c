import { DirtyText, FileBatch, IndexReport, IndexSetup } from '../core/search/ports';
import { FilesQuery, TextQuery } from '../core/search/searchQuery';

/** What the search's worker thread (searchWorker.ts) is sent by ThreadSearchBackend. */
export type SearchRequest =
	/**
	 * `cacheDir`: where the index's cache is kept (none read or written without it);
	 * `saveDelayMs`: least time between its writes after changes (default 3 minutes);
	 * `more`: further parts of the list follow (`extend`).
	 */
	| { kind: 'reset'; setup: IndexSetup; files: FileBatch; more?: boolean; cacheDir?: string; saveDelayMs?: number }
	| { kind: 'extend'; files: FileBatch; more?: boolean }
	/** A list for `setup` will come (`SearchBackend.prepare`): read the cache in `cacheDir` now. */
	| { kind: 'prepare'; setup: IndexSetup; cacheDir?: string }
	| { kind: 'update'; changed: FileBatch; removed: readonly string[]; dirty: readonly DirtyText[] }
	| { kind: 'text'; id: number; query: TextQuery; ranked: readonly string[]; budgetMs: number }
	| { kind: 'files'; id: number; query: FilesQuery; ranked: readonly string[] }
	| { kind: 'progress'; id: number };

/** What it answers a request with an `id`: the result, a query it cannot run (with why), or a failure. */
export type SearchReply =
	| { kind: 'answer'; id: number; result: unknown }
	| { kind: 'invalid'; id: number; message: string }
	| { kind: 'failed'; id: number; message: string }
	/** Not an answer: every file of the last list is indexed. */
	| { kind: 'indexed'; id?: undefined; report: IndexReport }
	/** Not an answer: a line for the host's log. */
	| { kind: 'log'; id?: undefined; level: 'debug' | 'info' | 'warn'; message: string };
