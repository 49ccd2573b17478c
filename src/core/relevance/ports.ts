import { Event } from '../../common/event';

/**
 * A file someone just changed: typed into (unsaved), saved, or written on disk (headless); or a
 * path that went (deleted or renamed away, headless): what was touched there is no signal any
 * more, as nothing can be read there.
 */
export interface FileTouch {
	readonly path: string;
	readonly kind: 'edited' | 'saved' | 'written' | 'gone';
}

/** What the editor shows (VS Code's window state). Headless there is no editor. */
export interface EditorSignals {
	/** Absolute path of the active text editor's file. */
	activeFile(): string | undefined;
	/** Files shown in visible editors (the active one included). */
	visibleFiles(): readonly string[];
	/** Files open in tabs. */
	openFiles(): readonly string[];
	/** The active editor, the visible editors or the tabs changed. */
	readonly onDidChange: Event<void>;
}
