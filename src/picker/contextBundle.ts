import { escapeMarkdownInline, markdownUri, safeMimeType } from './markdownText';
import { countTokens } from './tokenCount';
import { formatSize } from './tokenEstimate';

/** One content item of a `resources/read` result. */
export interface ReadContent {
	readonly uri: string;
	readonly mimeType?: string;
	readonly text?: string;
	readonly blob?: string;
}

/** A resource to bundle: what was read, or why it could not be. */
export interface BundleEntry {
	/** The URI the user selected: the bundle names the resource by it, whatever the server's answer says. */
	readonly uri: string;
	/** The server it came from, shown when the bundle mixes servers. */
	readonly server?: string;
	readonly contents?: readonly ReadContent[];
	readonly error?: string;
}

export interface BundleOptions {
	/**
	 * What to do with images: `attach` returns them beside the text (chat takes images),
	 * `inline` embeds them as Markdown data URIs (a Markdown editor previews them), `note`
	 * mentions them only (the clipboard takes text).
	 */
	readonly images: 'attach' | 'inline' | 'note';
	/** Largest image kept, in bytes of decoded data; larger ones are noted. */
	readonly maxImageBytes?: number;
}

export interface BundleImage {
	readonly uri: string;
	readonly mimeType: string;
	/** base64 */
	readonly data: string;
}

export interface ContextBundle {
	readonly text: string;
	readonly images: readonly BundleImage[];
	readonly resourceCount: number;
	/** The URIs that could not be read (the bundle says why under each). */
	readonly unreadable: readonly string[];
	/** Claude tokens of `text`, counted with the tokenizer (tokenCount.ts). */
	readonly estimatedTokens: number;
}

const ATTACHABLE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const languageByMime: Record<string, string> = {
	'text/x-typescript': 'typescript', 'application/typescript': 'typescript', 'text/typescript': 'typescript',
	'text/javascript': 'javascript', 'application/javascript': 'javascript',
	'application/json': 'json', 'application/ld+json': 'json', 'application/schema+json': 'json',
	'text/markdown': 'markdown', 'text/html': 'html', 'text/css': 'css', 'text/x-scss': 'scss', 'text/x-less': 'less',
	'application/xml': 'xml', 'text/xml': 'xml', 'image/svg+xml': 'xml',
	'application/yaml': 'yaml', 'text/yaml': 'yaml', 'application/toml': 'toml',
	'text/x-python': 'python', 'text/x-ruby': 'ruby', 'text/x-php': 'php', 'text/x-perl': 'perl',
	'text/x-java': 'java', 'text/x-kotlin': 'kotlin', 'text/x-scala': 'scala', 'text/x-groovy': 'groovy',
	'text/x-c': 'c', 'text/x-c++': 'cpp', 'text/x-csharp': 'csharp', 'text/x-fsharp': 'fsharp',
	'text/x-go': 'go', 'text/x-rust': 'rust', 'text/x-swift': 'swift', 'text/x-objectivec': 'objective-c',
	'text/x-dart': 'dart', 'text/x-lua': 'lua', 'text/x-r': 'r', 'text/x-shellscript': 'shell',
	'text/x-powershell': 'powershell', 'text/x-bat': 'bat', 'application/sql': 'sql',
	'application/graphql': 'graphql', 'text/x-protobuf': 'protobuf', 'text/x-vue': 'vue', 'text/x-svelte': 'svelte',
	'text/x-elixir': 'elixir', 'text/x-erlang': 'erlang', 'text/x-haskell': 'haskell', 'text/x-clojure': 'clojure',
	'text/x-ocaml': 'ocaml', 'text/x-zig': 'zig', 'text/x-julia': 'julia', 'text/x-tex': 'latex',
	'text/x-rst': 'restructuredtext', 'text/x-diff': 'diff', 'text/x-makefile': 'makefile',
	'text/x-dockerfile': 'dockerfile', 'text/x-terraform': 'terraform', 'text/csv': 'csv',
};

const languageByExtension: Record<string, string> = {
	ts: 'typescript', tsx: 'tsx', mts: 'typescript', cts: 'typescript', js: 'javascript', jsx: 'jsx', mjs: 'javascript', cjs: 'javascript',
	json: 'json', jsonc: 'jsonc', md: 'markdown', py: 'python', rb: 'ruby', go: 'go', rs: 'rust', java: 'java',
	kt: 'kotlin', c: 'c', h: 'c', cpp: 'cpp', cc: 'cpp', hpp: 'cpp', cs: 'csharp', sh: 'shell', bash: 'shell',
	yml: 'yaml', yaml: 'yaml', toml: 'toml', html: 'html', css: 'css', scss: 'scss', sql: 'sql', xml: 'xml',
	diff: 'diff', patch: 'diff', php: 'php', swift: 'swift', lua: 'lua', vue: 'vue', svelte: 'svelte',
};

/** The Markdown fence language for a MIME type (or, failing that, the URI's extension); '' when unknown. */
export function languageFor(mimeType: string | undefined, uri: string): string {
	const base = safeMimeType(mimeType);
	// Own keys only: the type and the extension are the server's words (`a.constructor`).
	if (base && Object.hasOwn(languageByMime, base)) {
		return languageByMime[base];
	}
	if (base?.endsWith('+json')) {
		return 'json';
	}
	const path = uri.split(/[?#]/)[0];
	const dot = path.lastIndexOf('.');
	if (dot > path.lastIndexOf('/')) {
		const extension = path.slice(dot + 1).toLowerCase();
		if (Object.hasOwn(languageByExtension, extension)) {
			return languageByExtension[extension];
		}
	}
	return '';
}

/** A fence longer than any backtick run in `text`, so the content cannot close it. */
export function fenceFor(text: string): string {
	let longest = 0;
	for (const match of text.matchAll(/`{3,}/g)) {
		longest = Math.max(longest, match[0].length);
	}
	return '`'.repeat(Math.max(3, longest + 1));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodedLength(base64: string): number {
	const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
	return Math.floor(base64.length * 3 / 4) - padding;
}

/**
 * Formats resources as one Markdown document: per resource a header with the URI and a fenced
 * block whose language comes from the MIME type. Binary content is noted, not dumped; images
 * are attached, inlined or noted as the target allows.
 *
 * Everything a server sent is data here: its text sits inside a fence it cannot close, and
 * what is written outside fences (the URI, its MIME type, an error message, a server name) is
 * one escaped line, so no answer can add a section or instructions of its own. The header is
 * the URI the user selected, never the one in the server's answer.
 */
export function buildContextBundle(entries: readonly BundleEntry[], options: BundleOptions): ContextBundle {
	const maxImageBytes = options.maxImageBytes ?? 5 * 1024 * 1024;
	const servers = new Set(entries.map(e => e.server).filter(Boolean));
	const parts: string[] = [];
	const images: BundleImage[] = [];
	for (const entry of entries) {
		const origin = servers.size > 1 && entry.server ? ` (from ${escapeMarkdownInline(entry.server)})` : '';
		const title = `## ${markdownUri(entry.uri)}${origin}`;
		if (entry.error !== undefined) {
			parts.push(`${title}\n\n_Could not read this resource: ${escapeMarkdownInline(entry.error)}_\n`);
			continue;
		}
		const contents = entry.contents ?? [];
		if (contents.length === 0) {
			parts.push(`${title}\n\n_The resource is empty._\n`);
			continue;
		}
		for (const [i, content] of contents.entries()) {
			// A resource may return several items (e.g. a folder listing); each gets its own header.
			const header = contents.length > 1 ? `${title} (part ${i + 1} of ${contents.length})` : title;
			const mime = safeMimeType(content.mimeType);
			if (typeof content.text === 'string') {
				const fence = fenceFor(content.text);
				const body = content.text.endsWith('\n') ? content.text : `${content.text}\n`;
				parts.push(`${header}\n\n${fence}${languageFor(mime, entry.uri)}\n${body}${fence}\n`);
				continue;
			}
			const blob = typeof content.blob === 'string' ? content.blob : '';
			const bytes = decodedLength(blob);
			const kind = mime ?? (content.mimeType === undefined ? 'application/octet-stream' : 'unknown type');
			if (mime && ATTACHABLE_IMAGES.has(mime) && bytes <= maxImageBytes && BASE64.test(blob) && options.images !== 'note') {
				if (options.images === 'attach') {
					images.push({ uri: entry.uri, mimeType: mime, data: blob });
					parts.push(`${header}\n\n_Image (${kind}, ${formatSize(bytes)}), attached separately._\n`);
				} else {
					const name = escapeMarkdownInline(entry.uri.split(/[?#]/)[0].split('/').pop() || 'image', 200);
					parts.push(`${header}\n\n![${name}](data:${mime};base64,${blob})\n`);
				}
				continue;
			}
			parts.push(`${header}\n\n_Binary content (${kind}, ${formatSize(bytes)}) not included._\n`);
		}
	}
	const text = parts.join('\n');
	const unreadable = entries.filter(e => e.error !== undefined).map(e => e.uri);
	return { text, images, resourceCount: entries.length, unreadable, estimatedTokens: countTokens(text) };
}
