import * as vscode from 'vscode';
import { buildContextBundle, BundleEntry } from '../../picker/contextBundle';
import { PickerService, WORKSPACE_SERVER_ID } from '../../picker/pickerService';
import { estimateTokensFromSize } from '../../picker/tokenCount';
import { formatTokens } from '../../picker/tokenEstimate';

export type AttachTarget = 'clipboard' | 'editor' | 'chat';

export interface AttachResult {
	readonly target: AttachTarget;
	/** Set when the chat was asked for but the clipboard got the bundle. */
	readonly fellBackFrom?: 'chat';
	/** Why the chat could not take it (shown to the user). */
	readonly fallbackReason?: string;
	readonly resourceCount: number;
	/** Selected URIs that could not be read (deleted since, refused, server gone): the bundle says why. */
	readonly unreadable: readonly string[];
	readonly estimatedTokens: number;
	readonly document?: vscode.TextDocument;
}

const CHAT_OPEN = 'workbench.action.chat.open';

/**
 * Reads the selection through each server's client and hands the bundle to the target. Chat
 * gets workspace files as themselves and everything else as a Markdown file (plus image files)
 * in the extension's storage, through `workbench.action.chat.open`'s `attachFiles`; where that
 * command is missing or fails, the bundle goes to the clipboard and the message says so.
 */
export async function attachSelection(service: PickerService, target: AttachTarget, storage: vscode.Uri): Promise<AttachResult | undefined> {
	const selected = service.selection.list();
	if (selected.length === 0) {
		void vscode.window.showInformationMessage('Nothing is selected. Check resources in the MCP Resources view, or use "Pick Resources...".');
		return undefined;
	}
	const result = await vscode.window.withProgress(
		{ location: { viewId: 'mcpResources.picker' }, title: `Reading ${selected.length} resources` },
		async () => {
			if (target === 'chat') {
				const unavailable = await chatUnavailableReason();
				const chat = unavailable ? undefined : await attachToChat(service, storage);
				if (chat) {
					return chat;
				}
				const fallback = await toClipboard(service);
				return { ...fallback, fellBackFrom: 'chat' as const, fallbackReason: unavailable ?? 'Chat did not accept the attachment' };
			}
			return target === 'editor' ? toEditor(service) : toClipboard(service);
		});
	service.selection.resetChanged();
	const what = `${result.resourceCount} resource${result.resourceCount === 1 ? '' : 's'} (${formatTokens(result.estimatedTokens)})`;
	const unread = result.unreadable.length;
	const gone = unread > 0 ? ` ${unread} of them could not be read (deleted, refused or unreachable): the bundle says why under ${unread === 1 ? 'its' : 'each'} URI.` : '';
	if (result.fellBackFrom === 'chat') {
		void vscode.window.showWarningMessage(`${result.fallbackReason}, so ${what} ${result.resourceCount === 1 ? 'was' : 'were'} copied to the clipboard instead. Paste them where you need them.${gone}`);
	} else if (unread > 0) {
		const done = result.target === 'clipboard' ? `Copied ${what} to the clipboard.` : result.target === 'chat' ? `Attached ${what} to the chat.` : `Opened ${what} in an editor.`;
		void vscode.window.showWarningMessage(`${done}${gone}`);
	} else if (result.target === 'clipboard') {
		void vscode.window.showInformationMessage(`Copied ${what} to the clipboard.`);
	} else if (result.target === 'chat') {
		void vscode.window.showInformationMessage(`Attached ${what} to the chat.`);
	}
	return result;
}

async function read(service: PickerService): Promise<BundleEntry[]> {
	return service.readForBundle(service.selection.list().map(i => ({ serverId: i.serverId, uri: i.resource.uri })));
}

async function toClipboard(service: PickerService): Promise<AttachResult> {
	const bundle = buildContextBundle(await read(service), { images: 'note' });
	await vscode.env.clipboard.writeText(bundle.text);
	return { target: 'clipboard', resourceCount: bundle.resourceCount, unreadable: bundle.unreadable, estimatedTokens: bundle.estimatedTokens };
}

async function toEditor(service: PickerService): Promise<AttachResult> {
	const bundle = buildContextBundle(await read(service), { images: 'inline' });
	const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: bundle.text });
	await vscode.window.showTextDocument(document, { preview: false });
	return { target: 'editor', resourceCount: bundle.resourceCount, unreadable: bundle.unreadable, estimatedTokens: bundle.estimatedTokens, document };
}

/**
 * Why chat cannot take attachments here, or undefined when it can. With AI features turned off
 * (`chat.disableAIFeatures`) the chat command still exists but opens nothing and drops the files
 * without an error, so the setting is checked rather than trusting the command's result.
 */
async function chatUnavailableReason(): Promise<string | undefined> {
	if (vscode.workspace.getConfiguration('chat').get<boolean>('disableAIFeatures') === true) {
		return 'Chat is turned off in this window (setting "chat.disableAIFeatures")';
	}
	const commands = await vscode.commands.getCommands(true);
	return commands.includes(CHAT_OPEN) ? undefined : 'This editor has no chat';
}

async function attachToChat(service: PickerService, storage: vscode.Uri): Promise<AttachResult | undefined> {
	const selected = service.selection.list();
	// Files of this window are attached as themselves: chat reads them (and sees edits) directly.
	// One deleted since it was selected is read like the rest, so the bundle says it is gone.
	const direct: typeof selected = [];
	for (const item of selected) {
		if (item.serverId === WORKSPACE_SERVER_ID && item.resource.uri.startsWith('file:') && await exists(vscode.Uri.parse(item.resource.uri))) {
			direct.push(item);
		}
	}
	const rest = selected.filter(i => !direct.includes(i));
	const files: vscode.Uri[] = direct.map(i => vscode.Uri.parse(i.resource.uri));
	let tokens = direct.reduce((n, i) => n + (i.tokens ?? estimateTokensFromSize(i.resource.size)), 0);
	let unreadable: readonly string[] = [];
	try {
		if (rest.length > 0) {
			const entries = await service.readForBundle(rest.map(i => ({ serverId: i.serverId, uri: i.resource.uri })));
			const bundle = buildContextBundle(entries, { images: 'attach' });
			tokens += bundle.estimatedTokens;
			unreadable = bundle.unreadable;
			const dir = vscode.Uri.joinPath(storage, 'attachments');
			await vscode.workspace.fs.createDirectory(dir);
			await pruneOld(dir);
			const stamp = new Date().toISOString().replace(/[:.]/g, '-');
			const file = vscode.Uri.joinPath(dir, `mcp-context-${stamp}.md`);
			await vscode.workspace.fs.writeFile(file, Buffer.from(bundle.text, 'utf8'));
			files.push(file);
			for (const [i, image] of bundle.images.entries()) {
				const ext = image.mimeType.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png';
				const imageFile = vscode.Uri.joinPath(dir, `mcp-image-${stamp}-${i}.${ext}`);
				await vscode.workspace.fs.writeFile(imageFile, Buffer.from(image.data, 'base64'));
				files.push(imageFile);
			}
		}
		await vscode.commands.executeCommand(CHAT_OPEN, { query: '', isPartialQuery: true, attachFiles: files });
	} catch {
		return undefined;
	}
	return { target: 'chat', resourceCount: selected.length, unreadable, estimatedTokens: tokens };
}

function exists(uri: vscode.Uri): Thenable<boolean> {
	return vscode.workspace.fs.stat(uri).then(() => true, () => false);
}

/** Keeps the attachments folder small: the newest 20 files stay. */
async function pruneOld(dir: vscode.Uri): Promise<void> {
	const entries = await vscode.workspace.fs.readDirectory(dir).then(e => e, () => [] as [string, vscode.FileType][]);
	const names = entries.map(([name]) => name).filter(n => n.startsWith('mcp-')).sort();
	for (const name of names.slice(0, Math.max(0, names.length - 20))) {
		await vscode.workspace.fs.delete(vscode.Uri.joinPath(dir, name)).then(undefined, () => undefined);
	}
}
