import { Emitter } from '../../src/common/event';
import { TextPosition } from '../../src/core/diagnostics/ports';
import { SymbolSearch, SymbolSearchResult, WorkspaceSymbol, WorkspaceSymbolSource } from '../../src/core/symbols/ports';
import { RelatedLocation, Relation, RelationSource } from '../../src/core/symbols/relationPorts';

/** Relations the test sets, as a language service would answer them; `asked` records each question. */
export class FakeRelations implements RelationSource {
	readonly answers = new Map<Relation, RelatedLocation[]>();
	readonly asked: { relation: Relation; absPath: string; position: TextPosition }[] = [];

	async related(relation: Relation, absPath: string, position: TextPosition): Promise<readonly RelatedLocation[]> {
		this.asked.push({ relation, absPath, position });
		return this.answers.get(relation) ?? [];
	}
}

/** Workspace symbols the test sets, returned for any query as a language server might (unfiltered, in its own order). */
export class FakeWorkspaceSymbols implements WorkspaceSymbolSource {
	symbols: WorkspaceSymbol[] = [];
	private readonly emitter = new Emitter<void>();
	readonly onDidChange = this.emitter.event;
	readonly queries: string[] = [];

	async search(request: SymbolSearch): Promise<SymbolSearchResult> {
		this.queries.push(request.query);
		return { symbols: this.symbols, complete: true };
	}

	changed(): void {
		this.emitter.fire();
	}
}

/** A location on 0-based `line`, from `character`, `length` long. */
export function at(absPath: string, line: number, character: number, length = 1, name?: string): RelatedLocation {
	return { absPath, range: { start: { line, character }, end: { line, character: character + length } }, ...(name ? { name } : {}) };
}
