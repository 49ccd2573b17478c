import { Logger } from '../common/logger';
import { DiagnosticsProvider } from '../core/diagnostics/diagnosticsProvider';
import { EditorProvider } from '../core/editor/editorProvider';
import { GitProvider } from '../core/git/gitProvider';
import { FILE_TEMPLATE, FilesProvider } from '../core/files/filesProvider';
import { FirstAnsweringOutline } from '../core/outline/firstAnsweringOutline';
import { OutlineProvider } from '../core/outline/outlineProvider';
import { FileReads, RangesProvider } from '../core/ranges/rangesProvider';
import { RelevanceProvider } from '../core/relevance/relevanceProvider';
import { ListedFiles } from '../core/search/searchFeed';
import { SearchProvider } from '../core/search/searchProvider';
import { TerminalProvider } from '../core/terminal/terminalProvider';
import { Event } from '../common/event';
import { FileChangeEvent, FileSettings, FileSystemReader, OpenDocuments, ServedRule, SettingsSource, WorkspaceFoldersSource } from '../core/ports';
import { ResourceProvider } from '../core/resource';
import { GrammarOutline } from '../core/symbols/grammarOutline';
import { RelationsProvider } from '../core/symbols/relationsProvider';
import { WorkspaceSymbolsProvider } from '../core/symbols/workspaceSymbolsProvider';
import { WorkspaceScope } from '../core/workspaceScope';
import { ThreadGrammarParser } from '../node/grammars/threadGrammarParser';
import { ThreadSearchBackend } from '../node/threadSearchBackend';
import { VsCodeDiagnostics } from './vsCodeDiagnostics';
import { VsCodeEditor } from './vsCodeEditor';
import { VsCodeGit } from './vsCodeGit';
import { VsCodeOutline } from './vsCodeOutline';
import { VsCodeRelations } from './vsCodeRelations';
import { VsCodeRelevanceSignals } from './vsCodeRelevanceSignals';
import { VsCodeSwitch } from './vsCodeSettings';
import { VsCodeTerminals } from './vsCodeTerminals';
import { VsCodeWorkspaceSymbols } from './vsCodeWorkspaceSymbols';

/**
 * Problems, git, editor state and search as resource providers over VS Code's adapters. Cheap to
 * build: the git extension is first touched when a client lists or reads, or once the file
 * index is built (to remember each repository's HEAD).
 */
export function createWorkspaceStateProviders(ports: {
	folders: WorkspaceFoldersSource;
	settings: SettingsSource<FileSettings>;
	reader: FileSystemReader;
	/** The files provider's rule, so every family serves exactly what files does. */
	rule: ServedRule;
	/** The files provider's watcher's events: a served file's write moves its git diff. */
	fileEvents: Event<readonly FileChangeEvent[]>;
	/**
	 * The files provider's reads, which line ranges and symbols are cut from; it also rechecks
	 * the files each HEAD move changed, which VS Code's watcher may not all report.
	 */
	files: FileReads & ListedFiles & Pick<FilesProvider, 'followHeadMoves'>;
	/** Unsaved text, for ranges of files over the read cap, and for search. */
	documents: OpenDocuments;
	/** Where the grammars' WASM files are (dist/grammars). */
	grammarDir: string;
	/** Where the search index is kept between sessions, asked at each new list (undefined: none, as in Restricted Mode). */
	searchCacheDir?: () => string | undefined;
	log: Logger;
}): ResourceProvider[] {
	const scope = new WorkspaceScope(ports.folders, ports.rule, ports.reader);
	const problems = new VsCodeDiagnostics();
	const diagnostics = new DiagnosticsProvider(problems, scope);
	const gitSource = new VsCodeGit(ports.log, { isServedNow: p => ports.rule.isServedNow(p), fileEvents: ports.fileEvents });
	ports.files.followHeadMoves(gitSource);
	const git = new GitProvider({ source: gitSource, scope, settings: ports.settings, log: ports.log });
	const editor = new EditorProvider(new VsCodeEditor(), scope);
	// The language's outline provider first; a grammar for a file none answers for (its language's
	// extension is not installed), parsing the same text a read returns (the unsaved buffer too).
	const grammars = new ThreadGrammarParser(ports.grammarDir, ports.log);
	const outlineSource = new FirstAnsweringOutline(new VsCodeOutline(), new GrammarOutline(ports.files, grammars));
	const outline = new OutlineProvider(outlineSource, scope, ports.folders, ports.files, FILE_TEMPLATE);
	// Ranges own the file: URIs with a query, so they come before the files provider.
	const ranges = new RangesProvider({ files: ports.files, scope, reader: ports.reader, outline: outlineSource, documents: ports.documents, declarations: grammars });
	// Symbols by name and the relations of one, from the language services (the live text).
	const symbols = new WorkspaceSymbolsProvider(new VsCodeWorkspaceSymbols(), scope);
	const relations = new RelationsProvider({ source: new VsCodeRelations(), scope, outline: outlineSource, files: ports.files });
	const signals = new VsCodeRelevanceSignals();
	// It owns the editor signals; the problems and git sources are owned by their providers.
	const relevance = new RelevanceProvider({ scope, editor: signals, touches: signals.onDidTouch, diagnostics: problems, git: gitSource });
	const terminalSetting = new VsCodeSwitch('terminalOutput');
	const terminals = new TerminalProvider(new VsCodeTerminals(() => terminalSetting.get()), terminalSetting);
	// Fewest entries first: the first page of a large workspace then shows every family.
	// Search reads the files provider's list (its rule) and the open documents' unsaved text; the
	// index and its queries run in a worker thread, off the event loop every extension shares.
	const search = new SearchProvider({
		files: ports.files, folders: ports.folders, reader: ports.reader, settings: ports.settings, documents: ports.documents,
		log: ports.log, ranking: relevance, backend: new ThreadSearchBackend(ports.reader, ports.log, { cacheDir: ports.searchCacheDir }),
	});
	return [relevance, search, editor, terminals, git, diagnostics, symbols, relations, outline, ranges];
}
