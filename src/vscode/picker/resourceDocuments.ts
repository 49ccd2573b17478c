import * as vscode from 'vscode';
import { ReadContent } from '../../picker/contextBundle';
import { PickerService } from '../../picker/pickerService';
import { formatSize } from '../../picker/tokenEstimate';
import { fromDocumentUri, RESOURCE_SCHEME } from './resourceUris';

/**
 * Read-only documents for `mcp-workspace-resource:` URIs, read through the picker's MCP clients. An open
 * document holds a subscription on its server and refreshes when the server reports `updated`.
 */
export class ResourceDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
	private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
	readonly onDidChange = this.changeEmitter.event;
	private readonly subscriptions = new Map<string, vscode.Disposable>();
	private readonly disposables: vscode.Disposable[] = [];

	constructor(private readonly service: PickerService) {
		this.disposables.push(
			vscode.workspace.registerTextDocumentContentProvider(RESOURCE_SCHEME, this),
			vscode.workspace.onDidOpenTextDocument(doc => this.track(doc)),
			vscode.workspace.onDidCloseTextDocument(doc => this.untrack(doc)),
			{ dispose: service.onDidUpdateResource(({ serverId, uri }) => this.onUpdated(serverId, uri)).dispose },
		);
		vscode.workspace.textDocuments.forEach(doc => this.track(doc));
	}

	async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
		const target = fromDocumentUri(uri);
		const server = target && this.service.server(target.serverId);
		if (!target || !server) {
			return `This MCP resource is no longer available: its server is not configured.\n\n${uri.toString(true)}`;
		}
		try {
			return renderContents(await server.connection.read(target.uri));
		} catch (err) {
			return `Could not read ${target.uri} from ${server.label}:\n\n${(err as Error).message}\n`;
		}
	}

	private track(doc: vscode.TextDocument): void {
		const target = fromDocumentUri(doc.uri);
		const key = doc.uri.toString();
		if (!target || this.subscriptions.has(key)) {
			return;
		}
		const server = this.service.server(target.serverId);
		if (server) {
			const sub = server.connection.subscribe(target.uri);
			this.subscriptions.set(key, { dispose: () => sub.dispose() });
		}
	}

	private untrack(doc: vscode.TextDocument): void {
		const key = doc.uri.toString();
		this.subscriptions.get(key)?.dispose();
		this.subscriptions.delete(key);
	}

	private onUpdated(serverId: string, uri: string): void {
		for (const doc of vscode.workspace.textDocuments) {
			const target = fromDocumentUri(doc.uri);
			if (target && target.serverId === serverId && target.uri === uri) {
				this.changeEmitter.fire(doc.uri);
			}
		}
	}

	dispose(): void {
		this.subscriptions.forEach(s => s.dispose());
		this.subscriptions.clear();
		this.disposables.forEach(d => d.dispose());
		this.changeEmitter.dispose();
	}
}

/** Text of a read result as the editor shows it; binary items are described, not dumped. */
export function renderContents(contents: readonly ReadContent[]): string {
	return contents.map(content => {
		if (content.text !== undefined) {
			return content.text;
		}
		const bytes = Math.floor((content.blob?.length ?? 0) * 3 / 4);
		return `[binary content: ${content.mimeType ?? 'application/octet-stream'}, about ${formatSize(bytes)}; not shown as text]\n`;
	}).join(contents.length > 1 ? '\n' : '');
}
