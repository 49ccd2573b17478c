import * as vscode from 'vscode';
import { Emitter } from '../common/event';
import { TextRange } from '../core/diagnostics/ports';
import { ActiveEditorSnapshot, EditorStateSource, EditorTab, EditorTabKind } from '../core/editor/ports';

/** The active editor and the open tabs of this window. */
export class VsCodeEditor implements EditorStateSource, vscode.Disposable {
	private readonly activeEmitter = new Emitter<void>();
	readonly onDidChangeActive = this.activeEmitter.event;
	private readonly tabsEmitter = new Emitter<void>();
	readonly onDidChangeTabs = this.tabsEmitter.event;
	private readonly subscriptions: vscode.Disposable[];

	constructor() {
		const active = () => this.activeEmitter.fire();
		this.subscriptions = [
			vscode.window.onDidChangeActiveTextEditor(active),
			vscode.window.onDidChangeTextEditorSelection(e => {
				if (e.textEditor === vscode.window.activeTextEditor) {
					active();
				}
			}),
			vscode.window.onDidChangeTextEditorVisibleRanges(e => {
				if (e.textEditor === vscode.window.activeTextEditor) {
					active();
				}
			}),
			vscode.workspace.onDidChangeTextDocument(e => {
				if (e.document === vscode.window.activeTextEditor?.document) {
					active();
				}
			}),
			vscode.window.tabGroups.onDidChangeTabs(() => this.tabsEmitter.fire()),
			vscode.window.tabGroups.onDidChangeTabGroups(() => this.tabsEmitter.fire()),
		];
	}

	activeEditor(): ActiveEditorSnapshot | undefined {
		const editor = vscode.window.activeTextEditor;
		if (!editor) {
			return undefined;
		}
		const doc = editor.document;
		const pos = (p: vscode.Position) => ({ line: p.line, character: p.character });
		const range = (r: vscode.Range) => ({ start: pos(r.start), end: pos(r.end) });
		return {
			scheme: doc.uri.scheme,
			...(doc.uri.scheme === 'file' ? { path: doc.uri.fsPath } : {}),
			languageId: doc.languageId,
			isDirty: doc.isDirty,
			lineCount: doc.lineCount,
			selections: editor.selections.map(s => ({ ...range(s), anchor: pos(s.anchor), active: pos(s.active) })),
			visibleRanges: editor.visibleRanges.map(range),
			textIn: (r: TextRange, maxChars: number) => {
				const start = new vscode.Position(r.start.line, r.start.character);
				const startOffset = doc.offsetAt(start);
				const endOffset = Math.min(doc.offsetAt(new vscode.Position(r.end.line, r.end.character)), startOffset + maxChars);
				const text = doc.getText(new vscode.Range(start, doc.positionAt(endOffset)));
				return { text, truncated: endOffset < doc.offsetAt(new vscode.Position(r.end.line, r.end.character)) };
			},
		};
	}

	tabs(): readonly EditorTab[] {
		return vscode.window.tabGroups.all.flatMap(group => group.tabs.map(tab => {
			const { kind, uri, shown } = describeInput(tab.input);
			return {
				label: tab.label,
				kind,
				...(uri?.scheme === 'file' ? { path: uri.fsPath } : {}),
				labelPaths: shown.flatMap(uri => (uri ? labelPath(uri) : [null])),
				group: group.viewColumn,
				isActive: tab.isActive && group.isActive,
				isDirty: tab.isDirty,
				isPinned: tab.isPinned,
				isPreview: tab.isPreview,
			};
		}));
	}

	dispose(): void {
		this.subscriptions.forEach(s => s.dispose());
		this.activeEmitter.dispose();
		this.tabsEmitter.dispose();
	}
}

/** The tab's kind, its (modified) document, and every document its label may name (`null`: unknown). */
function describeInput(input: unknown): { kind: EditorTabKind; uri?: vscode.Uri; shown: (vscode.Uri | null)[] } {
	if (input instanceof vscode.TabInputText) {
		return { kind: 'text', uri: input.uri, shown: [input.uri] };
	}
	if (input instanceof vscode.TabInputTextDiff) {
		return { kind: 'diff', uri: input.modified, shown: [input.original, input.modified] };
	}
	if (input instanceof vscode.TabInputNotebook) {
		return { kind: 'notebook', uri: input.uri, shown: [input.uri] };
	}
	if (input instanceof vscode.TabInputNotebookDiff) {
		return { kind: 'diff', uri: input.modified, shown: [input.original, input.modified] };
	}
	if (input instanceof vscode.TabInputCustom) {
		return { kind: 'custom', uri: input.uri, shown: [input.uri] };
	}
	if (input instanceof vscode.TabInputWebview) {
		// Its label is whatever its extension says, and a preview's names the file it shows
		// ("Preview notes.md"), which the webview does not tell: a label no rule can judge.
		return { kind: 'webview', shown: [null] };
	}
	if (input instanceof vscode.TabInputTerminal) {
		return { kind: 'terminal', shown: [] };
	}
	// Settings, merge editors ("Merging: .env"), chat and whatever comes next: the stable API
	// does not say what they show, so nothing says what their labels name.
	return { kind: 'other', shown: [null] };
}

/**
 * The file a document shown in a tab stands for, for the label check: a file's path; for the
 * git extension's `git:` documents (a file at a revision) the path its query names; `null` for
 * any other scheme (no rule can judge what it names), untitled buffers included: VS Code labels
 * one with its first line of text (`API_KEY=...` pasted into a new editor).
 */
function labelPath(uri: vscode.Uri): (string | null)[] {
	if (uri.scheme === 'file') {
		return [uri.fsPath];
	}
	if (uri.scheme === 'git') {
		try {
			const { path } = JSON.parse(uri.query) as { path?: unknown };
			return [typeof path === 'string' ? path : null];
		} catch {
			return [null];
		}
	}
	return [null];
}
