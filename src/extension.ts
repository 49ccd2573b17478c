import * as vscode from 'vscode';
import { DisposableStore } from './common/lifecycle';
import { FilesProvider } from './core/files/filesProvider';
import { ProviderRegistry } from './core/registry';
import { ConnectionInfo } from './mcp/httpHost';
import { ServerRunner } from './mcp/serverRunner';
import { NodeFileSystem } from './node/nodeFileSystem';
import { registerCommands } from './vscode/commands';
import { OutputLogger } from './vscode/outputLogger';
import { ServerController } from './vscode/serverController';
import { ServerStatusBar } from './vscode/statusBar';
import { VsCodeDocuments } from './vscode/vsCodeDocuments';
import { VsCodeFileSettings } from './vscode/vsCodeSettings';
import { VsCodeFolders, VsCodeWatcher } from './vscode/vsCodeWorkspace';

/** What the extension offers other extensions and its own in-editor tests. */
export interface ExtensionApi {
	connectionInfo(): ConnectionInfo | undefined;
	whenReady(): Promise<ConnectionInfo>;
}

let runner: ServerRunner | undefined;

export function activate(context: vscode.ExtensionContext): ExtensionApi {
	const store = new DisposableStore();
	context.subscriptions.push(store);
	const log = store.add(new OutputLogger('MCP Resources'));
	const folders = store.add(new VsCodeFolders());
	const files = new FilesProvider({
		folders,
		reader: new NodeFileSystem(),
		watcher: new VsCodeWatcher(),
		documents: store.add(new VsCodeDocuments()),
		settings: store.add(new VsCodeFileSettings()),
		log,
	});
	const registry = store.add(new ProviderRegistry([files]));
	runner = store.add(new ServerRunner({
		registry,
		log,
		port: () => vscode.workspace.getConfiguration('mcpResources').get<number>('port', 0),
		workspaceFolders: () => folders.folders().map(f => f.path),
		hostKind: 'vscode',
	}));
	const controller = store.add(new ServerController(runner, files));
	store.add(new ServerStatusBar(runner));
	store.add(registerCommands(runner, controller, log));
	// Start after activation returns: the editor never waits for the server or the index.
	setImmediate(() => void controller.apply().catch(err => log.error('server failed to start', err)));
	const active = runner;
	return { connectionInfo: () => active.connectionInfo, whenReady: () => active.whenRunning() };
}

export async function deactivate(): Promise<void> {
	// Stop before the host exits so the lock file is removed and clients see a clean close.
	await runner?.stop();
	runner = undefined;
}
