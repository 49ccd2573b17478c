import { UriTemplate, type ResourceLink } from '@modelcontextprotocol/server';
import { array, boolean, int, number, object, optional, strictObject, string } from 'zod';
import { SEARCH_FILES_TEMPLATE, SEARCH_TEXT_TEMPLATE } from '../../core/search/searchQuery';
import { defineTool, fillTemplate, offeredFor, readJson } from './workspaceTool';

/*
 * The search tools are thin: each fills the search resource's template, reads it through the
 * registry (so the search's own served-or-not rule and caps apply), and maps its answer to links.
 * They are offered only where a provider answers `search:` URIs; nothing searches here.
 */

/** Matches (or files) a search tool asks for unless the model says: fewer than the resource's default, as each is paid for in context. */
export const TOOL_SEARCH_MAX = 50;
/** The search resources' own cap. */
const SEARCH_MAX = 5_000;

/** The answer of `search://text`, as the search contract defines it. */
interface TextAnswer {
	readonly files: readonly {
		readonly uri: string;
		readonly path: string;
		readonly matches: readonly { readonly line: number; readonly column: number; readonly text: string; readonly uri: string }[];
	}[];
	readonly matchCount: number;
	readonly fileCount: number;
	readonly complete: boolean;
	readonly reason?: string;
}

/** The answer of `search://files`. */
interface FilesAnswer {
	readonly files: readonly { readonly uri: string; readonly path: string; readonly score: number }[];
	readonly complete: boolean;
}

const textTemplate = new UriTemplate(SEARCH_TEXT_TEMPLATE);
const filesTemplate = new UriTemplate(SEARCH_FILES_TEMPLATE);
const maxArgument = () => optional(int().min(1).max(SEARCH_MAX).describe(`Default ${TOOL_SEARCH_MAX}`));

/** `search_text`: lines containing `q`, each a link to read that line. */
export const searchTextTool = defineTool({
	name: 'search_text',
	title: 'Search text in the workspace',
	description: 'Finds lines containing q in served files (unsaved editor text included). Each match links to its line; read it, or lines=N-M around it.',
	input: strictObject({
		q: string().min(1).describe('Text to find; a regular expression with regex'),
		regex: optional(boolean()),
		case: optional(boolean().describe('Case-sensitive')),
		word: optional(boolean().describe('Whole words')),
		glob: optional(string().describe('Limit paths, e.g. src/**/*.ts,*.md')),
		max: maxArgument(),
	}),
	output: object({
		files: array(object({
			uri: string(), path: string(),
			matches: array(object({ line: number(), column: number(), text: string(), uri: string() })),
		})),
		matchCount: number(),
		fileCount: number(),
		complete: boolean(),
		reason: optional(string()),
	}),
	offeredBy: offeredFor(textTemplate.expand({ q: 'probe' })),
	call: async ({ q, regex, case: matchCase, word, glob, max }, registry) => {
		const uri = fillTemplate('search_text', textTemplate, {
			q,
			...regex && { regex: 'true' },
			...matchCase && { case: 'true' },
			...word && { word: 'true' },
			...glob !== undefined && { glob },
			max: String(max ?? TOOL_SEARCH_MAX),
		});
		const answer = await readJson<TextAnswer>(registry, uri);
		// Only the contract's fields, so the data always fits the advertised schema.
		const files = answer.files.map(f => ({
			uri: f.uri, path: f.path,
			matches: f.matches.map(m => ({ line: m.line, column: m.column, text: m.text, uri: m.uri })),
		}));
		const links = files.flatMap(f => f.matches.map((m): ResourceLink => ({ type: 'resource_link', uri: m.uri, name: `${f.path}:${m.line}` })));
		const cut = answer.complete ? '' : ` Stopped early${answer.reason ? ` (${answer.reason})` : ''}: narrow q or glob, or raise max.`;
		// The lines go in the text: some clients show a model only text and each link's name and URI.
		const lines = files.flatMap(f => f.matches.map(m => `${f.path}:${m.line}:${m.column}: ${m.text}`));
		const summary = [`${answer.matchCount} match${answer.matchCount === 1 ? '' : 'es'} in ${answer.fileCount} file${answer.fileCount === 1 ? '' : 's'}.${cut}`, ...lines].join('\n');
		return {
			content: [{ type: 'text', text: summary }, ...links],
			structuredContent: {
				files, matchCount: answer.matchCount, fileCount: answer.fileCount, complete: answer.complete,
				...answer.reason !== undefined && { reason: answer.reason },
			},
		};
	},
});

/** `search_files`: paths that fuzzy-match `q`, best first, each a link to the file. */
export const searchFilesTool = defineTool({
	name: 'search_files',
	title: 'Find files by path',
	description: 'Finds files whose path fuzzy-matches q (its characters in order, as Quick Open does), best first.',
	input: strictObject({ q: string().min(1).describe('Characters of the path, in order'), max: maxArgument() }),
	output: object({
		files: array(object({ uri: string(), path: string(), score: number() })),
		complete: boolean(),
	}),
	offeredBy: offeredFor(filesTemplate.expand({ q: 'probe' })),
	call: async ({ q, max }, registry) => {
		const answer = await readJson<FilesAnswer>(registry, fillTemplate('search_files', filesTemplate, { q, max: String(max ?? TOOL_SEARCH_MAX) }));
		const files = answer.files.map(f => ({ uri: f.uri, path: f.path, score: f.score }));
		const more = answer.complete ? '' : ' More match: refine q or raise max.';
		return {
			content: [
				{ type: 'text', text: `${files.length} file${files.length === 1 ? '' : 's'}, best match first.${more}` },
				...files.map((f): ResourceLink => ({ type: 'resource_link', uri: f.uri, name: f.path })),
			],
			structuredContent: { files, complete: answer.complete },
		};
	},
});
