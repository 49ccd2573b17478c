import type { Node, Query, Tree } from 'web-tree-sitter';
import { Declaration } from '../../core/symbols/ports';
import { GrammarSpec } from './grammarCatalog';

/** Kinds whose body a signatures view drops, and inside which nothing is a declaration of the file. */
const CALLABLE = new Set(['Function', 'Method', 'Constructor']);
/** Kinds whose functions are methods. */
const HOLDS_METHODS = new Set(['Class', 'Struct', 'Interface', 'Object', 'Enum']);
/**
 * Nodes that only wrap one declaration (`export`, decorators, `template <...>`, the `const` around
 * one declarator): the declaration's text starts where they do.
 */
const WRAPPERS = new Set([
	'export_statement', 'decorated_definition', 'template_declaration', 'lexical_declaration', 'variable_declaration',
	'expression_statement', 'type_declaration', 'const_declaration', 'var_declaration', 'ambient_declaration',
]);
/** Siblings just before a declaration that belong to it (decorators, Rust's attributes). */
const LEADING = new Set(['decorator', 'attribute_item']);
/** Languages whose `constructor` method is the constructor. */
const JAVASCRIPT_FAMILY = new Set(['typescript', 'tsx', 'javascript']);
/** Longest first line of documentation kept. */
const MAX_DOC_LINE = 200;

interface Found {
	readonly def: Node;
	readonly name: Node;
	readonly body: Node | undefined;
	readonly kind: string;
	readonly pattern: number;
}

interface Placed {
	readonly found: Found;
	readonly start: number;
	readonly startRow: number;
	readonly startColumn: number;
	readonly end: number;
	readonly endPoint: { row: number; column: number };
	readonly children: Placed[];
}

/**
 * The declarations of a parsed file: the query's matches, each widened to what wraps it, nested by
 * where they lie (what lies in a function's body is the function's own business and is left out),
 * with the first line of the documentation just above each (or a Python docstring).
 */
export function declarationsOf(tree: Tree, text: string, spec: GrammarSpec, query: Query, comments: Query): Declaration[] {
	const root = tree.rootNode;
	const placed = nest(widen(matchesOf(root, query), text));
	const commentNodes = comments.captures(root).map(c => c.node);
	const out: Declaration[] = [];
	const convert = (p: Placed, parentKind: string | undefined): Declaration => {
		const { found } = p;
		const kind = found.kind === 'Function' && parentKind !== undefined && HOLDS_METHODS.has(parentKind) ? 'Method'
			: found.kind === 'Method' && found.name.text === 'constructor' && JAVASCRIPT_FAMILY.has(spec.id) ? 'Constructor'
			: found.kind;
		const body = found.body && CALLABLE.has(kind) ? { start: found.body.startIndex, end: found.body.endIndex, braced: text[found.body.startIndex] === '{' } : undefined;
		const doc = (spec.docstrings ? docstringOf(found, text, kind) : undefined) ?? commentAbove(p.start, commentNodes, text);
		return {
			name: found.name.text.slice(0, 500),
			kind,
			start: p.start,
			end: p.end,
			range: { start: { line: p.startRow, character: p.startColumn }, end: point(p.endPoint) },
			selectionRange: { start: point(found.name.startPosition), end: point(found.name.endPosition) },
			...(body ? { body } : {}),
			...(doc ? { doc } : {}),
			children: p.children.map(c => convert(c, kind)),
		};
	};
	for (const p of placed) {
		out.push(convert(p, undefined));
	}
	return out;
}

/** One entry per declaration node, from the earliest pattern that matched it. */
function matchesOf(root: Node, query: Query): Found[] {
	const byNode = new Map<number, Found>();
	for (const match of query.matches(root)) {
		const def = match.captures.find(c => c.name.startsWith('def.'));
		const name = match.captures.find(c => c.name === 'name');
		if (!def || !name) {
			continue;
		}
		const known = byNode.get(def.node.id);
		if (!known || match.patternIndex < known.pattern) {
			const body = match.captures.find(c => c.name === 'body')?.node;
			byNode.set(def.node.id, { def: def.node, name: name.node, body, kind: def.name.slice(4), pattern: match.patternIndex });
		}
	}
	return [...byNode.values()];
}

/** Each declaration with the text that wraps it alone (`export`, decorators). */
function widen(found: Found[], text: string): Placed[] {
	return found.map(f => {
		let outer = f.def;
		while (outer.parent && WRAPPERS.has(outer.parent.type) && onlyOfItsType(outer.parent, outer)) {
			outer = outer.parent;
		}
		let first = outer;
		for (let s = outer.previousNamedSibling; s && LEADING.has(s.type); s = s.previousNamedSibling) {
			first = s;
		}
		const { end, endPoint } = trimmedEnd(text, outer);
		return {
			found: f, start: first.startIndex, startRow: first.startPosition.row, startColumn: first.startPosition.column,
			end, endPoint, children: [],
		};
	});
}

/** Where a node ends, without the line end some grammars count in (`#define`). */
function trimmedEnd(text: string, node: Node): { end: number; endPoint: { row: number; column: number } } {
	let end = node.endIndex;
	let row = node.endPosition.row;
	while (end > node.startIndex && /\s/.test(text[end - 1])) {
		if (text[--end] === '\n') {
			row--;
		}
	}
	return row === node.endPosition.row ? { end, endPoint: node.endPosition } : { end, endPoint: { row, column: end - (text.lastIndexOf('\n', end - 1) + 1) } };
}

function onlyOfItsType(parent: Node, child: Node): boolean {
	let count = 0;
	for (const c of parent.namedChildren) {
		if (c && c.type === child.type && ++count > 1) {
			return false;
		}
	}
	return true;
}

/** Nests declarations by where they lie; those inside a function's body are dropped. */
function nest(all: Placed[]): Placed[] {
	all.sort((a, b) => a.start - b.start || b.end - a.end);
	const top: Placed[] = [];
	const stack: Placed[] = [];
	for (const p of all) {
		while (stack.length > 0 && stack[stack.length - 1].end <= p.start) {
			stack.pop();
		}
		const parent = stack[stack.length - 1];
		if (parent && p.end > parent.end) {
			continue; // overlaps without nesting: a grammar's error recovery
		}
		const body = parent?.found.body;
		if (parent && body && CALLABLE.has(parent.found.kind) && p.start >= body.startIndex) {
			continue;
		}
		(parent ? parent.children : top).push(p);
		stack.push(p);
	}
	return top;
}

/** The comments just above `start` (only blanks between, no empty line), each on a line of its own. */
function commentAbove(start: number, comments: readonly Node[], text: string): Declaration['doc'] {
	let i = lastEndingBy(comments, start);
	if (i < 0 || !onlyBlanks(text, comments[i].endIndex, start) || !startsLine(text, comments[i].startIndex)) {
		return undefined;
	}
	while (i > 0 && comments[i - 1].endIndex <= comments[i].startIndex && onlyBlanks(text, comments[i - 1].endIndex, comments[i].startIndex) && startsLine(text, comments[i - 1].startIndex)) {
		i--;
	}
	const from = comments[i].startIndex;
	const firstLine = firstDocLine(text.slice(from, start));
	return firstLine ? { firstLine, start: from, end: start } : undefined;
}

/** Python: a string as the body's first statement. Inside a function it goes with the body; a class keeps its place. */
function docstringOf(found: Found, text: string, kind: string): Declaration['doc'] {
	const body = found.body ?? found.def.childForFieldName('body');
	const statement = body?.firstNamedChild;
	const string = statement?.type === 'expression_statement' ? statement.firstNamedChild : undefined;
	if (!statement || string?.type !== 'string') {
		return undefined;
	}
	const firstLine = firstDocLine(string.text);
	if (!firstLine) {
		return undefined;
	}
	if (CALLABLE.has(kind)) {
		return { firstLine, start: found.def.startIndex, end: found.def.startIndex };
	}
	const lineStart = text.lastIndexOf('\n', statement.startIndex - 1) + 1;
	const lineEnd = text.indexOf('\n', statement.endIndex);
	return { firstLine, start: lineStart, end: lineEnd < 0 ? statement.endIndex : lineEnd + 1 };
}

/** The index of the last comment ending at or before `offset`, or -1. */
function lastEndingBy(comments: readonly Node[], offset: number): number {
	let lo = 0;
	let hi = comments.length - 1;
	let found = -1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		if (comments[mid].endIndex <= offset) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

function onlyBlanks(text: string, from: number, to: number): boolean {
	const gap = text.slice(from, to);
	return /^[ \t\r]*\n?[ \t\r]*$/.test(gap);
}

function startsLine(text: string, offset: number): boolean {
	const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
	return /^[ \t]*$/.test(text.slice(lineStart, offset));
}

/** The first line of a comment or docstring that says something, its markers, tags and blanks taken off (a rule of slashes says nothing). */
export function firstDocLine(comment: string): string | undefined {
	for (const raw of comment.split('\n')) {
		const line = raw.trim()
			.replace(/^(\/\*+!?|\/\/[/!]?|#+|\*+|[rRbBuU]?("""|'''|"|'))/, '')
			.replace(/(\*+\/|"""|'''|"|')$/, '')
			.replace(/<\/?[A-Za-z][^>]*>/g, '')
			.trim();
		if (/[\p{L}\p{N}]/u.test(line)) {
			return line.length > MAX_DOC_LINE ? `${line.slice(0, MAX_DOC_LINE)}…` : line;
		}
	}
	return undefined;
}

function point(p: { row: number; column: number }): { line: number; character: number } {
	return { line: p.row, character: p.column };
}
