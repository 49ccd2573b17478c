import { createHash } from 'node:crypto';

/**
 * Icons other servers send (SEP-973 `icons` on resources, templates and `serverInfo`), kept
 * only when showing them costs nothing outside this process: a `data:` URI of one of the
 * spec's raster types whose bytes really are that type, and small. An `http(s):` icon is never
 * fetched (the request would tell a hostile server when and where the user looked), and SVG is
 * refused (it is a document that can carry scripts and references, not just pixels).
 */

/** Largest icon kept, in decoded bytes: a tree row draws 16 px. */
export const MAX_ICON_BYTES = 16 * 1024;
/** Entries of one `icons` array looked at (sizes and themes of one image). */
export const MAX_ICONS_PER_ITEM = 8;
/** Distinct icons kept per server; beyond that, items show the default glyph. */
export const MAX_ICONS_PER_SERVER = 256;

/** A validated icon as canonical `data:` URIs, one for light themes and one for dark. */
export interface SafeIcon {
	readonly light: string;
	readonly dark: string;
	/** Decoded bytes of both images (counted once when they are the same). */
	readonly bytes: number;
}

const SIGNATURES: Readonly<Record<string, (b: Buffer) => boolean>> = {
	'image/png': b => b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
	'image/jpeg': b => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
	'image/gif': b => b.length > 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')),
	'image/webp': b => b.length > 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const DATA_URI = /^data:(image\/[a-z0-9.+-]+)((?:;[a-z0-9-]+=[a-z0-9._-]+)*);base64,([A-Za-z0-9+/]*={0,2})$/i;

/** Longest `src` worth decoding: base64 of MAX_ICON_BYTES plus a header. */
const MAX_SRC_CHARS = Math.ceil(MAX_ICON_BYTES / 3) * 4 + 200;

function canonicalType(mimeType: string): string {
	const lower = mimeType.toLowerCase();
	return lower === 'image/jpg' ? 'image/jpeg' : lower;
}

/** Why one icon entry is refused, or its canonical data URI and size. */
export function checkIcon(icon: unknown): { dataUri: string; bytes: number } | { refused: string } {
	if (!icon || typeof icon !== 'object' || typeof (icon as { src?: unknown }).src !== 'string') {
		return { refused: 'no src' };
	}
	const { src, mimeType } = icon as { src: string; mimeType?: unknown };
	if (!/^data:/i.test(src)) {
		return { refused: 'not a data: URI (remote icons are never fetched)' };
	}
	if (src.length > MAX_SRC_CHARS) {
		return { refused: `larger than ${MAX_ICON_BYTES / 1024} KB` };
	}
	const match = DATA_URI.exec(src);
	if (!match) {
		return { refused: 'not a base64 data: URI of an image' };
	}
	const type = canonicalType(match[1]);
	const isImage = SIGNATURES[type];
	if (!isImage) {
		return { refused: `${type} is not one of PNG, JPEG, WebP or GIF` };
	}
	if (mimeType !== undefined && (typeof mimeType !== 'string' || canonicalType(mimeType) !== type)) {
		return { refused: 'its mimeType disagrees with its data' };
	}
	const bytes = Buffer.from(match[3], 'base64');
	if (bytes.length > MAX_ICON_BYTES) {
		return { refused: `larger than ${MAX_ICON_BYTES / 1024} KB` };
	}
	if (!isImage(bytes)) {
		return { refused: `its bytes are not ${type}` };
	}
	return { dataUri: `data:${type};base64,${bytes.toString('base64')}`, bytes: bytes.length };
}

/**
 * The icon to show from an `icons` array: the first acceptable one for each theme (an icon
 * without `theme` serves both); undefined when none is acceptable.
 */
export function pickIcon(icons: unknown): SafeIcon | undefined {
	if (!Array.isArray(icons)) {
		return undefined;
	}
	let any: { dataUri: string; bytes: number } | undefined;
	let light: { dataUri: string; bytes: number } | undefined;
	let dark: { dataUri: string; bytes: number } | undefined;
	for (const icon of icons.slice(0, MAX_ICONS_PER_ITEM)) {
		const checked = checkIcon(icon);
		if ('refused' in checked) {
			continue;
		}
		const theme = (icon as { theme?: unknown }).theme;
		if (theme === 'light') {
			light ??= checked;
		} else if (theme === 'dark') {
			dark ??= checked;
		} else {
			any ??= checked;
		}
	}
	const forLight = light ?? any ?? dark;
	const forDark = dark ?? any ?? light;
	if (!forLight || !forDark) {
		return undefined;
	}
	return { light: forLight.dataUri, dark: forDark.dataUri, bytes: forLight.bytes + (forDark === forLight ? 0 : forDark.bytes) };
}

/**
 * One server's icons, shared between the items that use the same one (a server typically sends
 * one icon per kind for thousands of items) and bounded in number.
 */
export class IconStore {
	private readonly byKey = new Map<string, SafeIcon | undefined>();

	/** The icon for an `icons` array; new icons past the cap are dropped. */
	icon(icons: unknown): SafeIcon | undefined {
		if (!Array.isArray(icons) || icons.length === 0) {
			return undefined;
		}
		// Keyed by a digest: the arrays themselves may be large, and thousands of items repeat one.
		const hash = createHash('sha256');
		for (const i of icons.slice(0, MAX_ICONS_PER_ITEM)) {
			const { src, theme, mimeType } = (i ?? {}) as { src?: unknown; theme?: unknown; mimeType?: unknown };
			hash.update(`${String(theme)}\0${String(mimeType)}\0${typeof src === 'string' ? src.slice(0, MAX_SRC_CHARS + 1) : ''}\0`);
		}
		const key = hash.digest('base64');
		if (this.byKey.has(key)) {
			return this.byKey.get(key);
		}
		if (this.byKey.size >= MAX_ICONS_PER_SERVER) {
			return undefined;
		}
		const icon = pickIcon(icons);
		this.byKey.set(key, icon);
		return icon;
	}

	clear(): void {
		this.byKey.clear();
	}
}
