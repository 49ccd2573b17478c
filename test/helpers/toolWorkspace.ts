import * as path from 'node:path';
import { fileUri } from '../../src/core/uriGuard';
import { FilesProvider } from '../../src/core/files/filesProvider';
import { FileSettings, noOpenDocuments, OpenDocuments } from '../../src/core/ports';
import { RangesProvider } from '../../src/core/ranges/rangesProvider';
import { ProviderRegistry } from '../../src/core/registry';
import { RelevanceProvider } from '../../src/core/relevance/relevanceProvider';
import { ResourceProvider } from '../../src/core/resource';
import { LocalSearchBackend } from '../../src/core/search/localSearchBackend';
import { SearchProvider } from '../../src/core/search/searchProvider';
import { SymbolIndex } from '../../src/core/symbols/symbolIndex';
import { WorkspaceSymbolsProvider } from '../../src/core/symbols/workspaceSymbolsProvider';
import { WorkspaceScope } from '../../src/core/workspaceScope';
import { TreeSitterParser } from '../../src/node/grammars/treeSitterParser';
import { HttpHost } from '../../src/mcp/http/httpHost';
import { NodeFileSystem } from '../../src/node/nodeFileSystem';
import { StaticFolders } from '../../src/node/staticSources';
import { FakeRelevanceSignals } from '../fakes/fakeRelevanceSignals';
import { FakeSearch } from '../fakes/fakeSearch';
import { FakeSymbols } from '../fakes/fakeSymbols';
import { defaultFileSettings, FakeSettings } from '../fakes/fakeSettings';
import { FakeToolSwitch } from '../fakes/fakeToolSwitch';
import { FakeWatcher } from '../fakes/fakeWatcher';
import { EraClient, httpEraClients, pipedEraClients } from './eraClients';
import { fastTracker, RecordingLogger } from './harness';
import { fastSearch } from './searchServer';

/** The grammars the build copies next to the bundle. */
const GRAMMARS = path.join(__dirname, '../../../dist/grammars');

export interface ToolWorkspaceOptions {
	readonly settings?: Partial<FileSettings>;
	/** Serve a stand-in for the search resources (`FakeSearch`); default true. */
	readonly search?: boolean;
	/** Serve the relevance ranking; default true. */
	readonly relevance?: boolean;
	/** Serve a stand-in for the symbols family with its relation templates (`FakeSymbols`); default true. */
	readonly symbols?: boolean;
	/**
	 * Serve the real search (index in this thread) and the real symbol search (the headless host's
	 * grammars, from dist/grammars) instead of the stand-ins, for tests of what the tools may return.
	 */
	readonly real?: boolean;
	/** The editor's open documents (unsaved text); none unless given. */
	readonly documents?: OpenDocuments;
}

/**
 * A workspace served as the editor serves it to the tools (relevance, line ranges, a stand-in
 * search, files), to SDK v2 clients of both eras over loopback HTTP and over stdio in this
 * process, behind one tools switch the test turns.
 */
export interface ToolWorkspace {
	readonly registry: ProviderRegistry;
	readonly files: FilesProvider;
	readonly settings: FakeSettings;
	readonly signals: FakeRelevanceSignals;
	/** The stand-ins, when served (not with `real`). */
	readonly search: FakeSearch | undefined;
	readonly symbols: FakeSymbols | undefined;
	readonly tools: FakeToolSwitch;
	readonly log: RecordingLogger;
	readonly host: HttpHost;
	readonly clients: readonly EraClient[];
	dispose(): Promise<void>;
}

export async function startToolWorkspace(root: string, options: ToolWorkspaceOptions = {}): Promise<ToolWorkspace> {
	const folders = new StaticFolders([root]);
	const reader = new NodeFileSystem();
	const settings = new FakeSettings({ ...defaultFileSettings, ...options.settings });
	const log = new RecordingLogger();
	const documents = options.documents ?? noOpenDocuments;
	const files = new FilesProvider({ folders, reader, watcher: new FakeWatcher(), documents, settings, log });
	const scope = new WorkspaceScope(folders, files, reader);
	const signals = new FakeRelevanceSignals();
	const providers: ResourceProvider[] = [];
	if (options.relevance !== false) {
		providers.push(new RelevanceProvider({ scope, editor: signals, touches: signals.onDidTouch }, { throttleMs: 5, gitThrottleMs: 5 }));
	}
	providers.push(new RangesProvider({ files, scope, reader, documents }));
	const search = options.search === false || options.real ? undefined : new FakeSearch(files);
	if (search) {
		providers.push(search);
	}
	const symbols = options.symbols === false || options.real ? undefined : new FakeSymbols(rel => fileUri(path.join(root, rel)));
	if (symbols) {
		providers.push(symbols);
	}
	if (options.real) {
		providers.push(
			new SearchProvider({ files, folders, reader, settings, documents, backend: new LocalSearchBackend(reader), log }, fastSearch),
			new WorkspaceSymbolsProvider(new SymbolIndex(files, new TreeSitterParser(GRAMMARS), log), scope),
		);
	}
	providers.push(files);
	const registry = new ProviderRegistry(providers, fastTracker);
	files.start();
	await files.ready();
	const tools = new FakeToolSwitch();
	const host = new HttpHost({ registry, log, tools });
	const { url, token } = await host.start();
	const clients = [...await httpEraClients(url, token), ...await pipedEraClients({ registry, log, tools })];
	return {
		registry, files, settings, signals, search, symbols, tools, log, host, clients,
		dispose: async () => {
			await Promise.all(clients.map(c => c.close()));
			await host.stop();
			host.dispose();
			registry.dispose();
			scope.dispose();
		},
	};
}
