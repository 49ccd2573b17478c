import { TextPosition, TextRange } from '../diagnostics/ports';

/** What a relation asks about a symbol, as its URIs spell it. */
export const RELATIONS = ['definitions', 'references', 'implementations', 'type-definitions', 'incoming-calls', 'outgoing-calls'] as const;
export type Relation = typeof RELATIONS[number];

/** One place a relation leads to: a definition, a reference, a caller or a callee. */
export interface RelatedLocation {
	readonly absPath: string;
	/** Zero-based; for a caller or callee, its name's range. */
	readonly range: TextRange;
	/** The caller's or callee's name (calls only). */
	readonly name?: string;
}

/**
 * The editor's language services, asked about the symbol at a position of a file (its live,
 * unsaved text). Headless there are none: no grammar knows what a name refers to across files.
 */
export interface RelationSource {
	related(relation: Relation, absPath: string, position: TextPosition): Promise<readonly RelatedLocation[]>;
}
