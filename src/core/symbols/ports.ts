import { Event } from '../../common/event';
import { TextRange } from '../diagnostics/ports';

/**
 * A declaration a grammar found in a file: a function, a class, a field... with where it is and
 * what a signatures view drops of it. Offsets are UTF-16 code units into the parsed text.
 */
export interface Declaration {
	readonly name: string;
	/** VS Code's SymbolKind name: `Function`, `Class`, `Method`, ... */
	readonly kind: string;
	/** Offsets of the whole declaration, its modifiers, decorators and `export` included. */
	readonly start: number;
	readonly end: number;
	/** Zero-based, the whole declaration. */
	readonly range: TextRange;
	/** Zero-based, the declaration's name. */
	readonly selectionRange: TextRange;
	/** The body a signatures view drops (a function's block), when it has one. */
	readonly body?: { readonly start: number; readonly end: number; readonly braced: boolean };
	/**
	 * The first line of its documentation (a comment just above it, or a docstring), and the text
	 * that holds the whole of it, which a signatures view replaces by that line.
	 */
	readonly doc?: { readonly firstLine: string; readonly start: number; readonly end: number };
	readonly children: readonly Declaration[];
}

/** A language a grammar reads. */
export interface GrammarLanguage {
	/** `typescript`, `python`, ... */
	readonly id: string;
	/** As people name it: `TypeScript`, `C#`. */
	readonly name: string;
	/** How a line comment starts (`//`, `#`): a signatures view writes doc lines with it. */
	readonly lineComment: string;
}

/**
 * Grammars that parse source files into their declarations, with no language service (headless,
 * or a language no editor extension answers for). Loading a language's grammar is slow and costs
 * memory: it happens on the first file of that language.
 */
export interface DeclarationSource {
	/** The language of a file, by its name; undefined when no grammar reads it. */
	languageOf(fileName: string): GrammarLanguage | undefined;
	/** Every language a grammar reads, by name (for error messages). */
	languageNames(): readonly string[];
	/** The declarations of `text`, outermost first, in file order. */
	parse(language: GrammarLanguage, text: string): Promise<readonly Declaration[]>;
}

/** One symbol a workspace search found. */
export interface WorkspaceSymbol {
	readonly name: string;
	/** VS Code's SymbolKind name. */
	readonly kind: string;
	/** The symbol it is declared in (a class for a method), when there is one. */
	readonly container?: string;
	readonly absPath: string;
	/** Zero-based, the whole symbol. */
	readonly range: TextRange;
}

export interface SymbolSearch {
	/** What names must match, lower case, never empty. */
	readonly query: string;
	/** Only symbols of these kinds, when given. */
	readonly kinds?: ReadonlySet<string>;
	/** Best matches wanted; a source may return more (its own order) or fewer. */
	readonly max: number;
	/** `performance.now()` past which a source stops and answers what it has. */
	readonly deadline: number;
}

export interface SymbolSearchResult {
	readonly symbols: readonly WorkspaceSymbol[];
	/** False when the source stopped early (time, its own bounds, an index still being built) or had more than `max`. */
	readonly complete: boolean;
	/** Why an answer is not complete, for a person. */
	readonly note?: string;
}

/**
 * Symbols of the whole workspace by name: the editor's workspace symbol providers, or headless an
 * index built from the grammars.
 */
export interface WorkspaceSymbolSource {
	search(request: SymbolSearch): Promise<SymbolSearchResult>;
	/** What a search answers may have changed (files edited, re-indexed). */
	readonly onDidChange: Event<void>;
}
