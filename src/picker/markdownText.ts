/**
 * Text from another server (names, descriptions, URIs, error messages, MIME types) placed in
 * Markdown. Whatever it holds, it must stay one inline run of text: no heading, fence or list
 * of its own (which could forge a section of a context bundle), and no link, image or HTML
 * (which a tooltip would render and could fetch).
 */

/** Line breaks, other control characters and bidirectional overrides, each shown as one space. */
// eslint-disable-next-line no-control-regex
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Longest server string shown in one place; the rest is cut with an ellipsis. */
export const MAX_SHOWN_CHARS = 2000;

function oneLine(text: string, maxChars: number): string {
	const flat = text.replace(BREAKS, ' ');
	return flat.length > maxChars ? `${flat.slice(0, maxChars)}…` : flat;
}

/**
 * For text a person or a model reads raw (a context bundle): one line, with the characters
 * that open inline constructs (emphasis, code, links, images, HTML, entities) escaped. A line
 * in the middle of a paragraph cannot start a block, so it cannot leave its section.
 */
export function escapeMarkdownInline(text: string, maxChars = MAX_SHOWN_CHARS): string {
	return oneLine(text, maxChars).replace(/[\\`*_[\]<>&!~|]/g, '\\$&');
}

/**
 * For text Markdown renders (tooltips): every ASCII punctuation character escaped (CommonMark
 * allows a backslash before any of them), which also keeps bare URLs, `www.` names and e-mail
 * addresses from becoming links and `$(icon)` from becoming an icon.
 */
export function escapeMarkdownRendered(text: string, maxChars = MAX_SHOWN_CHARS): string {
	return oneLine(text, maxChars).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** An inline code span that no backtick inside `text` can close, on one line. */
export function markdownCodeSpan(text: string, maxChars = MAX_SHOWN_CHARS): string {
	const flat = oneLine(text, maxChars);
	let longest = 0;
	for (const match of flat.matchAll(/`+/g)) {
		longest = Math.max(longest, match[0].length);
	}
	const ticks = '`'.repeat(longest + 1);
	// A space on each side keeps a leading or trailing backtick from joining the delimiter.
	const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
	return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** Characters a URI may hold (RFC 3986: unreserved, reserved and '%'). */
const URI_CHARS = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;

/**
 * A URI as a heading shows it: every character a URI cannot hold (spaces, line breaks,
 * backticks, angle brackets, backslashes...) percent-encoded, and the square brackets that
 * links and images need escaped. An ordinary URI comes out unchanged.
 */
export function markdownUri(uri: string, maxChars = MAX_SHOWN_CHARS): string {
	let out = '';
	for (const char of uri.length > maxChars ? uri.slice(0, maxChars) : uri) {
		out += URI_CHARS.test(char) ? char : percentEncode(char);
	}
	return `${out.replace(/[[\]]/g, '\\$&')}${uri.length > maxChars ? '…' : ''}`;
}

function percentEncode(char: string): string {
	try {
		return encodeURIComponent(char);
	} catch {
		return '%EF%BF%BD'; // a lone surrogate: the replacement character
	}
}

/**
 * A MIME type as shown to a reader: its base type when it is made of the characters MIME
 * types use in practice (letters, digits, `.`, `+`, `-`), otherwise undefined.
 */
export function safeMimeType(mimeType: string | undefined): string | undefined {
	const base = mimeType?.split(';')[0].trim().toLowerCase();
	return base && /^[a-z0-9][a-z0-9.+-]{0,126}\/[a-z0-9][a-z0-9.+-]{0,126}$/.test(base) ? base : undefined;
}

/**
 * For plain-text rows (QuickPick labels and details, tree labels): one line, cut at `maxChars`,
 * with `$(…)` escaped. Those rows render no Markdown or HTML, only icon syntax.
 */
export function plainLine(text: string, maxChars = MAX_SHOWN_CHARS): string {
	return escapeIconSyntax(oneLine(text, maxChars));
}

/**
 * For labels VS Code draws with `$(name)` icon syntax (QuickPick labels, descriptions, details):
 * a server's `$(…)` shows as text rather than as a spinner or a check mark it did not earn.
 */
export function escapeIconSyntax(text: string): string {
	return text.replace(/\$\(/g, '\\$(');
}
