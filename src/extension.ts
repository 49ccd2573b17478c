import * as path from 'node:path';
import * as vscode from 'vscode';
import { DisposableStore, nothingToDispose } from './common/lifecycle';
import { FilesProvider } from './core/files/filesProvider';
import { ProviderRegistry } from './core/registry';
import { SearchProvider } from './core/search/searchProvider';
import { UniquelyNamedFolders } from './core/uniquelyNamedFolders';
import { ConnectionInfo } from './mcp/http/httpHost';
import { ServerRunner } from './mcp/serverRunner';
import { ThreadWalker } from './node/threadWalker';
import { NodeFileSystem } from './node/nodeFileSystem';
import { registerCommands } from './vscode/commands';
import { registerConnectClient } from './vscode/connectClient';
import { registerMcpDefinitionProvider, WorkspaceServerDefinitionProvider } from './vscode/mcpDefinitionProvider';
import { OutputLogger } from './vscode/outputLogger';
import { searchCacheLocation } from './vscode/searchCacheLocation';
import { Picker, PickerApi } from './vscode/picker/registerPicker';
import { ServerController } from './vscode/serverController';
import { ServerStatusBar } from './vscode/statusBar';
import { VsCodeDocuments } from './vscode/vsCodeDocuments';
import { userValue, VsCodeFileSettings, VsCodeSwitch } from './vscode/vsCodeSettings';
import { VsCodeFolders, VsCodeWatcher } from './vscode/vsCodeWorkspace';
import { createWorkspaceStateProviders } from './vscode/workspaceStateProviders';

/** What the extension offers other extensions and its own in-editor tests. */
export interface ExtensionApi {
	connectionInfo(): ConnectionInfo | undefined;
	whenReady(): Promise<ConnectionInfo>;
	/** What VS Code's MCP registry receives (Copilot Chat finds the server through it). */
	readonly mcpDefinitions: WorkspaceServerDefinitionProvider;
	/** How long `activate` took (the server and the index start after it returns). */
	readonly activationMs: number;
	/** The sidebar picker (an MCP client of this and the configured servers). */
	readonly picker: PickerApi;
}

let runner: ServerRunner | undefined;

export function activate(context: vscode.ExtensionContext): ExtensionApi {
	const activationStarted = performance.now();
	const store = new DisposableStore();
	context.subscriptions.push(store);
	const log = store.add(new OutputLogger('MCP Resources'));
	const folders = store.add(new UniquelyNamedFolders(store.add(new VsCodeFolders())));
	const reader = new NodeFileSystem();
	const settings = store.add(new VsCodeFileSettings(log));
	const documents = store.add(new VsCodeDocuments());
	const watcher = new VsCodeWatcher();
	const files = new FilesProvider({
		folders,
		reader,
		watcher,
		documents,
		settings,
		log,
		// The walk's I/O callbacks, name checks and garbage stay off the event loop every extension shares.
		walker: new ThreadWalker(log),
	});
	const registry = store.add(new ProviderRegistry([...createWorkspaceStateProviders({ folders, settings, reader, rule: files, fileEvents: watcher.onDidChange, files, documents, grammarDir: path.join(context.extensionPath, 'dist', 'grammars'), searchCacheDir: searchCacheLocation(context), log }), files]));
	runner = store.add(new ServerRunner({
		registry,
		log,
		port: () => userValue('mcpResources', 'port', 0),
		workspaceFolders: () => folders.folders().map(f => f.path),
		hostKind: 'vscode',
		tools: store.add(new VsCodeSwitch('tools.enabled')),
	}));
	const mcpDefinitions = store.add(registerMcpDefinitionProvider(runner, log, context.extension.id));
	const controller = store.add(new ServerController(runner, files, mcpDefinitions));
	const search = registry.providers.find((p): p is SearchProvider => p instanceof SearchProvider);
	store.add(new ServerStatusBar(runner, search?.buildProgress.onDidChange ?? (() => nothingToDispose)));
	store.add(registerCommands(runner, controller, log));
	store.add(registerConnectClient(runner, context.extensionPath));
	const picker = store.add(new Picker(context, runner, log)).api;
	// Start after activation returns: the editor never waits for the server or the index.
	setImmediate(() => void controller.apply().catch(err => log.error('server failed to start', err)));
	const active = runner;
	const activationMs = performance.now() - activationStarted;
	log.info(`activated in ${activationMs.toFixed(1)} ms`);
	return { connectionInfo: () => active.connectionInfo, whenReady: () => active.whenRunning(), mcpDefinitions, picker, activationMs };
}

export async function deactivate(): Promise<void> {
	// Stop before the host exits so the lock file is removed and clients see a clean close.
	await runner?.stop();
	runner = undefined;
}
