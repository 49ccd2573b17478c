import { Emitter } from '../../common/event';
import { Disposable, IDisposable, nothingToDispose } from '../../common/lifecycle';
import { cappedCompletion } from '../completions';
import { ResourceNotFound } from '../errors';
import { JSON_MIME } from '../mime';
import { Completion, ResourceChange, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from '../resource';
import { WorkspaceFoldersSource } from '../ports';
import { Throttle } from '../throttle';
import { fileUri } from '../uriGuard';
import { UrisByFile } from '../urisByFile';
import { decodePath, encodePath, ownIfDisposable, ScopedPath, WorkspaceScope } from '../workspaceScope';
import { OutlineSource, OutlineSymbol } from './ports';

export const OUTLINE_PREFIX = 'outline://file/';
export const OUTLINE_TEMPLATE = 'outline://file/{+path}';
/** Most symbols one outline returns (a generated file can have tens of thousands). */
export const MAX_OUTLINE_SYMBOLS = 5_000;

/** What the files provider offers for path completion (the outline template completes the same paths). */
export interface PathCompleter {
	complete(uriTemplate: string, argument: string, value: string, context: Readonly<Record<string, string>>): Promise<Completion | undefined>;
}

export interface OutlineProviderOptions {
	/** Shortest gap between two notifications while a file is being edited. */
	readonly throttleMs: number;
}

/**
 * Each file's outline (functions, classes, methods... with their ranges) from the editor's
 * document symbol providers, as `outline://file/<path>` (a template; completion offers the
 * files open in the editor first). Every symbol carries the URI that reads
 * just its lines (`file:///...?lines=N-M`).
 */
export class OutlineProvider extends Disposable implements ResourceProvider {
	readonly id = 'outline';
	readonly summary = `outlines (${OUTLINE_TEMPLATE}: symbols with ranges)`;
	private readonly changeEmitter = this._register(new Emitter<ResourceChange>());
	readonly onDidChange = this.changeEmitter.event;
	private readonly changed = new Set<string>();
	private readonly notify: Throttle;
	/** Other spellings clients subscribed to outlines by (`@` as the template expands it, `%c3%a9`), by own URI, while subscribed. */
	private readonly spellings = new UrisByFile();

	constructor(
		private readonly source: OutlineSource,
		private readonly scope: WorkspaceScope,
		private readonly folders: WorkspaceFoldersSource,
		private readonly paths: PathCompleter,
		private readonly filesTemplate: string,
		options: OutlineProviderOptions = { throttleMs: 300 },
	) {
		super();
		ownIfDisposable(source, d => this._register(d));
		this.notify = this._register(new Throttle(options.throttleMs, () => {
			const updated = this.spellings.withHeld([...this.changed]);
			this.changed.clear();
			this.changeEmitter.fire({ updated, listChanged: false });
		}));
		this._register(source.onDidChangeFile(absPath => {
			const scoped = this.scope.locate(absPath);
			if (scoped) {
				this.changed.add(outlineUri(scoped));
				this.notify.trigger();
			}
		}));

	}

	ready(): Promise<void> {
		return this.scope.ready();
	}

	handles(uri: string): boolean {
		return /^outline:/i.test(uri);
	}

	/**
	 * Nothing is listed: VS Code opens documents for many reasons (hovers, diffs, searches), and a
	 * list that changed with each would send every client list_changed. The template names any file.
	 */
	list(): readonly ResourceEntry[] {
		return [];
	}

	/** Outline URIs of the files open in the editor, served ones only: completion offers them first. */
	private openOutlines(): string[] {
		const out: string[] = [];
		for (const absPath of this.source.openFiles()) {
			const scoped = this.scope.locate(absPath);
			if (scoped) {
				out.push(scoped.display);
			}
		}
		return out;
	}

	templates(): readonly TemplateEntry[] {
		return [{
			uriTemplate: OUTLINE_TEMPLATE, name: 'outline', title: 'File outline',
			description: 'The symbols of a workspace file (workspace-relative path) with their ranges; completion suggests paths.',
			mimeType: JSON_MIME,
		}];
	}

	async read(uri: string): Promise<ResourceContent[]> {
		const scoped = await this.resolve(uri);
		const symbols = await this.source.symbols(scoped.absPath);
		if (symbols === undefined) {
			throw new ResourceNotFound(uri); // a typo'd or deleted path is not found, not a failure
		}
		const budget = { left: MAX_OUTLINE_SYMBOLS };
		const shown = symbols.map(s => toJson(s, fileUri(scoped.absPath), budget)).filter(s => s !== undefined);
		const body: Record<string, unknown> = { file: scoped.display, uri: fileUri(scoped.absPath), symbols: shown };
		if (budget.left < 0) {
			body.truncated = `only the first ${MAX_OUTLINE_SYMBOLS} symbols are shown`;
		}
		if (symbols.length === 0) {
			body.note = 'No symbols: no outline provider knows this file\'s language, it is binary or over the read cap (?lines= and ?view=signatures read a text file up to 16 MB), or it has none yet.';
		}
		return [{ uri, mimeType: JSON_MIME, text: JSON.stringify(body, null, 2) }];
	}

	async subscribe(uri: string): Promise<IDisposable> {
		const scoped = await this.resolve(uri);
		// A file that may appear can be watched, but a directory (or a link to one) never has an
		// outline: refused as a file subscription to it is, and as its read is.
		if (!(await this.scope.isFileOrGone(scoped.absPath))) {
			throw new ResourceNotFound(uri);
		}
		const own = outlineUri(scoped);
		return own === uri ? nothingToDispose : this.spellings.hold(own, uri);
	}

	async complete(uriTemplate: string, argument: string, value: string): Promise<Completion | undefined> {
		if (uriTemplate !== OUTLINE_TEMPLATE || argument !== 'path') {
			return undefined;
		}
		// The files template completes absolute paths; the outline names workspace-relative ones.
		// Open files first: they are what a client most likely wants an outline of.
		const open = this.openOutlines().filter(p => p.startsWith(value));
		const relative: string[] = [];
		let hasMore = false;
		const folders = this.folders.folders();
		for (const folder of folders) {
			const prefix = folders.length > 1 ? (value.startsWith(`${folder.name}/`) ? value.slice(folder.name.length + 1) : undefined) : value;
			if (prefix === undefined) {
				continue;
			}
			const found = await this.paths.complete(this.filesTemplate, 'path', `${folder.path}/${prefix}`.replace(/^\/+/, ''), {});
			hasMore ||= found?.hasMore ?? false;
			for (const abs of found?.values ?? []) {
				const scoped = this.scope.locate(`/${abs}`);
				if (scoped) {
					relative.push(scoped.display);
				}
			}
		}
		if (folders.length > 1 && !value.includes('/')) {
			relative.push(...folders.map(f => `${f.name}/`).filter(n => n.startsWith(value)));
		}
		const values = [...new Set([...open, ...relative])];
		return cappedCompletion(values, hasMore);
	}

	private async resolve(uri: string): Promise<ScopedPath> {
		// A query or a fragment is not part of the path (a name's own `?` and `#` come encoded).
		if (!uri.startsWith(OUTLINE_PREFIX) || /[?#]/.test(uri)) {
			throw new ResourceNotFound(uri);
		}
		const display = decodePath(uri.slice(OUTLINE_PREFIX.length));
		const scoped = display ? await this.scope.resolveDisplay(display) : undefined;
		if (!scoped) {
			throw new ResourceNotFound(uri);
		}
		return scoped;
	}
}

export function outlineUri(scoped: ScopedPath): string {
	return OUTLINE_PREFIX + encodePath(scoped.display);
}

/** A symbol with its 1-based line span and the URI that reads it; undefined past the budget. */
function toJson(symbol: OutlineSymbol, file: string, budget: { left: number }): Record<string, unknown> | undefined {
	if (--budget.left < 0) {
		return undefined;
	}
	const lines = `${symbol.range.start.line + 1}-${symbol.range.end.line + 1}`;
	const children = symbol.children.map(c => toJson(c, file, budget)).filter(c => c !== undefined);
	return {
		name: symbol.name,
		kind: symbol.kind,
		...(symbol.detail ? { detail: symbol.detail } : {}),
		range: symbol.range,
		selectionRange: symbol.selectionRange,
		lines,
		uri: `${file}?lines=${lines}`,
		...(children.length > 0 ? { children } : {}),
	};
}
