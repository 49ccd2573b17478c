import { Buffer } from 'node:buffer';
import { SEARCH_TEXT_TEMPLATE } from '../../common/wellKnownUris';
import { InvalidParams, ResourceNotFound } from '../errors';

// Defined below core and mcp: the picker, a client, offers text matches by this template.
export { SEARCH_TEXT_TEMPLATE };
export const SEARCH_FILES_TEMPLATE = 'search://files{?q,max}';

/** Longest `q`, in UTF-8 bytes: a query is something a person or a model types, not a file. */
export const MAX_QUERY_BYTES = 1024;
export const DEFAULT_TEXT_MAX = 200;
export const MAX_TEXT_MAX = 5000;
export const DEFAULT_FILES_MAX = 50;
export const MAX_FILES_MAX = 1000;

/** `search://text`: the lines that contain `q`. */
export interface TextQuery {
	readonly kind: 'text';
	readonly q: string;
	readonly regex: boolean;
	/** `case=true`: letters match only in the case given. */
	readonly caseSensitive: boolean;
	/** `word=true`: no letter, digit or underscore right before or after a match. */
	readonly word: boolean;
	/** Comma-separated alternatives of `glob`, as given; empty for every file. */
	readonly globs: readonly string[];
	readonly max: number;
}

/** `search://files`: paths that hold the characters of `q` in order, best first. */
export interface FilesQuery {
	readonly kind: 'files';
	readonly q: string;
	readonly max: number;
}

export type SearchQuery = TextQuery | FilesQuery;

const TEXT_PARAMETERS = new Set(['q', 'regex', 'case', 'word', 'glob', 'max']);
const FILES_PARAMETERS = new Set(['q', 'max']);

/** Whether a URI is one of the search templates' (by scheme). */
export function isSearchUri(uri: string): boolean {
	return /^search:/i.test(uri);
}

/**
 * Reads a search URI (`search://text?...` or `search://files?...`) into a query. Anything a
 * client could have meant otherwise (an unknown parameter or value, a repeated one, an empty or
 * too long `q`) is an InvalidParams saying what to send instead: a search never guesses.
 */
export function parseSearchUri(uri: string): SearchQuery {
	const match = /^search:\/\/(text|files)(?:\?([^#]*))?$/.exec(uri);
	if (!match) {
		throw new ResourceNotFound(uri, `No such search: use ${SEARCH_TEXT_TEMPLATE} or ${SEARCH_FILES_TEMPLATE}`);
	}
	const kind = match[1] as 'text' | 'files';
	const params = readParams(match[2] ?? '', kind === 'text' ? TEXT_PARAMETERS : FILES_PARAMETERS, kind);
	const q = params.get('q');
	if (q === undefined || q === '') {
		throw new InvalidParams(`search://${kind} needs a non-empty q (e.g. search://${kind}?q=${kind === 'text' ? 'activate' : 'provider'})`);
	}
	const bytes = Buffer.byteLength(q, 'utf8');
	if (bytes > MAX_QUERY_BYTES) {
		throw new InvalidParams(`q is ${bytes} bytes, over the ${MAX_QUERY_BYTES}-byte limit: search for a shorter, distinctive part`);
	}
	if (kind === 'files') {
		return { kind, q, max: readMax(params.get('max'), DEFAULT_FILES_MAX, MAX_FILES_MAX) };
	}
	const glob = params.get('glob');
	const globs = glob === undefined ? [] : splitGlobs(glob);
	return {
		kind,
		q,
		regex: readFlag(params, 'regex'),
		caseSensitive: readFlag(params, 'case'),
		word: readFlag(params, 'word'),
		globs,
		max: readMax(params.get('max'), DEFAULT_TEXT_MAX, MAX_TEXT_MAX),
	};
}

function readParams(query: string, known: ReadonlySet<string>, kind: string): Map<string, string> {
	const params = new Map<string, string>();
	if (query === '') {
		return params;
	}
	for (const part of query.split('&')) {
		const eq = part.indexOf('=');
		const name = decode(eq < 0 ? part : part.slice(0, eq));
		const value = eq < 0 ? '' : decode(part.slice(eq + 1));
		if (!known.has(name)) {
			throw new InvalidParams(`Unknown parameter "${name.slice(0, 40)}" for search://${kind}: it takes ${[...known].join(', ')}`);
		}
		if (params.has(name)) {
			throw new InvalidParams(`Parameter "${name}" is given twice: give it once`);
		}
		params.set(name, value);
	}
	return params;
}

/** Percent-decodes a query part; `+` is a space, as forms and URLSearchParams write it. */
function decode(part: string): string {
	try {
		return decodeURIComponent(part.replace(/\+/g, ' '));
	} catch {
		throw new InvalidParams('Malformed percent-encoding in the search URI: encode q with encodeURIComponent');
	}
}

function readFlag(params: ReadonlyMap<string, string>, name: string): boolean {
	const value = params.get(name);
	if (value === undefined || value === 'false') {
		return false;
	}
	if (value === 'true') {
		return true;
	}
	throw new InvalidParams(`Invalid ${name}="${value.slice(0, 40)}": use ${name}=true or ${name}=false`);
}

function readMax(value: string | undefined, fallback: number, limit: number): number {
	if (value === undefined) {
		return fallback;
	}
	if (!/^[1-9][0-9]{0,8}$/.test(value)) {
		throw new InvalidParams(`Invalid max="${value.slice(0, 40)}": use a whole number from 1 to ${limit.toLocaleString('en-US')}`);
	}
	const max = Number(value);
	if (max > limit) {
		throw new InvalidParams(`max=${max} is over the limit of ${limit.toLocaleString('en-US')}: ask for fewer, or narrow the query`);
	}
	return max;
}

/** Alternatives of `glob`, split at commas outside `{...}` (which keep their own). */
function splitGlobs(glob: string): string[] {
	const out: string[] = [];
	let depth = 0;
	let from = 0;
	for (let i = 0; i < glob.length; i++) {
		const c = glob[i];
		if (c === '\\') {
			i++;
		} else if (c === '{') {
			depth++;
		} else if (c === '}' && depth > 0) {
			depth--;
		} else if (c === ',' && depth === 0) {
			out.push(glob.slice(from, i));
			from = i + 1;
		}
	}
	out.push(glob.slice(from));
	const globs = out.map(g => g.trim());
	if (globs.some(g => g === '')) {
		throw new InvalidParams('glob has an empty alternative: give patterns such as src/**/*.ts,*.md (comma-separated, none empty)');
	}
	return globs;
}
