import { Logger } from '../../src/common/logger';
import { FilesProvider } from '../../src/core/files/filesProvider';
import { OffThreadWalker } from '../../src/core/files/walkBatch';
import { FileSettings, FileSystemReader, FileWatcher, OpenDocuments, noOpenDocuments } from '../../src/core/ports';
import { RangesProvider } from '../../src/core/ranges/rangesProvider';
import { ProviderRegistry } from '../../src/core/registry';
import { LocalSearchBackend } from '../../src/core/search/localSearchBackend';
import { SearchBackend } from '../../src/core/search/ports';
import { RankedFiles, SearchOptions, SearchProvider } from '../../src/core/search/searchProvider';
import { WorkspaceScope } from '../../src/core/workspaceScope';
import { HttpHost } from '../../src/mcp/http/httpHost';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { StaticFolders } from '../../src/node/staticSources';
import { FakeSettings, defaultFileSettings } from '../fakes/fakeSettings';
import { FakeWatcher } from '../fakes/fakeWatcher';
import { EraClient, httpEraClients } from './eraClients';
import { fastTracker, RecordingLogger } from './harness';

/** Search runs fast enough for tests: live answers at most every 20 ms. */
export const fastSearch: SearchOptions = { budgetMs: 10_000, liveIntervalMs: 20 };

export interface SearchServer {
	readonly registry: ProviderRegistry;
	readonly files: FilesProvider;
	readonly search: SearchProvider;
	readonly backend: SearchBackend;
	readonly watcher: FileWatcher;
	readonly settings: FakeSettings;
	readonly log: RecordingLogger;
	dispose(): void;
}

/**
 * The files and search providers over real files (node:fs), a watcher the test drives unless one
 * is given, and the search index in this thread unless a backend is given.
 */
export function createSearchServer(roots: string[], options: {
	settings?: Partial<FileSettings>;
	documents?: OpenDocuments;
	watcher?: FileWatcher;
	reader?: FileSystemReader;
	walker?: OffThreadWalker;
	backend?: SearchBackend;
	ranking?: RankedFiles;
	search?: SearchOptions;
	log?: Logger;
} = {}): SearchServer {
	const watcher = options.watcher ?? new FakeWatcher();
	const settings = new FakeSettings({ ...defaultFileSettings, ...options.settings });
	const log = new RecordingLogger();
	const reader = options.reader ?? new NodeFileSystem();
	const folders = new StaticFolders(roots);
	const documents = options.documents ?? noOpenDocuments;
	const files = new FilesProvider({ folders, reader, watcher, documents, settings, log, walker: options.walker });
	const backend = options.backend ?? new LocalSearchBackend(reader);
	const search = new SearchProvider({ files, folders, reader, settings, documents, backend, log, ranking: options.ranking }, options.search ?? fastSearch);
	// Line ranges read the `?lines=N` URI of each match.
	const ranges = new RangesProvider({ files, scope: new WorkspaceScope(folders, files, reader), reader, documents });
	const registry = new ProviderRegistry([search, ranges, files], fastTracker);
	files.start();
	return { registry, files, search, backend, watcher, settings, log, dispose: () => registry.dispose() };
}

/** An HTTP host over the registry and one SDK v2 client of each era (2026-07-28 and 2025). */
export async function bothEras(registry: ProviderRegistry, log: Logger = new RecordingLogger()): Promise<{ clients: EraClient[]; close(): Promise<void> }> {
	const host = new HttpHost({ registry, log });
	const { url, token } = await host.start();
	const clients = await httpEraClients(url, token);
	return {
		clients,
		close: async () => {
			await Promise.all(clients.map(c => c.close()));
			await host.stop();
			host.dispose();
		},
	};
}

/** The JSON answer of a search URI, read through a client. */
export async function readSearch<T = SearchJson>(c: EraClient, uri: string): Promise<T> {
	const { contents } = await c.client.readResource({ uri });
	return JSON.parse((contents[0] as { text: string }).text) as T;
}

export interface SearchJson {
	files: { uri: string; path: string; matches: { line: number; column: number; text: string; uri: string }[] }[];
	matchCount: number;
	fileCount: number;
	complete: boolean;
	reason?: string;
}

export interface FilesJson {
	files: { uri: string; path: string; score: number }[];
	complete: boolean;
}

/** `search://text?q=...` with the query's parameters encoded. */
export function textUri(q: string, params: Record<string, string | number | boolean> = {}): string {
	const query = [`q=${encodeURIComponent(q)}`, ...Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)];
	return `search://text?${query.join('&')}`;
}
