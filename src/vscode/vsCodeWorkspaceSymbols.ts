import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { SymbolSearch, SymbolSearchResult, WorkspaceSymbol, WorkspaceSymbolSource } from '../core/symbols/ports';

/** Workspace symbols from the language extensions' workspace symbol providers. Translation only. */
export class VsCodeWorkspaceSymbols implements WorkspaceSymbolSource, vscode.Disposable {
	private readonly emitter = new Emitter<void>();
	readonly onDidChange = this.emitter.event;
	private readonly subscriptions: vscode.Disposable[];

	constructor() {
		const fire = () => this.emitter.fire();
		this.subscriptions = [
			vscode.workspace.onDidChangeTextDocument(e => e.document.uri.scheme === 'file' && e.contentChanges.length > 0 && fire()),
			vscode.workspace.onDidSaveTextDocument(fire),
			vscode.workspace.onDidCreateFiles(fire),
			vscode.workspace.onDidDeleteFiles(fire),
			vscode.workspace.onDidRenameFiles(fire),
		];
	}

	async search(request: SymbolSearch): Promise<SymbolSearchResult> {
		let timer: NodeJS.Timeout | undefined;
		const late = new Promise<undefined>(resolve => { timer = setTimeout(() => resolve(undefined), Math.max(0, request.deadline - performance.now())); });
		const asked = vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', request.query);
		const found = await Promise.race([asked, late]).finally(() => clearTimeout(timer));
		if (found === undefined) {
			return { symbols: [], complete: false, note: 'the language services did not answer in time' };
		}
		const symbols: WorkspaceSymbol[] = [];
		for (const s of found) {
			if (s.location?.uri.scheme === 'file') {
				symbols.push({
					name: s.name, kind: vscode.SymbolKind[s.kind], ...(s.containerName ? { container: s.containerName } : {}),
					absPath: s.location.uri.fsPath, range: toRange(s.location.range),
				});
			}
		}
		return { symbols, complete: true };
	}

	dispose(): void {
		this.subscriptions.forEach(s => s.dispose());
		this.emitter.dispose();
	}
}

function toRange(r: vscode.Range): WorkspaceSymbol['range'] {
	return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}
