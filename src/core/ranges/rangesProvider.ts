import * as path from 'node:path';
import { Emitter } from '../../common/event';
import { Disposable, DisposableStore, IDisposable } from '../../common/lifecycle';
import { MAX_ANSWER_BYTES, MAX_RANGE_SOURCE_BYTES } from '../answerBudget';
import { formatBytes, InvalidParams, ResourceNotFound, ResourceTooLarge } from '../errors';
import { NO_READ_TAKES_IT } from '../files/fileContents';
import { FILE_TEMPLATE } from '../files/filesProvider';
import { decodeText, isBinaryMime, mimeTypeForName, TEXT_MIME } from '../mime';
import { OutlineSource, OutlineSymbol } from '../outline/ports';
import { DeclarationSource } from '../symbols/ports';
import { signatureView } from '../symbols/signatureView';
import { FileSystemReader, OpenDocuments } from '../ports';
import { Completion, ResourceChange, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from '../resource';
import { fileUriToPath } from '../uriGuard';
import { UrisByFile } from '../urisByFile';
import { ownIfDisposable, WorkspaceScope } from '../workspaceScope';
import { LineRange, MAX_RANGE_BYTES, MAX_RANGE_LINES, parseLineRange, sliceLines, SlicedLines } from './lineRange';

export const LINES_TEMPLATE = 'file:///{+path}{?lines}';
export const SYMBOL_TEMPLATE = 'file:///{+path}{?symbol}';
export const VIEW_TEMPLATE = 'file:///{+path}{?view}';
/** The views of a whole file `?view=` names. */
const VIEWS = ['signatures'] as const;
/** The files provider, as ranges use it: its reads apply the one served-or-not rule. */
export type FileReads = Pick<ResourceProvider, 'read' | 'subscribe' | 'complete' | 'onDidChange'>;

export interface RangesProviderPorts {
	readonly files: FileReads;
	readonly scope: WorkspaceScope;
	readonly reader: FileSystemReader;
	/** The editor's outlines; without them (headless) only `?lines=` is offered. */
	readonly outline?: OutlineSource;
	/** The editor's unsaved text, for files over the read cap (the files provider's reads have it below). */
	readonly documents?: OpenDocuments;
	/** Grammars, for `?view=signatures`; without them that view is not offered. */
	readonly declarations?: DeclarationSource;
}

/** What part or view of a file a query asks for. */
type FileQuery = { readonly lines: LineRange } | { readonly symbol: string } | { readonly view: typeof VIEWS[number] };

/**
 * Part of a file: `file:///abs/path?lines=12-40` (1-based, inclusive), or, in the editor,
 * `file:///abs/path?symbol=Class.method` (a symbol of its outline, by dotted name). The text is
 * the editor's unsaved buffer when the file is dirty, exactly as a read of the whole file. It
 * must sit before the files provider in the registry: it takes the `file:` URIs with a query,
 * which the files provider refuses.
 */
export class RangesProvider extends Disposable implements ResourceProvider {
	readonly id = 'ranges';
	readonly summary: string;
	private readonly changeEmitter = this._register(new Emitter<ResourceChange>());
	readonly onDidChange = this.changeEmitter.event;
	/** Subscribed range URIs by the URI the files provider names their file's changes by, while subscribed. */
	private readonly known = new UrisByFile();

	constructor(private readonly ports: RangesProviderPorts) {
		super();
		const templates = [LINES_TEMPLATE, ...(ports.outline ? [SYMBOL_TEMPLATE] : []), ...(ports.declarations ? [VIEW_TEMPLATE] : [])];
		this.summary = `line ranges${ports.outline ? ', symbols' : ''}${ports.declarations ? ' and signatures (declarations without bodies)' : ''} of files (${templates.join(', ')})`;
		// The grammars (a worker thread) go with the registry: ranges are in every host that has them.
		ownIfDisposable(ports.declarations, d => this._register(d));
		this._register(ports.files.onDidChange(change => {
			const updated = this.known.among(change.updated);
			if (updated.length > 0) {
				this.changeEmitter.fire({ updated, listChanged: false });
			}
		}));
	}

	ready(): Promise<void> {
		return Promise.resolve();
	}

	handles(uri: string): boolean {
		return /^file:[^?#]*\?/i.test(uri);
	}

	list(): readonly ResourceEntry[] {
		return [];
	}

	templates(): readonly TemplateEntry[] {
		const lines: TemplateEntry = {
			uriTemplate: LINES_TEMPLATE, name: 'file lines', title: 'Lines of a file',
			description: 'Lines of a workspace file: lines=12 (one), 12-40, or 12- (to the end); 1-based. The unsaved text when the file is open and dirty.',
		};
		const out = [lines];
		if (this.ports.outline) {
			out.push({
				uriTemplate: SYMBOL_TEMPLATE, name: 'file symbol', title: 'Symbol of a file',
				description: 'The lines of one symbol of a file\'s outline, by dotted name (e.g. Class.method); completion suggests names.',
			});
		}
		if (this.ports.declarations) {
			out.push({
				uriTemplate: VIEW_TEMPLATE, name: 'file signatures', title: 'Signatures of a file',
				description: `view=signatures: a source file's declarations, signatures and the first line of their documentation, function bodies dropped (…); for ${this.ports.declarations.languageNames().join(', ')}.`,
			});
		}
		return out;
	}

	async read(uri: string): Promise<ResourceContent[]> {
		const { base, query } = this.parse(uri);
		const text = await this.text(uri, base);
		if ('view' in query) {
			return [{ uri, mimeType: text.mimeType, text: await this.signatures(base, text.text) }];
		}
		const range = 'lines' in query ? query.lines : await this.symbolLines(uri, base, query.symbol);
		const sliced = sliceLines(text.text, range);
		return [{ uri, mimeType: text.mimeType, text: sliced.cut ? sliced.text + cutMarker(sliced, range) : sliced.text }];
	}

	async subscribe(uri: string): Promise<IDisposable> {
		const { base } = this.parse(uri);
		// The file's subscription, held as long as the range's, makes the files provider name
		// the file's changes by `base` too when it is spelled otherwise than listed (or reached
		// through a linked directory): found under `base`, the range is always told.
		const held = new DisposableStore();
		try {
			held.add(await this.ports.files.subscribe(base));
		} catch (err) {
			// The client's own URI, query included, as a read names it: the base is not what it sent.
			throw err instanceof ResourceNotFound ? new ResourceNotFound(uri) : err;
		}
		held.add(this.known.hold(base, uri));
		return held;
	}

	/** Range URIs held for subscriptions now (tests and diagnostics). */
	get heldRanges(): number {
		return this.known.size;
	}

	async complete(uriTemplate: string, argument: string, value: string, context: Readonly<Record<string, string>>): Promise<Completion | undefined> {
		if (uriTemplate !== LINES_TEMPLATE && uriTemplate !== SYMBOL_TEMPLATE && uriTemplate !== VIEW_TEMPLATE) {
			return undefined;
		}
		if (argument === 'path') {
			return this.ports.files.complete(FILE_TEMPLATE, 'path', value, context);
		}
		if (argument === 'symbol' && uriTemplate === SYMBOL_TEMPLATE && this.ports.outline && context.path) {
			const absPath = `/${context.path.replace(/^\/+/, '')}`;
			if (!(await this.ports.scope.isServed(absPath))) {
				return { values: [] };
			}
			const names = dottedNames(await this.ports.outline.symbols(absPath) ?? []).filter(n => n.toLowerCase().includes(value.toLowerCase()));
			return { values: names.slice(0, 100), total: names.length, hasMore: names.length > 100 };
		}
		if (argument === 'view' && uriTemplate === VIEW_TEMPLATE) {
			return { values: VIEWS.filter(v => v.startsWith(value)) };
		}
		if (argument === 'lines' || argument === 'symbol') {
			return { values: [] };
		}
		return undefined;
	}

	/** The file's URI and what part of it is asked for; a malformed query is an InvalidParams. */
	private parse(uri: string): { base: string; query: FileQuery } {
		const at = uri.indexOf('?');
		const base = uri.slice(0, at);
		if (uri.includes('#')) {
			throw new ResourceNotFound(uri);
		}
		try {
			fileUriToPath(base); // refuses hosts, traversal, bad escapes before anything else
		} catch {
			throw new ResourceNotFound(uri);
		}
		let params: URLSearchParams;
		try {
			params = new URLSearchParams(uri.slice(at + 1));
		} catch {
			throw new InvalidParams('Malformed query');
		}
		const keys = [...params.keys()];
		if (keys.length === 1 && keys[0] === 'lines') {
			return { base, query: { lines: parseLineRange(params.get('lines')!) } };
		}
		if (keys.length === 1 && keys[0] === 'symbol' && this.ports.outline) {
			const symbol = params.get('symbol')!;
			if (symbol === '' || symbol.length > 500) {
				throw new InvalidParams('Invalid symbol name');
			}
			return { base, query: { symbol } };
		}
		if (keys.length === 1 && keys[0] === 'view' && this.ports.declarations) {
			const view = VIEWS.find(v => v === params.get('view'));
			if (!view) {
				throw new InvalidParams(`Unknown view "${params.get('view')!.slice(0, 40)}": the views of a file are ${VIEWS.map(v => `view=${v}`).join(', ')}`);
			}
			return { base, query: { view } };
		}
		const forms = ['?lines=N-M', ...(this.ports.outline ? ['?symbol=NAME'] : []), ...(this.ports.declarations ? ['?view=signatures'] : [])];
		throw new InvalidParams(`A part of a file is ${forms.length > 1 ? `${forms.slice(0, -1).join(', ')} or ${forms[forms.length - 1]} (one of them)` : forms[0]}`);
	}

	/** The signatures view of a file's text, from the grammar of its language; a language without one is an InvalidParams naming it. */
	private async signatures(base: string, text: string): Promise<string> {
		const declarations = this.ports.declarations!;
		const name = path.basename(fileUriToPath(base));
		const language = declarations.languageOf(name);
		if (!language) {
			const ext = path.extname(name);
			const mime = mimeTypeForName(name);
			const what = ext ? `"${ext}" files${mime ? ` (${mime})` : ''}` : `"${name.slice(0, 60)}"`;
			throw new InvalidParams(`No grammar for ${what}: view=signatures reads ${declarations.languageNames().join(', ')}`);
		}
		const view = signatureView(text, await declarations.parse(language, text), language, MAX_RANGE_BYTES);
		if (view.restFromLine === undefined) {
			return view.text;
		}
		return `${view.text}[... the declarations from line ${view.restFromLine.toLocaleString('en-US')} on are cut here: a view returns at most ${formatBytes(MAX_ANSWER_BYTES)}; `
			+ `read lines=${view.restFromLine}- for the rest of the file ...]\n`;
	}

	/** The whole text the range is cut from: the files provider's read, or past its cap our own. */
	private async text(uri: string, base: string): Promise<{ text: string; mimeType: string }> {
		let contents: ResourceContent[];
		try {
			contents = await this.ports.files.read(base);
		} catch (err) {
			if (err instanceof ResourceTooLarge) {
				if (err.size <= MAX_RANGE_SOURCE_BYTES) {
					return this.readLarge(uri, base, err);
				}
				// The client's own URI, as for not-found: the base it was cut from is not what it sent.
				// Raising the setting would not help a range past MAX_RANGE_SOURCE_BYTES: say so.
				throw new ResourceTooLarge(uri, err.size, err.limit, err.setting, NO_READ_TAKES_IT);
			}
			if (err instanceof ResourceNotFound) {
				throw new ResourceNotFound(uri);
			}
			throw err;
		}
		const first = contents[0];
		if (!first || !('text' in first)) {
			throw new InvalidParams('The file is binary: it has no lines');
		}
		return { text: first.text, mimeType: first.mimeType ?? TEXT_MIME };
	}

	/**
	 * A file over the read cap: checked by name with the same rule, opened, and checked again by
	 * what was opened (as the files provider reads), up to MAX_RANGE_SOURCE_BYTES.
	 */
	private async readLarge(uri: string, base: string, overCap: ResourceTooLarge): Promise<{ text: string; mimeType: string }> {
		const absPath = fileUriToPath(base);
		const { scope, reader } = this.ports;
		if (!(await scope.isServed(absPath))) {
			throw new ResourceNotFound(uri);
		}
		const mimeType = mimeTypeForName(path.basename(absPath));
		const dirty = this.ports.documents?.dirtyText(absPath);
		if (dirty !== undefined) {
			const size = Buffer.byteLength(dirty, 'utf8');
			if (size > MAX_RANGE_SOURCE_BYTES) {
				throw new ResourceTooLarge(uri, size, overCap.limit, overCap.setting, NO_READ_TAKES_IT);
			}
			return { text: dirty, mimeType: mimeType ?? TEXT_MIME };
		}
		const result = await reader.readFileUpTo(absPath, MAX_RANGE_SOURCE_BYTES, async real => real === absPath || await scope.isServed(real))
			.catch(() => ({ kind: 'refused' as const }));
		if (result.kind === 'too-large') {
			throw new ResourceTooLarge(uri, result.size, overCap.limit, overCap.setting, NO_READ_TAKES_IT);
		}
		if (result.kind !== 'ok') {
			throw new ResourceNotFound(uri);
		}
		const text = isBinaryMime(mimeType) ? undefined : decodeText(result.bytes);
		if (text === undefined) {
			throw new InvalidParams('The file is binary: it has no lines');
		}
		return { text, mimeType: mimeType ?? TEXT_MIME };
	}

	private async symbolLines(uri: string, base: string, name: string): Promise<LineRange> {
		const symbols = await this.ports.outline!.symbols(fileUriToPath(base));
		if (symbols === undefined) {
			throw new ResourceNotFound(uri); // the client's own URI, query included
		}
		const found = findSymbol(symbols, name);
		if (!found) {
			const known = dottedNames(symbols).slice(0, 20);
			throw new InvalidParams(`No symbol "${name.slice(0, 100)}" in this file${known.length ? `; it has ${known.join(', ')}` : ' (its outline is empty)'}`);
		}
		return { start: found.range.start.line + 1, end: found.range.end.line + 1 };
	}
}

/**
 * The symbol named by a dotted path (`Class.method`); a plain name also finds a nested one. Where
 * siblings share a name (Rust's `struct Counter` and its `impl Counter`), each is tried in turn.
 */
export function findSymbol(symbols: readonly OutlineSymbol[], dotted: string): OutlineSymbol | undefined {
	const parts = dotted.split('.');
	const along = (level: readonly OutlineSymbol[], i: number): OutlineSymbol | undefined => {
		for (const s of level) {
			if (s.name === parts[i]) {
				const found = i === parts.length - 1 ? s : along(s.children, i + 1);
				if (found) {
					return found;
				}
			}
		}
		return undefined;
	};
	const found = along(symbols, 0);
	if (found) {
		return found;
	}
	// A name the path does not reach, e.g. a symbol named "a.b" or a method named alone.
	const queue = [...symbols];
	for (let s = queue.shift(); s; s = queue.shift()) {
		if (s.name === dotted) {
			return s;
		}
		queue.push(...s.children);
	}
	return undefined;
}

/**
 * Every symbol's dotted name, outermost first, each once: siblings that share a name (Rust's
 * `struct Counter` and its `impl Counter`) are one name, which `findSymbol` tries in turn.
 */
export function dottedNames(symbols: readonly OutlineSymbol[], prefix = ''): string[] {
	return [...new Set(symbols.flatMap(s => [`${prefix}${s.name}`, ...dottedNames(s.children, `${prefix}${s.name}.`)]))];
}

/**
 * The line after a range cut at {@link MAX_RANGE_LINES} or at its byte cap, as the
 * terminal marks its cut output: a client sees it got less than it asked for, and which lines to
 * ask for next. A line cut inside (longer alone than a range returns) gets its marker on a line of
 * its own, saying how much of it came.
 */
function cutMarker(sliced: SlicedLines, asked: LineRange): string {
	const next = sliced.end + 1;
	const last = Math.min(asked.end ?? sliced.totalLines, sliced.totalLines);
	const count = (n: number) => n.toLocaleString('en-US');
	const nextRange = next > last ? 'no lines of the range are left' : `read lines=${next}-${asked.end === undefined ? '' : last} next`;
	if (sliced.cut === 'inside a line') {
		return `\n[... line ${count(sliced.end)} cut here after ${count(sliced.text.length)} characters: a range returns at most ${formatBytes(MAX_ANSWER_BYTES)}, `
			+ `and the rest of a longer line cannot be read as text; ${nextRange} ...]\n`;
	}
	const cap = sliced.cut === 'lines' ? count(MAX_RANGE_LINES) : formatBytes(MAX_ANSWER_BYTES);
	return `[... ${count(last - sliced.end)} more line${last - sliced.end === 1 ? '' : 's'} cut here: a range returns at most ${cap}; ${nextRange} ...]\n`;
}
