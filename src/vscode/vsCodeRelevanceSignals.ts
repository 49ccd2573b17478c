import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { EditorSignals, FileTouch } from '../core/relevance/ports';

/** The editor's side of relevance: which files are shown, and which are typed into or saved. Translation only. */
export class VsCodeRelevanceSignals implements EditorSignals, vscode.Disposable {
	private readonly changeEmitter = new Emitter<void>();
	readonly onDidChange = this.changeEmitter.event;
	private readonly touchEmitter = new Emitter<readonly FileTouch[]>();
	readonly onDidTouch = this.touchEmitter.event;
	private readonly subscriptions: vscode.Disposable[];

	constructor() {
		const changed = () => this.changeEmitter.fire();
		this.subscriptions = [
			vscode.window.onDidChangeActiveTextEditor(changed),
			vscode.window.onDidChangeVisibleTextEditors(changed),
			vscode.window.tabGroups.onDidChangeTabs(changed),
			vscode.workspace.onDidChangeTextDocument(e => {
				if (e.document.uri.scheme === 'file' && e.contentChanges.length > 0) {
					this.touchEmitter.fire([{ path: e.document.uri.fsPath, kind: 'edited' }]);
				}
			}),
			vscode.workspace.onDidSaveTextDocument(doc => {
				if (doc.uri.scheme === 'file') {
					this.touchEmitter.fire([{ path: doc.uri.fsPath, kind: 'saved' }]);
				}
			}),
		];
	}

	activeFile(): string | undefined {
		const uri = vscode.window.activeTextEditor?.document.uri;
		return uri?.scheme === 'file' ? uri.fsPath : undefined;
	}

	visibleFiles(): readonly string[] {
		return vscode.window.visibleTextEditors.map(e => e.document.uri).filter(u => u.scheme === 'file').map(u => u.fsPath);
	}

	openFiles(): readonly string[] {
		const out: string[] = [];
		for (const group of vscode.window.tabGroups.all) {
			for (const tab of group.tabs) {
				const input = tab.input;
				const uri = input instanceof vscode.TabInputText ? input.uri : input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
				if (uri?.scheme === 'file') {
					out.push(uri.fsPath);
				}
			}
		}
		return out;
	}

	dispose(): void {
		this.subscriptions.forEach(s => s.dispose());
		this.changeEmitter.dispose();
		this.touchEmitter.dispose();
	}
}
