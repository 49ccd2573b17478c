import * as path from 'node:path';
import { GrammarLanguage } from '../../core/symbols/ports';
import { DECLARATION_QUERIES } from './grammarQueries';

/** A language a WASM grammar in the build reads, with how its declarations and comments are found. */
export interface GrammarSpec extends GrammarLanguage {
	readonly extensions: readonly string[];
	/** The grammar's file in the grammar directory (esbuild.mjs copies it there). */
	readonly wasm: string;
	/** Node types that are comments (doc comments are those just above a declaration). */
	readonly commentTypes: readonly string[];
	/** Python's kind of documentation: a string as a body's first statement. */
	readonly docstrings?: boolean;
	readonly query: string;
}

function spec(id: string, name: string, extensions: string[], wasm: string, lineComment: string, extra: Partial<GrammarSpec> = {}): GrammarSpec {
	return { id, name, extensions, wasm, lineComment, commentTypes: ['comment'], query: DECLARATION_QUERIES[id], ...extra };
}

/**
 * The languages whose grammars ship (and only these: each grammar is up to 5 MB). Headers (`.h`)
 * go to the C++ grammar, which reads C declarations too, while C's own reads no class.
 */
export const GRAMMARS: readonly GrammarSpec[] = [
	spec('typescript', 'TypeScript', ['.ts', '.mts', '.cts'], 'tree-sitter-typescript.wasm', '//'),
	spec('tsx', 'TypeScript JSX', ['.tsx'], 'tree-sitter-tsx.wasm', '//'),
	spec('javascript', 'JavaScript', ['.js', '.mjs', '.cjs', '.jsx'], 'tree-sitter-javascript.wasm', '//'),
	spec('python', 'Python', ['.py', '.pyi'], 'tree-sitter-python.wasm', '#', { docstrings: true }),
	spec('go', 'Go', ['.go'], 'tree-sitter-go.wasm', '//'),
	spec('rust', 'Rust', ['.rs'], 'tree-sitter-rust.wasm', '//', { commentTypes: ['line_comment', 'block_comment'] }),
	spec('java', 'Java', ['.java'], 'tree-sitter-java.wasm', '//', { commentTypes: ['line_comment', 'block_comment'] }),
	spec('c', 'C', ['.c'], 'tree-sitter-c.wasm', '//'),
	spec('cpp', 'C++', ['.cc', '.cpp', '.cxx', '.c++', '.hh', '.hpp', '.hxx', '.h', '.inl'], 'tree-sitter-cpp.wasm', '//'),
	spec('csharp', 'C#', ['.cs'], 'tree-sitter-c-sharp.wasm', '//'),
	spec('ruby', 'Ruby', ['.rb', '.rake', '.gemspec'], 'tree-sitter-ruby.wasm', '#'),
	spec('php', 'PHP', ['.php'], 'tree-sitter-php.wasm', '//'),
];

const byExtension = new Map(GRAMMARS.flatMap(g => g.extensions.map(e => [e, g] as const)));

/** The grammar for a file, by its extension (any letter case); undefined when none ships. */
export function grammarFor(fileName: string): GrammarSpec | undefined {
	return byExtension.get(path.extname(fileName).toLowerCase());
}

/** The runtime's own WASM file, next to the grammars. */
export const RUNTIME_WASM = 'web-tree-sitter.wasm';
