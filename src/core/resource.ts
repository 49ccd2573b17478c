import { Event } from '../common/event';
import { IDisposable } from '../common/lifecycle';

/** One entry of `resources/list`, shaped like the MCP `Resource` type. */
export interface ResourceEntry {
	readonly uri: string;
	readonly name: string;
	readonly title?: string;
	readonly description?: string;
	readonly mimeType?: string;
	readonly size?: number;
	readonly annotations?: {
		readonly audience?: ('user' | 'assistant')[];
		readonly priority?: number;
		readonly lastModified?: string;
	};
}

export type ResourceContent =
	| { readonly uri: string; readonly mimeType?: string; readonly text: string }
	| { readonly uri: string; readonly mimeType?: string; readonly blob: string };

/** One entry of `resources/templates/list`. */
export interface TemplateEntry {
	readonly uriTemplate: string;
	readonly name: string;
	readonly title?: string;
	readonly description?: string;
	readonly mimeType?: string;
}

export interface Completion {
	readonly values: string[];
	readonly total?: number;
	readonly hasMore?: boolean;
}

/**
 * A provider's resources sorted by `uri` (code unit order), no duplicates. An array is one; the
 * files index is another that builds each entry only when a page asks for it, so a million files
 * need not be a million objects.
 */
export interface SortedEntries {
	readonly length: number;
	at(index: number): ResourceEntry | undefined;
	/**
	 * Where `uri` is, or would be inserted (after it, with `after`), without building entries.
	 * Lists without it are searched through `at`.
	 */
	search?(uri: string, after: boolean): number;
	/**
	 * Changes whenever what `at` and `search` answer may change. Only pages of lists that have one
	 * are prepared ahead of their request (`PreparedPages`).
	 */
	readonly version?: number;
}

/** What changed in a provider's resources. */
export interface ResourceChange {
	/** URIs whose content changed (or that appeared or went). */
	readonly updated: readonly string[];
	/** True when the set of listed resources changed. */
	readonly listChanged: boolean;
}

/**
 * A family of resources (files, problems, git, editor). Providers keep their list sorted by URI
 * so the registry can page it with a stable keyset cursor.
 */
export interface ResourceProvider extends IDisposable {
	readonly id: string;
	/**
	 * What this family serves, as a phrase for the server's `instructions` (e.g. "problems
	 * (diagnostics://workspace, ...)"), so a client is told only about families this host has.
	 */
	readonly summary: string;
	/** Resolves once the provider can answer `list` completely (e.g. its index is built). */
	ready(): Promise<void>;
	/**
	 * How long a list page waits for `ready()` before listing what the provider has so far
	 * (it then announces the rest with list_changed). Undefined: the page waits until ready,
	 * so `list()` is never called before then.
	 */
	readonly readyWaitMs?: number;
	/** The provider's resources, sorted by `uri` (code unit order), no duplicates. */
	list(): SortedEntries;
	/** True when this provider owns the URI (by scheme or prefix), whether or not it exists. */
	handles(uri: string): boolean;
	read(uri: string): Promise<ResourceContent[]>;
	/**
	 * A client subscribed to `uri` (2025 `resources/subscribe`, or a 2026-07-28 listen stream
	 * naming it). Throws ResourceNotFound when it may not be; otherwise holds what notifying it
	 * takes (a spelling other than the listed one, a template URI) until the result is disposed,
	 * when that subscription ends (unsubscribe, session or stream closed).
	 */
	subscribe(uri: string): Promise<IDisposable>;
	templates(): readonly TemplateEntry[];
	complete(uriTemplate: string, argument: string, value: string, context: Readonly<Record<string, string>>): Promise<Completion | undefined>;
	readonly onDidChange: Event<ResourceChange>;
}

/**
 * Something that sets annotations on other providers' listed entries (the relevance ranking
 * sets each file's priority). The registry applies it to each page as it is listed, so a
 * ranking change never moves an entry between pages or breaks a cursor.
 */
export interface ResourceAnnotator {
	/**
	 * Annotates a page's entries in place: an entry it annotates is replaced in the array by a
	 * new one (the entry itself may be shared, the array is the page's own). A page at a time,
	 * so what holds for the whole page is looked at once.
	 */
	annotate(entries: ResourceEntry[]): void;
	/**
	 * What `annotate` applies now, as an object that is replaced whenever that changes; undefined
	 * when `annotate` would first bring it up to date. A page annotated while this was the same
	 * object is what `annotate` would make of it now. Annotators without it keep pages from being
	 * prepared ahead of their request.
	 */
	annotationState?(): object | undefined;
}

export function isAnnotator(provider: ResourceProvider): provider is ResourceProvider & ResourceAnnotator {
	return typeof (provider as Partial<ResourceAnnotator>).annotate === 'function';
}
