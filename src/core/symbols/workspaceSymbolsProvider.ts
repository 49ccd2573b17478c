import { Emitter } from '../../common/event';
import { Disposable, IDisposable } from '../../common/lifecycle';
import { InvalidParams, ResourceNotFound } from '../errors';
import { JSON_MIME } from '../mime';
import { Completion, ResourceChange, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from '../resource';
import { fileUri } from '../uriGuard';
import { ownIfDisposable, WorkspaceScope } from '../workspaceScope';
import { LiveAnswers } from './liveAnswers';
import { matchName } from './nameMatch';
import { WorkspaceSymbol, WorkspaceSymbolSource } from './ports';
import { maxParam, queryParams } from './queryParams';
import { parseKinds, SYMBOL_KINDS } from './symbolKinds';

export const SYMBOLS_TEMPLATE = 'symbols://workspace{?q,kind,max}';
const SYMBOLS_URI = /^symbols:\/\/workspace(?:\?|$)/i;
export const DEFAULT_SYMBOLS_MAX = 100;
export const MAX_SYMBOLS_MAX = 1_000;
/** Longest query: names are rarely longer, and a long query costs every name a compare. */
const MAX_QUERY = 200;

export interface WorkspaceSymbolsOptions {
	/** How long a search may take before it answers what it has (`complete: false`). */
	readonly budgetMs: number;
	/** Shortest gap between two reruns of the subscribed searches. */
	readonly throttleMs: number;
}

interface SymbolQuery {
	readonly query: string;
	readonly kinds?: ReadonlySet<string>;
	readonly max: number;
}

/**
 * `symbols://workspace?q=NAME&kind=class,function&max=N`: symbols of the whole workspace by name,
 * case-insensitive, exact matches first, then prefixes, substrings and the query's characters in
 * order. From the editor's workspace symbol providers, or headless from the grammars' index. Every
 * symbol passes the served-or-not rule, whatever a language server returns; each carries the URI
 * that reads its lines. Subscribed searches are asked again when the source changes and told
 * only when their answer does.
 */
export class WorkspaceSymbolsProvider extends Disposable implements ResourceProvider {
	readonly id = 'symbols';
	readonly summary = `symbol search (${SYMBOLS_TEMPLATE}: declarations by name, with the URI of their lines)`;
	private readonly changeEmitter = this._register(new Emitter<ResourceChange>());
	readonly onDidChange = this.changeEmitter.event;
	private readonly live: LiveAnswers;

	constructor(
		private readonly source: WorkspaceSymbolSource,
		private readonly scope: WorkspaceScope,
		private readonly options: WorkspaceSymbolsOptions = { budgetMs: 3_000, throttleMs: 500 },
	) {
		super();
		ownIfDisposable(source, d => this._register(d));
		this.live = this._register(new LiveAnswers(async uri => ({ text: await this.answer(uri) }), updated => this.changeEmitter.fire({ updated, listChanged: false }), options.throttleMs));
		this._register(source.onDidChange(() => this.live.changed()));
		this._register(scope.onDidChange(() => this.live.changed()));
	}

	ready(): Promise<void> {
		return Promise.resolve();
	}

	handles(uri: string): boolean {
		return SYMBOLS_URI.test(uri);
	}

	/** Searches are named by the template, never listed. */
	list(): readonly ResourceEntry[] {
		return [];
	}

	templates(): readonly TemplateEntry[] {
		return [{
			uriTemplate: SYMBOLS_TEMPLATE, name: 'symbols', title: 'Workspace symbols',
			description: `Declarations by name, any case: exact, prefix, substring, then the letters in order (q=getnm finds getName). kind=class,function narrows by kind; max is at most ${MAX_SYMBOLS_MAX} (default ${DEFAULT_SYMBOLS_MAX}). Each symbol's uri reads its lines; complete is false when more matched or time ran out.`,
			mimeType: JSON_MIME,
		}];
	}

	async complete(uriTemplate: string, argument: string, value: string): Promise<Completion | undefined> {
		if (uriTemplate !== SYMBOLS_TEMPLATE) {
			return undefined;
		}
		if (argument === 'kind') {
			// The last of a comma-separated list is the one being typed.
			const head = value.slice(0, value.lastIndexOf(',') + 1);
			const typed = value.slice(head.length).toLowerCase();
			return { values: SYMBOL_KINDS.filter(k => k.toLowerCase().startsWith(typed)).map(k => head + k) };
		}
		return argument === 'q' || argument === 'max' ? { values: [] } : undefined;
	}

	async read(uri: string): Promise<ResourceContent[]> {
		return [{ uri, mimeType: JSON_MIME, text: await this.answer(uri) }];
	}

	async subscribe(uri: string): Promise<IDisposable> {
		this.parse(uri);
		return this.live.hold(uri);
	}

	/** Held searches now (tests). */
	get liveSearches(): number {
		return this.live.size;
	}

	private async answer(uri: string): Promise<string> {
		const request = this.parse(uri);
		const deadline = performance.now() + this.options.budgetMs;
		await this.scope.ready();
		const result = await this.source.search({ ...request, deadline });
		const served: { symbol: WorkspaceSymbol; display: string; rank: number }[] = [];
		for (const symbol of result.symbols) {
			if (request.kinds && !request.kinds.has(symbol.kind)) {
				continue;
			}
			const scoped = this.scope.locate(symbol.absPath);
			if (!scoped) {
				continue; // a language server's answer from a secret, ignored or outside file
			}
			// A source's own matches the name rules miss (a language server's) rank after the rest.
			served.push({ symbol: { ...symbol, absPath: scoped.absPath }, display: scoped.display, rank: matchName(symbol.name, request.query) ?? 4 });
		}
		served.sort((a, b) => a.rank - b.rank || a.symbol.name.length - b.symbol.name.length
			|| (a.display < b.display ? -1 : a.display > b.display ? 1 : 0) || a.symbol.range.start.line - b.symbol.range.start.line);
		const shown = served.slice(0, request.max);
		const body: Record<string, unknown> = {
			symbols: shown.map(({ symbol, display }) => {
				const [from, to] = [symbol.range.start.line + 1, Math.max(symbol.range.start.line, symbol.range.end.line) + 1];
				const lines = from === to ? `${from}` : `${from}-${to}`;
				return {
					name: symbol.name, kind: symbol.kind, ...(symbol.container ? { container: symbol.container } : {}),
					path: display, line: symbol.range.start.line + 1, uri: `${fileUri(symbol.absPath)}?lines=${lines}`,
				};
			}),
			complete: result.complete && served.length <= request.max,
		};
		if (result.note) {
			body.note = result.note;
		}
		return JSON.stringify(body, null, 2);
	}

	private parse(uri: string): SymbolQuery {
		if (!SYMBOLS_URI.test(uri) || uri.includes('#')) {
			throw new ResourceNotFound(uri);
		}
		const params = queryParams(uri, ['q', 'kind', 'max']);
		const q = params.get('q')?.trim() ?? '';
		if (q === '') {
			throw new InvalidParams('A symbol search needs q: the name, or part of it, to look for (e.g. symbols://workspace?q=parse)');
		}
		if (q.length > MAX_QUERY || [...q].some(ch => ch.charCodeAt(0) < 0x20)) {
			throw new InvalidParams(`Invalid q: at most ${MAX_QUERY} characters, no control characters`);
		}
		const kind = params.get('kind');
		return {
			query: q.toLowerCase(),
			...(kind !== undefined ? { kinds: parseKinds(kind) } : {}),
			max: maxParam(params.get('max'), DEFAULT_SYMBOLS_MAX, MAX_SYMBOLS_MAX),
		};
	}
}
