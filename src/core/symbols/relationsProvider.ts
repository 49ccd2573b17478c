import { Emitter } from '../../common/event';
import { Disposable, IDisposable } from '../../common/lifecycle';
import { TextPosition } from '../diagnostics/ports';
import { InvalidParams, ResourceNotFound } from '../errors';
import { JSON_MIME } from '../mime';
import { OutlineSource } from '../outline/ports';
import { dottedNames, findSymbol } from '../ranges/rangesProvider';
import { Completion, ResourceChange, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from '../resource';
import { fileUri, fileUriToPath } from '../uriGuard';
import { decodePath, ScopedPath, WorkspaceScope } from '../workspaceScope';
import { Answer, LiveAnswers } from './liveAnswers';
import { maxParam, queryParams } from './queryParams';
import { Relation, RelationSource, RELATIONS } from './relationPorts';
import { FileTextReads, sourceText } from './sourceText';

export const DEFAULT_RELATIONS_MAX = 100;
export const MAX_RELATIONS_MAX = 1_000;
const RELATION_URI = new RegExp(`^symbols://(${RELATIONS.join('|')})/`);
const LOOKS_LIKE_RELATION = /^symbols:\/\/(?!workspace(?:[?#/]|$))[^/?#]*/i;
/** Longest line text an item carries. */
const MAX_TEXT = 300;

/** `symbols://references/{+path}{?symbol,line,character,max}` and its five siblings. */
export function relationTemplate(relation: Relation): string {
	return `symbols://${relation}/{+path}{?symbol,line,character,max}`;
}

const DESCRIPTIONS: Record<Relation, string> = {
	'definitions': 'Where the symbol is defined',
	'references': 'Every use of the symbol',
	'implementations': 'What implements the interface, abstract class or method',
	'type-definitions': 'Where the type of the symbol is defined',
	'incoming-calls': 'The functions that call it',
	'outgoing-calls': 'The functions it calls',
};

export interface RelationsProviderPorts {
	/** The language services; headless there are none and every read says the editor is needed. */
	readonly source?: RelationSource;
	readonly scope: WorkspaceScope;
	/** Outlines, to find `symbol=Class.method`. */
	readonly outline?: OutlineSource;
	/** The files provider: each item's line text, and the changes that make answers stale. */
	readonly files: FileTextReads;
	readonly budgetMs?: number;
	readonly throttleMs?: number;
}

interface RelationQuery {
	readonly relation: Relation;
	readonly scoped: ScopedPath;
	readonly symbol?: string;
	readonly position?: TextPosition;
	readonly max: number;
}

/**
 * Definitions, references, implementations, type definitions, incoming and outgoing calls of a
 * symbol, named by a workspace-relative path and either `symbol=Class.method` (found in the file's
 * outline) or `line` and `character` (1-based): `symbols://references/src/a.ts?symbol=greet`. From
 * the editor's language services, on the live text. Items `{path, line, column, text, uri}`, at
 * most `max` (default 100, at most 1,000), only in served files whatever the services return.
 * Subscribed ones are answered again when a file they involve changes, and told only when the
 * answer does.
 */
export class RelationsProvider extends Disposable implements ResourceProvider {
	readonly id = 'relations';
	readonly summary: string;
	private readonly changeEmitter = this._register(new Emitter<ResourceChange>());
	readonly onDidChange = this.changeEmitter.event;
	private readonly live: LiveAnswers;

	constructor(private readonly ports: RelationsProviderPorts) {
		super();
		this.summary = ports.source
			? `symbol relations (${relationTemplate('references').replace('references', '{relation}')}: ${RELATIONS.join(', ')}; from the language services)`
			: 'no symbol relations (definitions, references and calls need the editor\'s language services)';
		this.live = this._register(new LiveAnswers(uri => this.answer(uri), updated => this.changeEmitter.fire({ updated, listChanged: false }), ports.throttleMs ?? 500));
		this._register(ports.files.onDidChange(change => {
			const paths = change.updated.filter(u => /^file:/i.test(u) && !u.includes('?')).map(fileUriToPath);
			if (paths.length > 0) {
				this.live.changed(paths);
			}
		}));
		this._register(ports.scope.onDidChange(() => this.live.changed()));
	}

	ready(): Promise<void> {
		return Promise.resolve();
	}

	handles(uri: string): boolean {
		return LOOKS_LIKE_RELATION.test(uri);
	}

	list(): readonly ResourceEntry[] {
		return [];
	}

	/** Headless none is offered: reading one only says the editor is needed. */
	templates(): readonly TemplateEntry[] {
		if (!this.ports.source) {
			return [];
		}
		return RELATIONS.map(relation => ({
			uriTemplate: relationTemplate(relation), name: `symbol ${relation}`, title: `${DESCRIPTIONS[relation]}`,
			description: `${DESCRIPTIONS[relation]}, from the editor's language services (live text). Name the symbol by symbol=Class.method (its file's outline) or by line and character (1-based); path is workspace-relative; max at most ${MAX_RELATIONS_MAX} (default ${DEFAULT_RELATIONS_MAX}). Items {path, line, column, text, uri}; complete is false when cut.`,
			mimeType: JSON_MIME,
		}));
	}

	async complete(uriTemplate: string, argument: string, value: string, context: Readonly<Record<string, string>>): Promise<Completion | undefined> {
		const relation = RELATIONS.find(r => relationTemplate(r) === uriTemplate);
		if (!relation || !this.ports.source) {
			return undefined;
		}
		if (argument === 'symbol' && this.ports.outline && context.path) {
			const scoped = await this.ports.scope.resolveDisplay(context.path.replace(/^\/+/, ''));
			const names = scoped ? dottedNames(await this.ports.outline.symbols(scoped.absPath) ?? []) : [];
			const matching = names.filter(n => n.toLowerCase().includes(value.toLowerCase()));
			return { values: matching.slice(0, 100), total: matching.length, hasMore: matching.length > 100 };
		}
		return ['path', 'symbol', 'line', 'character', 'max'].includes(argument) ? { values: [] } : undefined;
	}

	async read(uri: string): Promise<ResourceContent[]> {
		return [{ uri, mimeType: JSON_MIME, text: (await this.answer(uri)).text }];
	}

	async subscribe(uri: string): Promise<IDisposable> {
		await this.parse(uri);
		return this.live.hold(uri);
	}

	private async answer(uri: string): Promise<Answer> {
		const query = await this.parse(uri);
		const source = this.ports.source!;
		const deadline = performance.now() + (this.ports.budgetMs ?? 5_000);
		const position = query.position ?? await this.symbolPosition(uri, query);
		const found = await withDeadline(source.related(query.relation, query.scoped.absPath, position), deadline);
		const involved = new Set<string>([query.scoped.absPath]);
		const items: Record<string, unknown>[] = [];
		const texts = new Map<string, Promise<string[] | undefined>>();
		let served = 0;
		// In file and position order: an answer that did not change reads the same, whatever order the services gave it in.
		const ordered = [...(found ?? [])].sort((a, b) => (a.absPath < b.absPath ? -1 : a.absPath > b.absPath ? 1 : 0)
			|| a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
		for (const location of ordered) {
			const scoped = this.ports.scope.locate(location.absPath);
			if (!scoped) {
				continue; // a secret, ignored or outside file a language service named
			}
			if (++served > query.max) {
				continue;
			}
			involved.add(scoped.absPath);
			let lines = texts.get(scoped.absPath);
			if (!lines) {
				lines = sourceText(this.ports.files, scoped.absPath).then(t => (t.kind === 'text' ? t.text.split('\n') : undefined));
				texts.set(scoped.absPath, lines);
			}
			const line = (await lines)?.[location.range.start.line]?.trim().slice(0, MAX_TEXT) ?? '';
			const from = location.range.start.line + 1;
			const to = Math.max(from, location.range.end.line + 1);
			items.push({
				...(location.name !== undefined ? { name: location.name } : {}),
				path: scoped.display, line: from, column: location.range.start.character + 1, text: line,
				uri: `${fileUri(scoped.absPath)}?lines=${from === to ? from : `${from}-${to}`}`,
			});
		}
		const body: Record<string, unknown> = {
			relation: query.relation,
			symbol: { path: query.scoped.display, ...(query.symbol ? { name: query.symbol } : {}), line: position.line + 1, character: position.character + 1 },
			items,
			complete: found !== undefined && served <= query.max,
		};
		if (found === undefined) {
			body.note = 'the language services did not answer in time';
		}
		return { text: JSON.stringify(body, null, 2), involved };
	}

	/** Where `symbol=` names: the start of its name in the file's outline. */
	private async symbolPosition(uri: string, query: RelationQuery): Promise<TextPosition> {
		const symbols = await this.ports.outline?.symbols(query.scoped.absPath);
		if (symbols === undefined) {
			throw new ResourceNotFound(uri);
		}
		const found = findSymbol(symbols, query.symbol!);
		if (!found) {
			const known = dottedNames(symbols).slice(0, 20);
			throw new InvalidParams(`No symbol "${query.symbol!.slice(0, 100)}" in ${query.scoped.display}${known.length ? `; it has ${known.join(', ')}` : ' (its outline is empty)'}`);
		}
		return found.selectionRange.start;
	}

	private async parse(uri: string): Promise<RelationQuery> {
		const match = RELATION_URI.exec(uri);
		if (!match) {
			throw new InvalidParams(`Unknown relation "${(LOOKS_LIKE_RELATION.exec(uri)?.[0] ?? uri).slice(10, 50)}": symbols://{relation}/{path} takes ${RELATIONS.join(', ')}`);
		}
		if (!this.ports.source) {
			throw new InvalidParams(`${DESCRIPTIONS[match[1] as Relation]} needs the editor's language services: this host has none (outlines, symbols://workspace and ?view=signatures work without them)`);
		}
		if (uri.includes('#')) {
			throw new ResourceNotFound(uri);
		}
		const at = uri.indexOf('?');
		const display = decodePath(uri.slice(match[0].length, at < 0 ? undefined : at));
		const scoped = display ? await this.ports.scope.resolveDisplay(display) : undefined;
		if (!scoped) {
			throw new ResourceNotFound(uri);
		}
		const params = queryParams(uri, ['symbol', 'line', 'character', 'max']);
		const max = maxParam(params.get('max'), DEFAULT_RELATIONS_MAX, MAX_RELATIONS_MAX);
		const symbol = params.get('symbol');
		const line = params.get('line');
		const character = params.get('character');
		if (symbol !== undefined && line === undefined && character === undefined) {
			if (symbol === '' || symbol.length > 500) {
				throw new InvalidParams('Invalid symbol name');
			}
			return { relation: match[1] as Relation, scoped, symbol, max };
		}
		if (symbol === undefined && line !== undefined && character !== undefined) {
			return { relation: match[1] as Relation, scoped, position: { line: positive(line, 'line') - 1, character: positive(character, 'character') - 1 }, max };
		}
		throw new InvalidParams('Name the symbol by symbol=NAME (e.g. Class.method) or by line=N&character=M (1-based), one of the two');
	}
}

function positive(value: string, what: string): number {
	const n = /^[0-9]{1,9}$/.test(value) ? Number(value) : 0;
	if (n < 1) {
		throw new InvalidParams(`Invalid ${what} "${value.slice(0, 20)}": a whole number from 1`);
	}
	return n;
}

/** The answer, or undefined once `deadline` (a `performance.now()`) passes. */
async function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<undefined>(resolve => { timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - performance.now())); });
	try {
		return await Promise.race([promise, late]);
	} finally {
		clearTimeout(timer);
	}
}
