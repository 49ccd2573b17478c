import { Event } from '../../common/event';

export type ProblemSeverity = 'error' | 'warning' | 'information' | 'hint';

/** Zero-based, as in LSP and VS Code. */
export interface TextPosition {
	readonly line: number;
	readonly character: number;
}

export interface TextRange {
	readonly start: TextPosition;
	readonly end: TextPosition;
}

/** One problem the editor reports for a file. */
export interface Problem {
	readonly severity: ProblemSeverity;
	readonly range: TextRange;
	readonly message: string;
	readonly source?: string;
	readonly code?: string | number;
}

/** The editor's problems (VS Code: `languages.getDiagnostics`). Headless there are none. */
export interface DiagnosticsSource {
	/** Absolute paths of files whose problems changed. */
	readonly onDidChange: Event<readonly string[]>;
	/** Every file that has problems, by absolute path. */
	all(): readonly (readonly [string, readonly Problem[]])[];
	get(absPath: string): readonly Problem[];
}
