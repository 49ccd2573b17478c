import * as path from 'node:path';
import { Event } from '../common/event';
import { Logger } from '../common/logger';
import { ChangeTrackerOptions } from '../core/changeTracker';
import { FILE_TEMPLATE, FilesProvider } from '../core/files/filesProvider';
import { GitProvider } from '../core/git/gitProvider';
import { DEFAULT_MAX_FILE_SIZE, FileWatcher, GitUserConfig, noOpenDocuments } from '../core/ports';
import { OutlineProvider } from '../core/outline/outlineProvider';
import { RangesProvider } from '../core/ranges/rangesProvider';
import { FileTouch } from '../core/relevance/ports';
import { RelevanceProvider } from '../core/relevance/relevanceProvider';
import { SearchBackend } from '../core/search/ports';
import { defaultSearchOptions, SearchOptions, SearchProvider } from '../core/search/searchProvider';
import { ProviderRegistry } from '../core/registry';
import { GrammarOutline } from '../core/symbols/grammarOutline';
import { RelationsProvider } from '../core/symbols/relationsProvider';
import { SymbolIndex } from '../core/symbols/symbolIndex';
import { WorkspaceSymbolsProvider } from '../core/symbols/workspaceSymbolsProvider';
import { WorkspaceScope } from '../core/workspaceScope';
import { DirectoryWatcher } from './directoryWatcher';
import { GitCliSource } from './git/gitCliSource';
import { ThreadGrammarParser } from './grammars/threadGrammarParser';
import { NodeFileSystem } from './nodeFileSystem';
import { ThreadSearchBackend } from './threadSearchBackend';
import { StaticFolders, StaticSettings } from './staticSources';

export interface HeadlessOptions {
	readonly roots: readonly string[];
	readonly exclude?: readonly string[];
	readonly secrets?: readonly string[];
	readonly respectGitignore?: boolean;
	readonly maxFileSize?: number;
	/** Git's user-level config (src/node/gitUserConfig.ts), for the user's global excludes file; none read without it. */
	readonly gitUser?: GitUserConfig;
	readonly log: Logger;
	/** Defaults to one inotify watch per served directory. */
	readonly watcher?: FileWatcher;
	readonly trackerOptions?: ChangeTrackerOptions;
	/** Where the grammars' WASM files are: dist/grammars next to the bundle unless told. */
	readonly grammarDir?: string;
	/** Where the search index lives (defaults to a worker thread), and its time budget and live pace. */
	readonly searchBackend?: SearchBackend;
	readonly searchOptions?: SearchOptions;
	/** Where the search index is kept between runs (src/node/searchCacheFile.ts); none without it. */
	readonly searchCacheDir?: string;
}

/**
 * The registry the headless host serves: files from node:fs, changes from a file watcher, git
 * state from the git CLI, and outlines, symbol ranges and signatures from tree-sitter grammars, and text and path search (no
 * problems or editor state without an editor).
 */
export function createHeadlessRegistry(options: HeadlessOptions): { registry: ProviderRegistry } {
	const folders = new StaticFolders(options.roots);
	const reader = new NodeFileSystem();
	const watcher = options.watcher ?? new DirectoryWatcher(options.log);
	const settings = new StaticSettings({
		exclude: options.exclude ?? [],
		secrets: options.secrets ?? [],
		respectGitignore: options.respectGitignore ?? true,
		maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
		maxFileSizeSetting: '--max-file-size',
		gitUser: options.gitUser,
	});
	// The walk stays on this thread here (the editor walks in a worker, src/extension.ts): this
	// process's event loop serves only our clients and the sliced walk holds it briefly, while a
	// worker's own heap cost more memory and lengthened the delays the batches' replay caused, for
	// no faster index.
	const files = new FilesProvider({ folders, reader, watcher, documents: noOpenDocuments, settings, log: options.log });
	// One scope (the files provider's rule) for every family; the git provider owns it.
	const scope = new WorkspaceScope(folders, files, reader);
	const gitSource = new GitCliSource({ folders, log: options.log, fileEvents: watcher.onDidChange, isServedNow: (p, isDirectory) => files.isServedNow(p, isDirectory) });
	// Files a branch switch changed are checked again even when the watcher missed their events.
	files.followHeadMoves(gitSource);
	const git = new GitProvider({
		source: gitSource,
		scope,
		settings,
		log: options.log,
	});
	// Outlines, `?symbol=` ranges and signatures from grammars (no language services headless),
	// parsing what a read of the file returns, in a worker thread; each grammar loads with the first
	// file of its language.
	const grammars = new ThreadGrammarParser(options.grammarDir ?? path.join(__dirname, 'grammars'), options.log);
	const outlineSource = new GrammarOutline(files, grammars);
	const outline = new OutlineProvider(outlineSource, scope, folders, files, FILE_TEMPLATE);
	const ranges = new RangesProvider({ files, scope, reader, outline: outlineSource, declarations: grammars });
	// Symbol search from an index of the grammars' declarations, built on the first search.
	const symbols = new WorkspaceSymbolsProvider(new SymbolIndex(files, grammars, options.log), scope);
	// No relations: no grammar knows what a name refers to across files. Reads say the editor is needed.
	const relations = new RelationsProvider({ scope, files });
	// Headless relevance: git changes and files written on disk (there is no editor). The
	// directory watcher reports a file written (new or not) as 'changed' and a new directory as
	// 'created': only files are ranked, as a directory is nothing to read and judged as a file a
	// new `.aws/` would pass the secrets' directory patterns. A path 'deleted' (a file or a
	// directory, deleted or renamed away) is no longer ranked for what was written there.
	const touches: Event<readonly FileTouch[]> = listener => watcher.onDidChange(events => listener(events.flatMap((e): FileTouch[] =>
		e.kind === 'changed' ? [{ path: e.path, kind: 'written' }] : e.kind === 'deleted' ? [{ path: e.path, kind: 'gone' }] : [])));
	const relevance = new RelevanceProvider({ scope, touches, git: gitSource });
	// Text and path search from an index of the served files' text, built after the file index.
	const search = new SearchProvider({
		files, folders, reader, settings, documents: noOpenDocuments, log: options.log, ranking: relevance,
		backend: options.searchBackend ?? new ThreadSearchBackend(reader, options.log, { cacheDir: () => options.searchCacheDir }),
	}, options.searchOptions ?? defaultSearchOptions);
	const registry = new ProviderRegistry([relevance, search, git, symbols, relations, outline, ranges, files], options.trackerOptions);
	files.start();
	return { registry };
}
