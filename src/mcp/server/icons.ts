import type { Icon } from '@modelcontextprotocol/server';
import type { ResourceEntry, TemplateEntry } from '../../core/resource';
import { ICON_PNG } from './iconData';

// SEP-973 icons, so clients (VS Code's MCP server list, Browse Resources, Add Context) show our
// server and each family at a glance. Inline data: PNGs: a client never fetches anything, and
// VS Code renders only raster types. One frozen array per family, shared by every entry.

function pngIcons({ src, size }: { readonly src: string; readonly size: string }): readonly Icon[] {
	return Object.freeze([Object.freeze({ src, mimeType: 'image/png', sizes: [size] })]);
}

/** `serverInfo.icons` of `initialize`. */
export const SERVER_ICONS = pngIcons(ICON_PNG.server);

/** Family icons by URI scheme; a family without one here fails the icons unit test. */
const FAMILY_ICONS: Readonly<Record<string, readonly Icon[]>> = {
	file: pngIcons(ICON_PNG.files),
	diagnostics: pngIcons(ICON_PNG.problems),
	git: pngIcons(ICON_PNG.git),
	editor: pngIcons(ICON_PNG.editor),
	// Until they have icons of their own: what matters now and terminals are editor state,
	// an outline is a view of a file.
	context: pngIcons(ICON_PNG.editor),
	terminal: pngIcons(ICON_PNG.editor),
	outline: pngIcons(ICON_PNG.files),
};

function schemeOf(uri: string): string {
	return /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1].toLowerCase() ?? '';
}

/**
 * Adds the family icon to every resource except files: a file entry is one of thousands, where
 * an inline PNG each would multiply every page's size, and clients draw files by their name.
 */
export function withResourceIcons<T extends ResourceEntry>(entry: T): T | (T & { icons: Icon[] }) {
	if (entry.uri.startsWith('file:')) {
		return entry; // nearly every entry of a listing: skip the scheme match
	}
	const scheme = schemeOf(entry.uri);
	const icons = scheme === 'file' ? undefined : FAMILY_ICONS[scheme];
	return icons ? { ...entry, icons: icons as Icon[] } : entry;
}

/** Adds the family icon to a template (files included: there is one file template). */
export function withTemplateIcons<T extends TemplateEntry>(template: T): T | (T & { icons: Icon[] }) {
	const icons = FAMILY_ICONS[schemeOf(template.uriTemplate)];
	return icons ? { ...template, icons: icons as Icon[] } : template;
}
