import { IconStore, SafeIcon } from '../client/foreignIcons';

/**
 * One entry of `resources/list` as the picker keeps it: the fields it shows, copied out of
 * what the server sent (whose extra fields, `_meta` and the like, are not kept), with its icon
 * validated.
 */
export interface ListedResource {
	readonly uri: string;
	readonly name: string;
	readonly title?: string;
	readonly description?: string;
	readonly mimeType?: string;
	readonly size?: number;
	readonly annotations?: { readonly lastModified?: string };
	readonly icon?: SafeIcon;
}

/** One entry of `resources/templates/list` as the picker keeps it. */
export interface ListedTemplate {
	readonly uriTemplate: string;
	readonly name: string;
	readonly title?: string;
	readonly description?: string;
	readonly mimeType?: string;
	readonly icon?: SafeIcon;
}

/**
 * What one entry costs in memory besides its strings: its objects, its tree node and its
 * filter-index slots (estimated from the heap the reliability test's short entries took).
 */
const ENTRY_OVERHEAD = 320;

const text = (value: unknown): string | undefined => typeof value === 'string' ? value : undefined;

/** What keeping an entry costs, roughly: its strings and a fixed overhead (icons are shared and counted by their store). */
export function entryBytes(entry: ListedResource | ListedTemplate): number {
	const r = entry as Partial<ListedResource & ListedTemplate>;
	return ENTRY_OVERHEAD + (r.uri?.length ?? 0) + (r.uriTemplate?.length ?? 0) + r.name!.length
		+ (r.title?.length ?? 0) + (r.description?.length ?? 0) + (r.mimeType?.length ?? 0) + (r.annotations?.lastModified?.length ?? 0);
}

export function toListedResource(raw: Readonly<Record<string, unknown>>, icons: IconStore): ListedResource {
	const size = raw.size;
	const lastModified = text((raw.annotations as { lastModified?: unknown } | undefined)?.lastModified);
	const icon = icons.icon(raw.icons);
	return {
		uri: String(raw.uri),
		name: text(raw.name) ?? String(raw.uri),
		...optional('title', text(raw.title)),
		...optional('description', text(raw.description)),
		...optional('mimeType', text(raw.mimeType)),
		...optional('size', typeof size === 'number' && Number.isFinite(size) && size >= 0 ? size : undefined),
		...optional('annotations', lastModified !== undefined ? { lastModified } : undefined),
		...optional('icon', icon),
	};
}

export function toListedTemplate(raw: Readonly<Record<string, unknown>>, icons: IconStore): ListedTemplate {
	return {
		uriTemplate: String(raw.uriTemplate),
		name: text(raw.name) ?? String(raw.uriTemplate),
		...optional('title', text(raw.title)),
		...optional('description', text(raw.description)),
		...optional('mimeType', text(raw.mimeType)),
		...optional('icon', icons.icon(raw.icons)),
	};
}

/** `{ [key]: value }` when there is a value, `{}` otherwise (no `key: undefined` left behind). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
	return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
