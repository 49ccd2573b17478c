import { Emitter, Event } from '../../common/event';
import { Disposable, DisposableStore, IDisposable } from '../../common/lifecycle';
import { formatBytes, ResourceNotFound } from '../errors';
import { JSON_MIME } from '../mime';
import { Completion, ResourceChange, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from '../resource';
import { fileUriToPath } from '../uriGuard';
import { IndexBuildProgress } from './indexBuildProgress';
import { LiveSearches } from './liveSearches';
import { filesAnswer, textAnswer } from './searchAnswers';
import { SearchFeed, SearchFeedPorts } from './searchFeed';
import { isSearchUri, parseSearchUri, SEARCH_FILES_TEMPLATE, SEARCH_TEXT_TEMPLATE } from './searchQuery';

/** The relevance ranking, as far as search uses it: the ranked files' URIs, first to last. */
export interface RankedFiles {
	rankedUris(): readonly string[];
	/** Resolves once the ranking holds what it waits for at first (git's first read); absent: ready now. */
	whenRanked?(): Promise<void>;
}

/** What the feed needs (the files provider's list and changes are what may be searched: the one rule), and the ranking. */
export interface SearchProviderPorts extends SearchFeedPorts {
	/** Files searched first, in this order; without it, every file by path. */
	readonly ranking?: RankedFiles;
}

export interface SearchOptions {
	/** How long one text search may run before it answers with what it found. */
	readonly budgetMs: number;
	/** Shortest gap between two runs of the live searches (and so between two notifications of one). */
	readonly liveIntervalMs: number;
}

export const defaultSearchOptions: SearchOptions = { budgetMs: 5000, liveIntervalMs: 500 };

const FLAG_VALUES = ['true', 'false'];

/**
 * Text and path search of the workspace as two resource templates, answered from an index of
 * the served files' text (SearchBackend) that the files provider's list and changes keep
 * current (SearchFeed). Nothing is listed; a search URI is read, or subscribed to hear when its
 * answer changes (LiveSearches).
 */
export class SearchProvider extends Disposable implements ResourceProvider {
	readonly id = 'search';
	readonly summary = `search (${SEARCH_TEXT_TEMPLATE}: the lines of the workspace's files that hold q, unsaved text included; ${SEARCH_FILES_TEMPLATE}: paths by fuzzy match; subscribe to hear when an answer changes)`;
	private readonly changeEmitter = this._register(new Emitter<ResourceChange>());
	readonly onDidChange = this.changeEmitter.event;
	private readonly feed: SearchFeed;
	private readonly live: LiveSearches;
	/** How far the index is while it reads files (the editor's status bar shows it). */
	readonly buildProgress: IndexBuildProgress;

	constructor(private readonly ports: SearchProviderPorts, private readonly options: SearchOptions = defaultSearchOptions) {
		super();
		this._register(ports.backend);
		this.feed = this._register(new SearchFeed(ports));
		this.live = this._register(new LiveSearches(options.liveIntervalMs, uri => this.answer(uri), updated => this.changeEmitter.fire({ updated, listChanged: false })));
		this._register(this.feed.onDidUpdate(() => this.live.trigger()));
		this.buildProgress = this._register(new IndexBuildProgress(ports.backend, this.feed.onDidUpdate));
		if (ports.backend.onDidIndex) {
			this._register(ports.backend.onDidIndex(r => ports.log.info(`search index: ${r.indexed} files, ${formatBytes(r.textBytes)} of text in ${formatBytes(r.indexBytes)} of index, in ${Math.round(r.ms)} ms${r.reused ? ` (${r.reused} from the cache)` : ''}`)));
		}
		// The backend is told what is coming while the files are walked (it reads its cache
		// meanwhile), and is fed in the background once the files index is built, never starting
		// it (a search does).
		void ports.files.whenBuilding?.().then(() => this.isDisposed ? undefined : this.feed.prepare());
		void ports.files.whenBuilt?.().then(() => this.isDisposed ? undefined : this.feed.ready());
	}

	/** Nothing is listed: a list page never waits for the index. */
	ready(): Promise<void> {
		return Promise.resolve();
	}

	list(): readonly ResourceEntry[] {
		return [];
	}

	handles(uri: string): boolean {
		return isSearchUri(uri);
	}

	templates(): readonly TemplateEntry[] {
		return [
			{
				uriTemplate: SEARCH_TEXT_TEMPLATE,
				name: 'search text',
				title: 'Search text',
				description: 'The lines of workspace files that contain q (the unsaved text of open files included), as JSON: files with matches (line, column, text, a URI of the line). '
					+ 'regex=true for an RE2 regular expression; case=true to match case; word=true for whole words; glob limits paths (comma-separated, ** allowed); max matches, default 200, at most 5,000. '
					+ 'Relevant files first, then by path; complete is false (with a reason) when max or the time budget stopped it. Subscribe to hear when the answer changes.',
				mimeType: JSON_MIME,
			},
			{
				uriTemplate: SEARCH_FILES_TEMPLATE,
				name: 'search files',
				title: 'Search file paths',
				description: 'Workspace files whose path holds the characters of q in order, as Quick Open matches them (runs and word starts score higher), best first, as JSON with a score; max, default 50.',
				mimeType: JSON_MIME,
			},
		];
	}

	async read(uri: string): Promise<ResourceContent[]> {
		return [{ uri, mimeType: JSON_MIME, text: await this.answer(uri) }];
	}

	async subscribe(uri: string): Promise<IDisposable> {
		// Answered now: an invalid search is refused, and what the client may know is known.
		const answer = await this.answer(uri);
		const held = new DisposableStore();
		held.add(this.live.hold(uri, answer));
		return held;
	}

	/** Searches held live now (tests and diagnostics). */
	get liveCount(): number {
		return this.live.size;
	}

	/** The live searches were all answered again after a change (tests). */
	get onDidRunLive(): Event<void> {
		return this.live.onDidRun;
	}

	async complete(uriTemplate: string, argument: string): Promise<Completion | undefined> {
		if (uriTemplate === SEARCH_TEXT_TEMPLATE && ['regex', 'case', 'word'].includes(argument)) {
			return { values: FLAG_VALUES };
		}
		if ((uriTemplate === SEARCH_TEXT_TEMPLATE && ['q', 'glob', 'max'].includes(argument)) || (uriTemplate === SEARCH_FILES_TEMPLATE && ['q', 'max'].includes(argument))) {
			return { values: [] };
		}
		return undefined;
	}

	/** The answer to a search URI now, as its JSON text. */
	private async answer(uri: string): Promise<string> {
		if (!isSearchUri(uri)) {
			throw new ResourceNotFound(uri);
		}
		const query = parseSearchUri(uri);
		// The ranking too: a first search answered before git was read came in path order, and
		// `max` then cut other files than the same search a moment later.
		await Promise.all([this.feed.ready(), this.ports.ranking?.whenRanked?.()]);
		const { backend, files } = this.ports;
		const ranked = this.rankedPaths();
		const served = (absPath: string) => files.isServedNow(absPath);
		if (query.kind === 'files') {
			return filesAnswer(query, await backend.files(query, ranked), served);
		}
		return textAnswer(query, await backend.text(query, ranked, this.options.budgetMs), this.options.budgetMs, served);
	}

	private rankedPaths(): string[] {
		const paths: string[] = [];
		for (const uri of this.ports.ranking?.rankedUris() ?? []) {
			try {
				paths.push(fileUriToPath(uri));
			} catch {
				// Not a file URI: nothing to search first.
			}
		}
		return paths;
	}
}
