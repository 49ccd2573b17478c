import { Declaration } from '../../core/symbols/ports';

/** What ThreadGrammarParser posts to the grammars' worker thread: one file to parse. */
export interface ParseRequest {
	readonly id: number;
	readonly languageId: string;
	readonly text: string;
}

/** What the worker posts back for each request, in the order they came. */
export type ParseAnswer =
	| { readonly id: number; readonly declarations: readonly Declaration[] }
	| { readonly id: number; readonly failed: string };

/** The worker's start-up data. */
export interface GrammarWorkerData {
	readonly grammarDir: string;
}
