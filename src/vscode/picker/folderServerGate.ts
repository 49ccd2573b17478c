import * as vscode from 'vscode';
import { Logger } from '../../common/logger';
import { Consent, describeServer, FolderServer, FolderServerSetting, mergeServerSettings, MergedServers, printable } from '../../picker/folderServers';
import { PickerService } from '../../picker/pickerService';
import type { PickerView } from './pickerView';

export const REVIEW_FOLDER_SERVERS_COMMAND = 'mcpResources.reviewFolderServers';
/** Answers live in workspace state: per workspace, and out of reach of the folder's own files. */
const CONSENT_KEY_PREFIX = 'mcpResources.folderServerConsent.';

/**
 * Reads `mcpResources.servers` scope by scope (`inspect()`), lets `mergeServerSettings` decide,
 * and asks the user about folder entries: once for each new entry, when the view is open (a
 * modal naming the folder, the server and what it runs or contacts), or when its row is clicked.
 */
export class FolderServerGate implements vscode.Disposable {
	private readonly disposables: vscode.Disposable[] = [];
	/** Entries asked about in this session: dismissing a prompt leaves the row, not a loop of prompts. */
	private readonly asked = new Set<string>();
	private prompts: Promise<unknown> = Promise.resolve();
	private merged: MergedServers | undefined;

	constructor(
		private readonly service: PickerService,
		private readonly view: PickerView,
		private readonly state: vscode.Memento,
		private readonly log: Logger,
		private readonly cwd: string | undefined,
	) {
		this.disposables.push(
			vscode.workspace.onDidChangeConfiguration(e => {
				if (e.affectsConfiguration('mcpResources.servers')) {
					this.apply();
				}
			}),
			// Restricted Mode ignored the folder's entries: trusting it brings them in (each still asked about).
			vscode.workspace.onDidGrantWorkspaceTrust(() => this.apply()),
			view.view.onDidChangeVisibility(() => this.askAboutNew()),
			vscode.commands.registerCommand(REVIEW_FOLDER_SERVERS_COMMAND, (arg?: { held?: FolderServer }) => this.review(arg?.held)),
		);
		this.apply();
	}

	private apply(): void {
		const inspected = vscode.workspace.getConfiguration('mcpResources').inspect<unknown>('servers');
		const merged = mergeServerSettings({
			user: inspected?.globalValue,
			folders: folderSettings(inspected),
			trusted: vscode.workspace.isTrusted,
			consentOf: key => this.state.get<Consent>(CONSENT_KEY_PREFIX + key),
		});
		this.merged = merged;
		if (!vscode.workspace.isTrusted) {
			this.log.info('picker: Restricted Mode: MCP servers named in folder settings are not read until the folder is trusted');
		}
		merged.notes.forEach(note => this.log.info(`picker: ${note}`));
		merged.held.forEach(h => this.log.info(`picker: not starting "${h.config.name}" from the settings of ${h.folderLabel}: ${h.consent === 'declined' ? 'you chose Don\'t Allow' : 'waiting for your permission'}`));
		this.service.setConfiguredServers(merged.start, merged.held);
		if (merged.errors.length > 0) {
			void vscode.window.showWarningMessage(`MCP Resources: some entries of mcpResources.servers were skipped. ${merged.errors.join('; ')}`, 'Open Settings')
				.then(choice => choice && vscode.commands.executeCommand('workbench.action.openSettings', 'mcpResources.servers'));
		}
		this.askAboutNew();
	}

	/** Asks about each entry never answered, once per session, while the view is visible. */
	private askAboutNew(): void {
		if (!this.view.view.visible) {
			return;
		}
		for (const held of this.service.heldServers()) {
			if (held.consent === undefined && !this.asked.has(held.key)) {
				this.asked.add(held.key);
				void this.review(held);
			}
		}
	}

	/** Prompts for one entry (a row's), or lets the user pick one of the folder's entries first. */
	private review(entry?: FolderServer): Promise<void> {
		const next = this.prompts.then(async () => {
			const chosen = entry ?? await this.pickEntry();
			if (chosen) {
				await this.prompt(chosen);
			}
		});
		this.prompts = next.catch(err => this.log.error('picker: reviewing a folder server failed', err));
		return next;
	}

	private async pickEntry(): Promise<FolderServer | undefined> {
		const entries = [...this.merged?.held ?? [], ...this.merged?.allowed ?? []];
		if (entries.length === 0) {
			void vscode.window.showInformationMessage(vscode.workspace.isTrusted
				? 'The settings of this folder name no MCP servers.'
				: 'Servers named in this folder\'s settings are ignored in Restricted Mode.');
			return undefined;
		}
		const picked = await vscode.window.showQuickPick(entries.map(e => ({
			label: printable(e.config.name),
			description: e.consent === 'allowed' ? 'allowed' : e.consent === 'declined' ? 'not allowed' : 'not asked yet',
			detail: describeServer(e.config).split('\n')[0],
			entry: e,
		})), { title: 'Servers from Folder Settings', placeHolder: 'Which server to allow or stop' });
		return picked?.entry;
	}

	private async prompt(entry: FolderServer): Promise<void> {
		// The entry may have changed or gone while this prompt waited for an earlier one.
		const current = [...this.merged?.held ?? [], ...this.merged?.allowed ?? []].find(e => e.key === entry.key);
		if (!current) {
			return;
		}
		const allow: vscode.MessageItem = { title: 'Allow' };
		const deny: vscode.MessageItem = { title: 'Don\'t Allow' };
		const where = current.config.kind === 'stdio' ? 'run' : 'contact';
		const answer = await vscode.window.showWarningMessage(
			`Allow the MCP server "${printable(current.config.name)}" from the settings of ${current.folderLabel}?`,
			{
				modal: true,
				detail: `This folder's settings, not yours, name this server. The MCP Resources view will ${where} it only if you allow it:\n\n`
					+ `${describeServer(current.config, this.cwd)}\n\n`
					+ 'Allow only servers you trust: a command runs with your permissions. You are asked again if the entry changes.',
			},
			allow,
			deny,
		);
		if (!answer) {
			return;
		}
		const consent: Consent = answer === allow ? 'allowed' : 'declined';
		this.log.info(`picker: you chose ${answer.title} for "${current.config.name}" from the settings of ${current.folderLabel}`);
		await this.state.update(CONSENT_KEY_PREFIX + current.key, consent);
		this.apply();
	}

	dispose(): void {
		this.disposables.forEach(d => d.dispose());
	}
}

/**
 * The folder-level values of the setting. In a single-folder window the folder's own
 * `.vscode/settings.json` is the workspace value; in a multi-root window it is the workspace file.
 */
function folderSettings(inspected: { workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined): FolderServerSetting[] {
	const folder = vscode.workspace.workspaceFolders?.[0];
	const file = vscode.workspace.workspaceFile;
	const out: FolderServerSetting[] = [];
	if (inspected?.workspaceValue !== undefined) {
		out.push(file && file.scheme !== 'untitled'
			? { folderId: file.toString(), folderLabel: `the workspace file ${file.path.split('/').pop()}`, value: inspected.workspaceValue }
			: { folderId: folder?.uri.toString() ?? 'workspace', folderLabel: `the folder "${folder?.name ?? vscode.workspace.name ?? 'workspace'}"`, value: inspected.workspaceValue });
	}
	if (inspected?.workspaceFolderValue !== undefined && JSON.stringify(inspected.workspaceFolderValue) !== JSON.stringify(inspected.workspaceValue)) {
		out.push({ folderId: folder?.uri.toString() ?? 'folder', folderLabel: `the folder "${folder?.name ?? 'folder'}"`, value: inspected.workspaceFolderValue });
	}
	return out;
}
