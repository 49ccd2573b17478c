import { UriTemplate, type ResourceLink } from '@modelcontextprotocol/server';
import { array, boolean, enum as oneOf, int, number, object, optional, strictObject, string } from 'zod';
import { RELATIONS } from '../../core/symbols/relationPorts';
import { SYMBOLS_TEMPLATE as SYMBOLS_URI_TEMPLATE } from '../../core/symbols/workspaceSymbolsProvider';
import { defineTool, fillTemplate, offeredFor, readJson } from './workspaceTool';

/*
 * Thin like the search tools: each fills a symbols template, reads it through the registry (so
 * the served-or-not rule, the caps and the time budget of the symbols family apply) and maps its
 * answer to links. Offered only where a provider answers the URIs.
 */

const SYMBOLS_TEMPLATE = new UriTemplate(SYMBOLS_URI_TEMPLATE);
const RELATION_TEMPLATE = new UriTemplate('symbols://{relation}/{+path}{?symbol,line,character,max}');
/** Symbols or relations a tool asks for unless the model says: each is paid for in context. */
const TOOL_SYMBOLS_MAX = 50;

interface SymbolsAnswer {
	readonly symbols: readonly { readonly name: string; readonly kind: string; readonly container?: string; readonly path: string; readonly line: number; readonly uri: string }[];
	readonly complete: boolean;
}

interface RelationsAnswer {
	readonly items: readonly { readonly name?: string; readonly path: string; readonly line: number; readonly column: number; readonly text: string; readonly uri: string }[];
	readonly complete: boolean;
}


/** `find_symbols`: declarations by name, each a link to its lines. */
export const findSymbolsTool = defineTool({
	name: 'find_symbols',
	title: 'Find symbols by name',
	description: 'Finds declarations whose name matches q (prefix or fuzzy), each linked to its lines.',
	input: strictObject({
		q: string().min(1),
		kind: optional(string().describe('Comma-separated kinds, e.g. class,function')),
		max: optional(int().min(1).max(1000)),
	}),
	output: object({
		symbols: array(object({ name: string(), kind: string(), container: optional(string()), path: string(), line: number(), uri: string() })),
		complete: boolean(),
	}),
	offeredBy: offeredFor(SYMBOLS_TEMPLATE.expand({ q: 'probe' })),
	call: async ({ q, kind, max }, registry) => {
		const answer = await readJson<SymbolsAnswer>(registry, fillTemplate('find_symbols', SYMBOLS_TEMPLATE, { q, ...kind !== undefined && { kind }, max: String(max ?? TOOL_SYMBOLS_MAX) }));
		const symbols = answer.symbols.map(s => ({ name: s.name, kind: s.kind, ...s.container !== undefined && { container: s.container }, path: s.path, line: s.line, uri: s.uri }));
		const lines = symbols.map(s => `${s.path}:${s.line}: ${s.kind} ${s.container ? `${s.container}.` : ''}${s.name}`);
		return {
			content: [
				{ type: 'text', text: [`${symbols.length} symbol${symbols.length === 1 ? '' : 's'}.${answer.complete ? '' : ' More match: refine q.'}`, ...lines].join('\n') },
				...symbols.map((s): ResourceLink => ({ type: 'resource_link', uri: s.uri, name: `${s.path}:${s.line}` })),
			],
			structuredContent: { symbols, complete: answer.complete },
		};
	},
});

/** `symbol_relations`: definitions, references, implementations or calls of a symbol, from the editor's language services. */
export const symbolRelationsTool = defineTool({
	name: 'symbol_relations',
	title: 'Relations of a symbol',
	description: 'Where a symbol is defined, used, implemented or called (editor only).',
	input: strictObject({
		relation: oneOf(RELATIONS),
		path: string().min(1).describe('Workspace-relative'),
		at: string().min(1).describe('Class.method, or line:character'),
		max: optional(int().min(1).max(1000)),
	}),
	output: object({
		items: array(object({ path: string(), line: number(), column: number(), text: string(), uri: string() })),
		complete: boolean(),
	}),
	// Only where relation templates are listed: headless, the family answers them with "needs the editor".
	offeredBy: providers => providers.some(p => p.templates().some(t => t.uriTemplate.startsWith('symbols://references/'))),
	call: async ({ relation, path, at, max }, registry) => {
		const position = /^(\d+):(\d+)$/.exec(at);
		const uri = fillTemplate('symbol_relations', RELATION_TEMPLATE, {
			relation, path,
			...position ? { line: position[1], character: position[2] } : { symbol: at },
			max: String(max ?? TOOL_SYMBOLS_MAX),
		});
		const answer = await readJson<RelationsAnswer>(registry, uri);
		const items = answer.items.map(i => ({ path: i.path, line: i.line, column: i.column, text: i.text, uri: i.uri }));
		const lines = items.map(i => `${i.path}:${i.line}:${i.column}: ${i.text}`);
		return {
			content: [
				{ type: 'text', text: [`${items.length} ${relation}.${answer.complete ? '' : ' Cut short: raise max.'}`, ...lines].join('\n') },
				...items.map((i): ResourceLink => ({ type: 'resource_link', uri: i.uri, name: `${i.path}:${i.line}` })),
			],
			structuredContent: { items, complete: answer.complete },
		};
	},
});
