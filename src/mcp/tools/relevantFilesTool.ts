import type { ResourceLink } from '@modelcontextprotocol/server';
import { array, object, optional, strictObject, string } from 'zod';
import { RELEVANT_URI } from '../../common/wellKnownUris';
import { ProviderRegistry } from '../../core/registry';
import { defineTool } from './workspaceTool';

/** The part of `context://relevant` the tool passes on (the resource's own shape, see RelevanceProvider). */
interface RelevantBody {
	readonly files: readonly { readonly file: string; readonly uri: string; readonly reasons: readonly string[] }[];
	readonly note?: string;
}

/** `relevant_files`: the relevance ranking's files, each a link with its reasons. */
export const relevantFilesTool = defineTool({
	name: 'relevant_files',
	title: 'Files that matter now',
	description: 'The files to look at first: open in the editor, just edited, with problems or changed in git. Ranked, with reasons.',
	input: strictObject({}),
	output: object({
		files: array(object({ uri: string(), path: string(), reasons: array(string()) })),
		note: optional(string()),
	}),
	offeredBy: providers => providers.some(p => p.handles(RELEVANT_URI)),
	call: async (_args, registry) => {
		const body = await readRelevant(registry);
		const files = body.files.map(f => ({ uri: f.uri, path: f.file, reasons: [...f.reasons] }));
		// The reasons go in the text: some clients show a model only text and each link's name and URI.
		const summary = body.note ?? [`${files.length} file${files.length === 1 ? '' : 's'}, most relevant first:`,
			...files.map(f => `${f.path}: ${f.reasons.join('; ')}`)].join('\n');
		return {
			content: [
				{ type: 'text', text: summary },
				...files.map((f): ResourceLink => ({ type: 'resource_link', uri: f.uri, name: f.path })),
			],
			structuredContent: body.note === undefined ? { files } : { files, note: body.note },
		};
	},
});

async function readRelevant(registry: ProviderRegistry): Promise<RelevantBody> {
	const [content] = await registry.read(RELEVANT_URI);
	if (!content || !('text' in content)) {
		throw new Error(`${RELEVANT_URI} answered no text`);
	}
	return JSON.parse(content.text) as RelevantBody;
}
