import type { ContentBlock, ResourceLink } from '@modelcontextprotocol/server';
import { array, int, number, object, optional, strictObject, string } from 'zod';
import { ResourceEntry } from '../../core/resource';
import { fileUri } from '../../core/uriGuard';
import { checkUriLength } from '../server/uriLimit';
import { defineTool, ToolArgumentsError } from './workspaceTool';

/** Entries a `list_resources` page holds unless the model asks for another size. */
export const TOOL_PAGE_SIZE = 100;
/** The largest page a model may ask for: a page is paid for in its context. */
export const MAX_TOOL_PAGE_SIZE = 500;

/** A listed resource as the tools give it: what a model needs to pick one and read it. */
const LISTED = object({
	uri: string(),
	name: string(),
	title: optional(string()),
	description: optional(string()),
	mimeType: optional(string()),
	size: optional(number()),
});

/** `list_resources`: a page of the listing, filtered to a prefix, with the cursor for the next. */
export const listResourcesTool = defineTool({
	name: 'list_resources',
	title: 'List workspace resources',
	description: 'Lists what this workspace serves (files, git, problems, editor state...) a page at a time. Pass nextCursor back for the next page.',
	input: strictObject({
		prefix: optional(string().describe('Only URIs starting with this: a scheme (git:) or a folder (file:///abs/dir/ or /abs/dir/)')),
		cursor: optional(string().describe('nextCursor of the previous page')),
		limit: optional(int().min(1).max(MAX_TOOL_PAGE_SIZE).describe(`Page size, default ${TOOL_PAGE_SIZE}`)),
	}),
	output: object({ resources: array(LISTED), nextCursor: optional(string()) }),
	call: async ({ prefix, cursor, limit }, registry) => {
		const uriPrefix = prefix === undefined ? '' : uriPrefixOf(prefix);
		const page = await registry.listUnder(uriPrefix, cursor, limit ?? TOOL_PAGE_SIZE);
		const resources = page.resources.map(listed);
		const next = page.nextCursor === undefined
			? 'This is the last page.'
			: `More: call list_resources with cursor "${page.nextCursor}"${prefix === undefined ? '' : ' and the same prefix'}.`;
		const summary = `${resources.length} resource${resources.length === 1 ? '' : 's'}${uriPrefix ? ` under ${uriPrefix}` : ''}. ${next}`;
		return {
			content: [{ type: 'text', text: summary }, ...resources.map((r): ResourceLink => ({ type: 'resource_link', ...r }))],
			structuredContent: page.nextCursor === undefined ? { resources } : { resources, nextCursor: page.nextCursor },
		};
	},
});

/** `read_resource`: any URI the server serves, as the resource read gives it. */
export const readResourceTool = defineTool({
	name: 'read_resource',
	title: 'Read a workspace resource',
	description: 'Reads a URI that another tool gave, a file (file:///abs/path) or part of one (file:///abs/path?lines=10-40). Binary files come base64.',
	input: strictObject({ uri: string().describe('The resource URI') }),
	output: object({
		// One shape for both kinds (each content has text or blob): half the tokens of a union.
		contents: array(object({ uri: string(), mimeType: optional(string()), text: optional(string()), blob: optional(string()) })),
	}),
	call: async ({ uri }, registry) => {
		checkUriLength(uri);
		const contents = await registry.read(uri);
		return {
			content: contents.map((resource): ContentBlock => ({ type: 'resource', resource })),
			structuredContent: { contents },
		};
	},
});

/** A scheme or URI prefix as given; an absolute path as the `file:` URIs under it begin. */
function uriPrefixOf(prefix: string): string {
	if (/^[a-z][a-z0-9+.-]*:/i.test(prefix) || prefix === '') {
		return prefix;
	}
	if (!prefix.startsWith('/')) {
		throw new ToolArgumentsError(`prefix "${prefix.slice(0, 80)}" is neither a URI prefix (git:, file:///abs/dir/) nor an absolute path (/abs/dir/)`);
	}
	const uri = fileUri(prefix);
	// A folder's own URI ends in a slash only when its path did.
	return prefix.endsWith('/') && !uri.endsWith('/') ? `${uri}/` : uri;
}

function listed(entry: ResourceEntry) {
	const { uri, name, title, description, mimeType, size } = entry;
	return {
		uri, name,
		...title !== undefined && { title },
		...description !== undefined && { description },
		...mimeType !== undefined && { mimeType },
		...size !== undefined && { size },
	};
}
