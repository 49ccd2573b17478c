import { Disposable, IDisposable, nothingToDispose } from '../common/lifecycle';
import { ChangeTracker, ChangeTrackerOptions, defaultChangeTrackerOptions } from './changeTracker';
import { entriesUnder } from './entriesUnder';
import { InvalidParams, ResourceNotFound } from './errors';
import { Page, PageBuilder, pageStart } from './pager';
import { ListRead, PreparedPage, PreparedPages } from './preparedPages';
import { Completion, isAnnotator, ResourceAnnotator, ResourceContent, ResourceEntry, ResourceProvider, TemplateEntry } from './resource';

export const DEFAULT_PAGE_SIZE = 1000;
/** Next pages kept ready at once: one per client walking a listing, for a few at a time. */
const MAX_PREPARED_PAGES = 4;
const NO_ENTRIES: readonly ResourceEntry[] = [];

/**
 * All resource providers behind one surface: paging across them in a fixed order, routing
 * reads by URI, and one coalesced change stream for every session.
 */
export class ProviderRegistry extends Disposable {
	private readonly tracker: ChangeTracker;
	/** Flushed, coalesced changes of every provider. */
	readonly onDidChange;
	private setVersion = 0;
	private readonly annotators: readonly ResourceAnnotator[];
	private readonly prepared = new PreparedPages(MAX_PREPARED_PAGES);

	constructor(
		readonly providers: readonly ResourceProvider[],
		trackerOptions: ChangeTrackerOptions = defaultChangeTrackerOptions,
	) {
		super();
		this.tracker = this._register(new ChangeTracker(trackerOptions));
		this.onDidChange = this.tracker.onDidFlush;
		this.annotators = providers.filter(isAnnotator);
		this._register({ dispose: () => this.prepared.clear() });
		for (const provider of providers) {
			this._register(provider);
			this._register(provider.onDidChange(change => {
				if (change.listChanged) {
					this.setVersion++;
				}
				this.tracker.push(change, provider.id);
			}));
		}
	}

	/**
	 * Counts changes to the set of listed resources, as providers report them (before the
	 * tracker coalesces them): a session whose first listing already showed the current version
	 * has nothing to announce when the coalesced list_changed arrives.
	 */
	get listVersion(): number {
		return this.setVersion;
	}

	/**
	 * One page, waiting only for the providers the page reaches (and no longer than a
	 * provider's `readyWaitMs`). Sections come in provider order: the hosts put the few
	 * non-file resources first, so a client that reads one page still learns they exist.
	 */
	async list(cursor: string | undefined, pageSize = DEFAULT_PAGE_SIZE): Promise<Page> {
		if (cursor === undefined) {
			return (await this.build(cursor, pageSize)).page;
		}
		// A client that follows a cursor walks the listing: its next page is prepared for it.
		const page = this.prepared.take(cursor, pageSize, p => this.isCurrent(p)) ?? (await this.build(cursor, pageSize)).page;
		if (page.nextCursor !== undefined) {
			this.prepareLater(page.nextCursor, pageSize);
		}
		return page;
	}

	/**
	 * One page of the resources whose URI starts with `prefix`, in the listing's order and with
	 * its cursors (a scheme such as `git:` picks a family, a folder's `file:` URI a subtree).
	 * Each provider's run of such URIs is found by binary search (see `entriesUnder`), and a
	 * provider that cannot own the prefix is neither waited for nor read. Built on request: a
	 * filtered walk is a model's, one page at a time, not worth preparing ahead.
	 */
	async listUnder(prefix: string, cursor: string | undefined, pageSize = DEFAULT_PAGE_SIZE): Promise<Page> {
		const start = pageStart(cursor, this.providers.map(p => p.id));
		const builder = new PageBuilder(start, pageSize);
		// Only a prefix naming a whole scheme tells which providers may own it.
		const scheme = /^[a-z][a-z0-9+.-]*:/i.test(prefix);
		let page: Page | undefined;
		for (let section = start.section; section < this.providers.length && !page; section++) {
			const provider = this.providers[section];
			if (scheme && !provider.handles(prefix)) {
				// Added empty all the same: the cursor's position applies to its own section only.
				builder.add(provider.id, NO_ENTRIES);
				continue;
			}
			await readyOrBounded(provider);
			page = builder.add(provider.id, entriesUnder(provider.list(), prefix));
		}
		page ??= builder.finish();
		for (const annotator of this.annotators) {
			annotator.annotate(page.resources);
		}
		return page;
	}

	/**
	 * Builds the page for `cursor` once this turn's work (sending the page before) is done, and
	 * keeps it when everything it was built from can tell later whether it changed.
	 */
	private prepareLater(cursor: string, pageSize: number): void {
		if (this.prepared.has(cursor, pageSize)) {
			return;
		}
		setImmediate(() => {
			if (this.isDisposed) {
				return;
			}
			this.build(cursor, pageSize, true).then(prepared => {
				if (prepared && !this.isDisposed && prepared.annotations.every(a => a !== undefined)) {
					this.prepared.put(prepared);
				}
			}, () => { /* the request itself will build it again and answer the error */ });
		});
	}

	/** Whether a prepared page is exactly what building it now would give. */
	private isCurrent(prepared: PreparedPage): boolean {
		return prepared.reads.every(r => this.providers[r.section].list() === r.list && r.list.version === r.version)
			&& this.annotators.every((a, i) => a.annotationState?.() === prepared.annotations[i]);
	}

	/**
	 * The page for `cursor`, with what it was built from. Built `ahead` of its request, it is
	 * given up (undefined) at the first list without a version, which could not tell later
	 * whether the page still holds.
	 */
	private build(cursor: string | undefined, pageSize: number): Promise<PreparedPage>;
	private build(cursor: string | undefined, pageSize: number, ahead: true): Promise<PreparedPage | undefined>;
	private async build(cursor: string | undefined, pageSize: number, ahead = false): Promise<PreparedPage | undefined> {
		const start = pageStart(cursor, this.providers.map(p => p.id));
		const page = new PageBuilder(start, pageSize);
		const reads: ListRead[] = [];
		// Sections before the cursor's are never read, so they need not be ready.
		for (let section = start.section; section < this.providers.length; section++) {
			const provider = this.providers[section];
			await readyOrBounded(provider);
			const list = provider.list();
			if (list.version === undefined && ahead) {
				return undefined;
			}
			reads.push({ section, list, version: list.version });
			const full = page.add(provider.id, list);
			if (full) {
				return this.annotate(cursor, pageSize, full, reads);
			}
		}
		return this.annotate(cursor, pageSize, page.finish(), reads);
	}

	/** Runs every annotator over the page's entries in place: the page's array is the builder's own. */
	private annotate(cursor: string | undefined, pageSize: number, page: Page, reads: ListRead[]): PreparedPage {
		for (const annotator of this.annotators) {
			annotator.annotate(page.resources);
		}
		return { cursor: cursor ?? '', pageSize, page, reads, annotations: this.annotators.map(a => a.annotationState?.()) };
	}

	read(uri: string): Promise<ResourceContent[]> {
		return this.providerFor(uri).read(uri);
	}

	/**
	 * Refuses a subscription to a URI a provider owns but will not serve (outside the
	 * workspace, secret, ignored, unknown). A URI of a scheme no provider owns is accepted and
	 * simply never notified: the spec does not ask for an error there, and MCP's conformance
	 * suite subscribes to such URIs on any server. What the provider holds for the subscription
	 * (see `ResourceProvider.subscribe`) is let go when the result is disposed.
	 */
	async subscribe(uri: string): Promise<IDisposable> {
		const provider = this.providers.find(p => p.handles(uri));
		if (provider) {
			return provider.subscribe(uri);
		}
		if (!/^[a-z][a-z0-9+.-]*:/i.test(uri)) {
			throw new ResourceNotFound(uri); // not a URI at all
		}
		return nothingToDispose;
	}

	templates(): TemplateEntry[] {
		return this.providers.flatMap(p => p.templates());
	}

	async complete(uriTemplate: string, argument: string, value: string, context: Readonly<Record<string, string>> = {}): Promise<Completion> {
		for (const provider of this.providers) {
			if (provider.templates().some(t => t.uriTemplate === uriTemplate)) {
				const result = await provider.complete(uriTemplate, argument, value, context);
				if (!result) {
					throw new InvalidParams(`Unknown argument "${argument}" for template ${uriTemplate}`);
				}
				return result;
			}
		}
		throw new InvalidParams(`Unknown resource template: ${uriTemplate}`);
	}

	/** Listeners of the change stream: one per open session. */
	get changeListenerCount(): number {
		return this.tracker.listenerCount;
	}

	/** Emits pending changes at once (tests, shutdown). */
	flushChanges(): void {
		this.tracker.flush();
	}

	private providerFor(uri: string): ResourceProvider {
		const provider = this.providers.find(p => p.handles(uri));
		if (!provider) {
			throw new ResourceNotFound(uri);
		}
		return provider;
	}
}

function readyOrBounded(provider: ResourceProvider): Promise<void> {
	const ready = provider.ready();
	if (provider.readyWaitMs === undefined) {
		return ready;
	}
	let timer: NodeJS.Timeout | undefined;
	const bound = new Promise<void>(resolve => { timer = setTimeout(resolve, provider.readyWaitMs); });
	return Promise.race([ready, bound]).finally(() => clearTimeout(timer));
}
