import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { OpenDocuments } from '../core/ports';

/** Unsaved editor text, and a signal whenever a document's text may differ from before. */
export class VsCodeDocuments implements OpenDocuments, vscode.Disposable {
	private readonly emitter = new Emitter<string>();
	readonly onDidChange = this.emitter.event;
	private readonly subscriptions: vscode.Disposable[];

	constructor() {
		const fire = (doc: vscode.TextDocument) => {
			if (doc.uri.scheme === 'file') {
				this.emitter.fire(doc.uri.fsPath);
			}
		};
		this.subscriptions = [
			vscode.workspace.onDidChangeTextDocument(e => {
				if (e.contentChanges.length > 0 || !e.document.isDirty) {
					fire(e.document);
				}
			}),
			vscode.workspace.onDidSaveTextDocument(fire),
			// Closing a dirty document without saving drops the unsaved text.
			vscode.workspace.onDidCloseTextDocument(fire),
		];
	}

	dirtyText(absPath: string): string | undefined {
		const doc = vscode.workspace.textDocuments.find(d => d.isDirty && d.uri.scheme === 'file' && d.uri.fsPath === absPath);
		return doc?.getText();
	}

	dirtyPaths(): readonly string[] {
		return vscode.workspace.textDocuments.filter(d => d.isDirty && d.uri.scheme === 'file').map(d => d.uri.fsPath);
	}

	dispose(): void {
		this.subscriptions.forEach(s => s.dispose());
		this.emitter.dispose();
	}
}
