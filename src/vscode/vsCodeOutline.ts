import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { OutlineSource, OutlineSymbol } from '../core/outline/ports';

/** Outlines from the document symbol providers of the editor's language extensions. Translation only. */
export class VsCodeOutline implements OutlineSource, vscode.Disposable {
	private readonly fileEmitter = new Emitter<string>();
	readonly onDidChangeFile = this.fileEmitter.event;
	private readonly subscriptions: vscode.Disposable[];

	constructor() {
		this.subscriptions = [
			vscode.workspace.onDidChangeTextDocument(e => {
				if (e.document.uri.scheme === 'file' && e.contentChanges.length > 0) {
					this.fileEmitter.fire(e.document.uri.fsPath);
				}
			}),
			vscode.workspace.onDidSaveTextDocument(doc => doc.uri.scheme === 'file' && this.fileEmitter.fire(doc.uri.fsPath)),
		];
	}

	async symbols(absPath: string): Promise<readonly OutlineSymbol[] | undefined> {
		const uri = vscode.Uri.file(absPath);
		const open = vscode.workspace.textDocuments.some(d => d.uri.scheme === 'file' && d.uri.fsPath === absPath);
		if (!open && !(await vscode.workspace.fs.stat(uri).then(() => true, () => false))) {
			return undefined; // asking the symbol providers would fail to open it
		}
		const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
			'vscode.executeDocumentSymbolProvider', uri);
		return (found ?? []).map(toSymbol);
	}

	openFiles(): readonly string[] {
		return vscode.workspace.textDocuments.filter(d => d.uri.scheme === 'file').map(d => d.uri.fsPath);
	}

	dispose(): void {
		this.subscriptions.forEach(s => s.dispose());
		this.fileEmitter.dispose();
	}
}

function toSymbol(s: vscode.DocumentSymbol | vscode.SymbolInformation): OutlineSymbol {
	if ('children' in s) {
		return {
			name: s.name, kind: vscode.SymbolKind[s.kind], detail: s.detail || undefined,
			range: toRange(s.range), selectionRange: toRange(s.selectionRange), children: s.children.map(toSymbol),
		};
	}
	// A flat provider (SymbolInformation) gives one range and no nesting.
	return { name: s.name, kind: vscode.SymbolKind[s.kind], range: toRange(s.location.range), selectionRange: toRange(s.location.range), children: [] };
}

function toRange(r: vscode.Range): OutlineSymbol['range'] {
	return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}
