import { Emitter } from '../../src/common/event';
import { TextRange } from '../../src/core/diagnostics/ports';
import { ActiveEditorSnapshot, EditorSelection, EditorStateSource, EditorTab } from '../../src/core/editor/ports';

/** An editor the test drives: a document's text, selections and tabs. */
export class FakeEditor implements EditorStateSource {
	private readonly activeEmitter = new Emitter<void>();
	readonly onDidChangeActive = this.activeEmitter.event;
	private readonly tabsEmitter = new Emitter<void>();
	readonly onDidChangeTabs = this.tabsEmitter.event;
	active: { scheme: string; path?: string; languageId: string; lines: string[]; selections: EditorSelection[] } | undefined;
	openTabs: EditorTab[] = [];

	open(path: string | undefined, text: string, languageId = 'plaintext', scheme = 'file'): void {
		this.active = { scheme, path, languageId, lines: text.split('\n'), selections: [sel(0, 0, 0, 0)] };
		this.activeEmitter.fire();
	}

	select(...selections: EditorSelection[]): void {
		this.active!.selections = selections;
		this.activeEmitter.fire();
	}

	setTabs(tabs: EditorTab[]): void {
		this.openTabs = tabs;
		this.tabsEmitter.fire();
	}

	activeEditor(): ActiveEditorSnapshot | undefined {
		const a = this.active;
		if (!a) {
			return undefined;
		}
		return {
			scheme: a.scheme,
			...(a.path ? { path: a.path } : {}),
			languageId: a.languageId,
			isDirty: false,
			lineCount: a.lines.length,
			selections: a.selections,
			visibleRanges: [{ start: { line: 0, character: 0 }, end: { line: a.lines.length - 1, character: 0 } }],
			textIn: (r: TextRange, maxChars: number) => {
				const offset = (line: number, character: number) => a.lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + character;
				const all = a.lines.join('\n');
				const text = all.slice(offset(r.start.line, r.start.character), offset(r.end.line, r.end.character));
				return { text: text.slice(0, maxChars), truncated: text.length > maxChars };
			},
		};
	}

	tabs(): readonly EditorTab[] {
		return this.openTabs;
	}

	dispose(): void {
		this.activeEmitter.dispose();
		this.tabsEmitter.dispose();
	}
}

export function sel(startLine: number, startChar: number, endLine: number, endChar: number): EditorSelection {
	const start = { line: startLine, character: startChar };
	const end = { line: endLine, character: endChar };
	return { start, end, anchor: start, active: end };
}
