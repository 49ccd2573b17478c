import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import type { Language, Parser, Query } from 'web-tree-sitter';
import { Declaration, DeclarationSource, GrammarLanguage } from '../../core/symbols/ports';
import { GRAMMARS, grammarFor, GrammarSpec, RUNTIME_WASM } from './grammarCatalog';
import { declarationsOf } from './grammarDeclarations';

interface LoadedGrammar {
	readonly parser: Parser;
	readonly declarations: Query;
	readonly comments: Query;
}

type Runtime = typeof import('./treeSitterRuntime');

/**
 * Declarations from tree-sitter's WASM grammars (web-tree-sitter), read from `grammarDir` (dist/grammars
 * in the bundles). The runtime starts on the first parse and each language's grammar loads on the
 * first file of that language, once; a grammar that fails to load fails that language's parses only.
 */
export class TreeSitterParser implements DeclarationSource {
	private runtime: Promise<Runtime> | undefined;
	private readonly grammars = new Map<string, Promise<LoadedGrammar>>();

	constructor(private readonly grammarDir: string) {}

	languageOf(fileName: string): GrammarLanguage | undefined {
		return grammarFor(fileName);
	}

	languageNames(): readonly string[] {
		return GRAMMARS.map(g => g.name);
	}

	async parse(language: GrammarLanguage, text: string): Promise<readonly Declaration[]> {
		const spec = GRAMMARS.find(g => g.id === language.id);
		if (!spec) {
			return [];
		}
		const grammar = await this.grammar(spec);
		const tree = grammar.parser.parse(text);
		if (!tree) {
			return [];
		}
		try {
			return declarationsOf(tree, text, spec, grammar.declarations, grammar.comments);
		} finally {
			tree.delete(); // WASM memory: nothing else frees it
		}
	}

	private grammar(spec: GrammarSpec): Promise<LoadedGrammar> {
		let loading = this.grammars.get(spec.id);
		if (!loading) {
			loading = this.load(spec);
			this.grammars.set(spec.id, loading);
		}
		return loading;
	}

	private async load(spec: GrammarSpec): Promise<LoadedGrammar> {
		const runtime = await this.start();
		const language: Language = await runtime.Language.load(await readGrammar(path.join(this.grammarDir, spec.wasm)));
		const parser = new runtime.Parser();
		parser.setLanguage(language);
		const declarations = new runtime.Query(language, spec.query);
		const comments = new runtime.Query(language, spec.commentTypes.map(t => `(${t}) @comment`).join('\n'));
		return { parser, declarations, comments };
	}

	private start(): Promise<Runtime> {
		this.runtime ??= (async () => {
			// Its own bundle (dist/treeSitterRuntime.js), loaded on the first parse only.
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const runtime = require('./treeSitterRuntime') as Runtime;
			await runtime.initRuntime(path.join(this.grammarDir, RUNTIME_WASM));
			return runtime;
		})();
		return this.runtime;
	}
}

const brotliDecompress = promisify(zlib.brotliDecompress);

/**
 * A grammar as shipped, `<name>.wasm.br` (esbuild.mjs compresses them: mostly tables, they take a
 * twentieth of the room), inflated on the thread pool, never on the event loop.
 */
async function readGrammar(wasmPath: string): Promise<Uint8Array> {
	const inflated = await brotliDecompress(await readFile(`${wasmPath}.br`));
	return new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.byteLength);
}
