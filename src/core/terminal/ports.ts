import { Event } from '../../common/event';

/** One command a terminal ran, as shell integration reported it. */
export interface TerminalCommand {
	/** Capped like the output: a command line can be a heredoc of megabytes. */
	readonly commandLine: CappedText;
	/** Absolute path, when the shell reported it. */
	readonly cwd?: string;
	/** Undefined while running, or when the shell did not report it. */
	readonly exitCode?: number;
	readonly running: boolean;
	readonly startedAt: number;
	readonly endedAt?: number;
	/** The output with terminal escape sequences removed, capped. */
	readonly output: CappedText;
}

/** Text kept within a cap: its head and its tail. */
export interface CappedText {
	readonly text: string;
	/** Where characters were left out of `text` to keep it within the cap, and how many. */
	readonly cut?: { readonly at: number; readonly chars: number };
	/** The text left out next to each side of `cut`, so redaction can see a credential the cut split. */
	readonly cutEdges?: CutEdges;
}

/** What was cut away next to each side of a cut (a bounded amount): read by redaction, never shown. */
export interface CutEdges {
	readonly afterHead: string;
	readonly beforeTail: string;
}

export interface TerminalInfo {
	/** Stable for the terminal's life in this window: 1, 2, ... */
	readonly id: number;
	readonly name: string;
	/** Newest last. */
	readonly commands: readonly TerminalCommand[];
}

/** Terminals with shell integration and their last commands. Headless there are none. */
export interface TerminalSource {
	terminals(): readonly TerminalInfo[];
	/** A terminal's commands changed (output arrived, a command started or ended). */
	readonly onDidChangeTerminal: Event<number>;
	/** Terminals opened or closed. */
	readonly onDidChangeTerminals: Event<void>;
}
