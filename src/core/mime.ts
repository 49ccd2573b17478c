/**
 * MIME types by file name and a binary sniff for content. The table favours source code
 * (where registries say `.ts` is MPEG video) and the common binary formats.
 */
const byExtension: Record<string, string> = {
	// text and source
	txt: 'text/plain', log: 'text/plain', text: 'text/plain',
	md: 'text/markdown', markdown: 'text/markdown', mdx: 'text/markdown',
	html: 'text/html', htm: 'text/html', css: 'text/css', scss: 'text/x-scss', less: 'text/x-less',
	csv: 'text/csv', tsv: 'text/tab-separated-values',
	js: 'text/javascript', mjs: 'text/javascript', cjs: 'text/javascript', jsx: 'text/javascript',
	ts: 'text/x-typescript', mts: 'text/x-typescript', cts: 'text/x-typescript', tsx: 'text/x-typescript',
	json: 'application/json', jsonc: 'application/json', json5: 'application/json', map: 'application/json',
	xml: 'application/xml', xsd: 'application/xml', svg: 'image/svg+xml',
	yaml: 'application/yaml', yml: 'application/yaml', toml: 'application/toml',
	ini: 'text/plain', cfg: 'text/plain', conf: 'text/plain', properties: 'text/plain',
	py: 'text/x-python', pyi: 'text/x-python', rb: 'text/x-ruby', php: 'text/x-php', pl: 'text/x-perl',
	java: 'text/x-java', kt: 'text/x-kotlin', kts: 'text/x-kotlin', scala: 'text/x-scala', groovy: 'text/x-groovy',
	c: 'text/x-c', h: 'text/x-c', cc: 'text/x-c++', cpp: 'text/x-c++', cxx: 'text/x-c++', hpp: 'text/x-c++', hh: 'text/x-c++',
	cs: 'text/x-csharp', fs: 'text/x-fsharp', go: 'text/x-go', rs: 'text/x-rust', swift: 'text/x-swift',
	m: 'text/x-objectivec', mm: 'text/x-objectivec', dart: 'text/x-dart', lua: 'text/x-lua', r: 'text/x-r',
	sh: 'text/x-shellscript', bash: 'text/x-shellscript', zsh: 'text/x-shellscript', fish: 'text/x-shellscript',
	ps1: 'text/x-powershell', bat: 'text/x-bat', cmd: 'text/x-bat',
	sql: 'application/sql', graphql: 'application/graphql', gql: 'application/graphql', proto: 'text/x-protobuf',
	vue: 'text/x-vue', svelte: 'text/x-svelte', astro: 'text/x-astro',
	ex: 'text/x-elixir', exs: 'text/x-elixir', erl: 'text/x-erlang', hs: 'text/x-haskell', clj: 'text/x-clojure',
	ml: 'text/x-ocaml', zig: 'text/x-zig', nim: 'text/x-nim', jl: 'text/x-julia',
	tex: 'text/x-tex', rst: 'text/x-rst', adoc: 'text/asciidoc', org: 'text/x-org',
	diff: 'text/x-diff', patch: 'text/x-diff', lock: 'text/plain', env: 'text/plain',
	gradle: 'text/x-groovy', tf: 'text/x-terraform', hcl: 'text/x-terraform', dockerfile: 'text/x-dockerfile',
	// binary
	png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp',
	bmp: 'image/bmp', ico: 'image/x-icon', tif: 'image/tiff', tiff: 'image/tiff', avif: 'image/avif',
	pdf: 'application/pdf', zip: 'application/zip', gz: 'application/gzip', tgz: 'application/gzip',
	tar: 'application/x-tar', '7z': 'application/x-7z-compressed', bz2: 'application/x-bzip2', xz: 'application/x-xz',
	wasm: 'application/wasm', woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', otf: 'font/otf',
	mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', flac: 'audio/flac',
	mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime',
	exe: 'application/octet-stream', dll: 'application/octet-stream', so: 'application/octet-stream',
	bin: 'application/octet-stream', class: 'application/java-vm', jar: 'application/java-archive',
	sqlite: 'application/vnd.sqlite3', db: 'application/octet-stream',
};

const byName: Record<string, string> = {
	makefile: 'text/x-makefile', dockerfile: 'text/x-dockerfile', license: 'text/plain', readme: 'text/plain',
	changelog: 'text/plain', authors: 'text/plain', codeowners: 'text/plain', gemfile: 'text/x-ruby',
	rakefile: 'text/x-ruby', procfile: 'text/plain', '.gitignore': 'text/plain', '.gitattributes': 'text/plain',
	'.editorconfig': 'text/plain', '.prettierrc': 'application/json', '.eslintrc': 'application/json',
};

export const BINARY_MIME = 'application/octet-stream';
export const TEXT_MIME = 'text/plain';
export const JSON_MIME = 'application/json';

/** Answers by extension as spelled (`ts`, `PNG`), filled as names are seen; a few hundred at most. */
const byExtensionSeen = new Map<string, string | undefined>();
const MAX_EXTENSIONS_SEEN = 1024;

/** The MIME type a file name suggests, or undefined when the name says nothing. */
export function mimeTypeForName(fileName: string): string | undefined {
	// Every file of a listing page comes here. A name with an extension is never one of
	// `byName` (none of those has a dot after its first character), so its extension decides.
	const lastDot = fileName.lastIndexOf('.');
	if (lastDot > 0 && lastDot < fileName.length - 1) {
		const extension = fileName.slice(lastDot + 1);
		const seen = byExtensionSeen.get(extension);
		if (seen !== undefined || byExtensionSeen.has(extension)) {
			return seen;
		}
		const lowerExtension = extension.toLowerCase();
		const mime = Object.hasOwn(byExtension, lowerExtension) ? byExtension[lowerExtension] : undefined;
		if (byExtensionSeen.size < MAX_EXTENSIONS_SEEN) {
			byExtensionSeen.set(extension, mime);
		}
		return mime;
	}
	const lower = fileName.toLowerCase();
	// Own keys only: a file named `__proto__` or `constructor` must not find Object's members.
	const named = Object.hasOwn(byName, lower) ? byName[lower] : undefined;
	if (named) {
		return named;
	}
	const dot = lower.lastIndexOf('.');
	if (dot <= 0 || dot === lower.length - 1) {
		return undefined;
	}
	return byExtension[lower.slice(dot + 1)];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes content as UTF-8 text, or returns undefined when it is binary: a NUL byte in the
 * first 8,000 bytes (git's heuristic) or bytes that are not valid UTF-8.
 */
export function decodeText(bytes: Uint8Array): string | undefined {
	const head = bytes.subarray(0, 8000);
	if (head.includes(0)) {
		return undefined;
	}
	try {
		return utf8.decode(bytes);
	} catch {
		return undefined;
	}
}

/** True for MIME types that are only ever binary, so a text sniff cannot make them text. */
export function isBinaryMime(mimeType: string | undefined): boolean {
	if (!mimeType) {
		return false;
	}
	if (mimeType === 'image/svg+xml') {
		return false;
	}
	return /^(image|audio|video|font)\//.test(mimeType) || mimeType === BINARY_MIME ||
		/^application\/(pdf|zip|gzip|wasm|x-tar|x-7z|x-bzip2|x-xz|java|vnd\.sqlite3)/.test(mimeType);
}
