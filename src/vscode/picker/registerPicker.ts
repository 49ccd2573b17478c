import * as vscode from 'vscode';
import { Logger } from '../../common/logger';
import { ServerRunner, ServerState } from '../../mcp/serverRunner';
import { PickerService, WORKSPACE_SERVER_ID } from '../../picker/pickerService';
import { PickerViewModel } from '../../picker/pickerViewModel';
import { workspaceNotice } from '../../picker/workspaceNotice';
import { RunnerSource } from '../../picker/workspaceSource';
import { unpatchedFetch } from '../unpatchedFetch';
import { FolderServerGate } from './folderServerGate';
import { registerPickerCommands } from './pickerCommands';
import { PickerView } from './pickerView';
import { ResourceDocuments } from './resourceDocuments';

/** What the picker offers the extension's API (its in-editor tests use it). */
export interface PickerApi {
	readonly service: PickerService;
	readonly view: PickerView;
}

/**
 * The sidebar picker: an MCP client of this window's server (through its URL and token, like
 * any other client) and of the servers in `mcpResources.servers` (a folder's own entries only
 * once the user allowed them: see FolderServerGate).
 */
export class Picker implements vscode.Disposable {
	readonly api: PickerApi;
	private readonly disposables: vscode.Disposable[] = [];

	constructor(context: vscode.ExtensionContext, runner: ServerRunner, log: Logger) {
		const source = new RunnerSource(runner, unpatchedFetch());
		const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
		const service = new PickerService({ log, workspace: source, cwd });
		const model = new PickerViewModel(service);
		const view = new PickerView(service, model);
		this.api = { service, view };
		this.disposables.push(
			{ dispose: () => service.dispose() },
			{ dispose: () => source.dispose() },
			model,
			view,
			new ResourceDocuments(service),
			registerPickerCommands(service, view, context.globalStorageUri),
			new FolderServerGate(service, view, context.workspaceState, log, cwd),
			{ dispose: runner.onDidChangeState(state => this.applyWorkspaceState(view, state)).dispose },
			vscode.workspace.onDidChangeWorkspaceFolders(() => this.applyWorkspaceState(view, runner.state)),
		);
		this.applyWorkspaceState(view, runner.state);
	}

	/**
	 * No folder, Restricted Mode, a disabled server or one that could not start hide "This
	 * workspace"; the welcome view (package.json, by the context key) or the view's message explains.
	 */
	private applyWorkspaceState(view: PickerView, server: ServerState): void {
		const notice = workspaceNotice(vscode.workspace.workspaceFolders?.length ?? 0, server);
		view.setWorkspaceNote(notice.note);
		view.model.setHidden(notice.state === 'ok' ? [] : [WORKSPACE_SERVER_ID]);
		void vscode.commands.executeCommand('setContext', 'mcpResources.picker.workspaceState', notice.state);
	}

	dispose(): void {
		this.disposables.reverse().forEach(d => d.dispose());
	}
}
