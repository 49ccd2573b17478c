import { Event } from '../../common/event';
import { TextPosition, TextRange } from '../diagnostics/ports';

export interface EditorSelection extends TextRange {
	/** Where the selection started (may be after `active`). */
	readonly anchor: TextPosition;
	/** Where the cursor is. */
	readonly active: TextPosition;
}

/** A snapshot of the active text editor, taken when a client reads it. */
export interface ActiveEditorSnapshot {
	/** URI scheme of the document: `file`, `untitled`, ... */
	readonly scheme: string;
	/** Absolute path for `file` documents. */
	readonly path?: string;
	readonly languageId: string;
	readonly isDirty: boolean;
	readonly lineCount: number;
	readonly selections: readonly EditorSelection[];
	readonly visibleRanges: readonly TextRange[];
	/** The document's text in `range`, cut at `maxChars`. */
	textIn(range: TextRange, maxChars: number): { text: string; truncated: boolean };
}

export type EditorTabKind = 'text' | 'diff' | 'notebook' | 'custom' | 'webview' | 'terminal' | 'other';

export interface EditorTab {
	readonly label: string;
	readonly kind: EditorTabKind;
	/** Absolute path of the (modified side of the) file the tab shows, when it is a file. */
	readonly path?: string;
	/**
	 * Every file the label may name, when more than `path`: both sides of a diff, the file behind
	 * a revision (a `git:` document). `null` is what no rule can judge: a document of another
	 * scheme, a webview's own title ("Preview <file>"). The label is served only when the rule
	 * serves each of them, as a diff's label names both files.
	 */
	readonly labelPaths?: readonly (string | null)[];
	/** The editor group's view column (1-based). */
	readonly group: number;
	readonly isActive: boolean;
	readonly isDirty: boolean;
	readonly isPinned: boolean;
	readonly isPreview: boolean;
}

/** What the user is looking at (VS Code's window state). Headless there is nothing. */
export interface EditorStateSource {
	activeEditor(): ActiveEditorSnapshot | undefined;
	tabs(): readonly EditorTab[];
	/** The active editor changed, or its selections, visible ranges or text. */
	readonly onDidChangeActive: Event<void>;
	/** Tabs opened, closed, moved or changed state. */
	readonly onDidChangeTabs: Event<void>;
}
