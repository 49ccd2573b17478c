import { Event } from '../../common/event';
import { TextRange } from '../diagnostics/ports';

/** One entry of a file's outline, as the editor's document symbol providers report it. */
export interface OutlineSymbol {
	readonly name: string;
	/** VS Code's SymbolKind name: `Function`, `Class`, `Method`, ... */
	readonly kind: string;
	readonly detail?: string;
	/** Zero-based, the whole symbol (body included). */
	readonly range: TextRange;
	/** Zero-based, the symbol's name. */
	readonly selectionRange: TextRange;
	readonly children: readonly OutlineSymbol[];
}

/** The editor's outlines. Headless there is none (no language services without an editor). */
export interface OutlineSource {
	/**
	 * The outline of the file at `absPath` (its unsaved text when dirty); [] when no provider
	 * knows it; undefined when there is no such file (nor an open document).
	 */
	symbols(absPath: string): Promise<readonly OutlineSymbol[] | undefined>;
	/** Absolute paths of the files open in the editor (completion offers their outlines first). */
	openFiles(): readonly string[];
	/** A file's text changed (typed, saved, reverted): its outline may differ. */
	readonly onDidChangeFile: Event<string>;
}
