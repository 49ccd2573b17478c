import type { ContentBlock, Tool, UriTemplate } from '@modelcontextprotocol/server';
import { toJSONSchema, type ZodType } from 'zod';
import { formatBytes } from '../../core/errors';
import { ProviderRegistry } from '../../core/registry';
import { ResourceProvider } from '../../core/resource';
import { MAX_URI_BYTES } from '../server/uriLimit';

/** What a tool call answers when it succeeds: content for the model, the same as data beside it. */
export interface ToolAnswer {
	readonly content: ContentBlock[];
	readonly structuredContent: Record<string, unknown>;
}

/**
 * One read-only tool over the registry. It reads only through the registry (the resources'
 * own reads and listings), so whatever a read refuses, the tool refuses too.
 */
export interface WorkspaceTool {
	readonly name: string;
	/** The entry of `tools/list`. */
	readonly definition: Tool;
	/** Whether a registry of these providers has what the tool reads. */
	offeredBy(providers: readonly ResourceProvider[]): boolean;
	/** Runs the tool on arguments that are not checked yet: `ToolArgumentsError` when they do not fit. */
	call(args: Record<string, unknown>, registry: ProviderRegistry): Promise<ToolAnswer>;
}

/** Arguments that do not fit a tool's input schema; the message says which and why. */
export class ToolArgumentsError extends Error {}

export interface ToolSpec<A> {
	readonly name: string;
	readonly title: string;
	readonly description: string;
	/** Checks the arguments, and is the source of the advertised `inputSchema`. */
	readonly input: ZodType<A>;
	/** The source of the advertised `outputSchema`; `structuredContent` always fits it. */
	readonly output: ZodType;
	readonly offeredBy?: (providers: readonly ResourceProvider[]) => boolean;
	readonly call: (args: A, registry: ProviderRegistry) => Promise<ToolAnswer>;
}

/**
 * A tool from its spec: one zod schema both checks the arguments and is advertised, so the
 * two cannot drift. Every tool only reads this workspace: `readOnlyHint`, and no
 * `openWorldHint` (it reaches nothing outside).
 */
export function defineTool<A>(spec: ToolSpec<A>): WorkspaceTool {
	// Made on the first tools/list, not when the module loads: it loads on the extension's activation.
	let definition: Tool | undefined;
	return {
		name: spec.name,
		get definition(): Tool {
			definition ??= {
				name: spec.name,
				title: spec.title,
				description: spec.description,
				inputSchema: jsonSchemaOf(spec.input, 'input') as Tool['inputSchema'],
				outputSchema: jsonSchemaOf(spec.output, 'output') as Tool['outputSchema'],
				annotations: { readOnlyHint: true, openWorldHint: false },
			};
			return definition;
		},
		offeredBy: spec.offeredBy ?? (() => true),
		call: (args, registry) => {
			const parsed = spec.input.safeParse(args);
			if (!parsed.success) {
				const reasons = parsed.error.issues.map(issue => `${issue.path.length > 0 ? issue.path.join('.') : 'arguments'}: ${issue.message}`);
				throw new ToolArgumentsError(`Invalid arguments for ${spec.name}: ${reasons.join('; ')}`);
			}
			return spec.call(parsed.data, registry);
		},
	};
}

/**
 * The JSON Schema a client sees: zod's, without the `$schema` line (every tool's schema is the
 * spec's default dialect) and trimmed (see `trimmed`; the server checks arguments itself and says
 * what does not fit), since every line is paid for in tokens on every request a model makes.
 */
function jsonSchemaOf(schema: ZodType, io: 'input' | 'output'): Record<string, unknown> {
	const json = toJSONSchema(schema, { io }) as Record<string, unknown>;
	delete json.$schema;
	return trimmed(json, io) as Record<string, unknown>;
}

/** Bounds the server checks itself (and names in its error when a call is out of them). */
const BOUNDS = new Set(['minimum', 'maximum', 'minLength']);

/**
 * `additionalProperties: false` and the bounds left out everywhere, and in an output schema the `required`
 * lists of the objects inside it too: every field the schema names is always there, and the
 * top-level list still says which results carry what.
 */
function trimmed(node: unknown, io: 'input' | 'output', depth = 0): unknown {
	if (Array.isArray(node)) {
		return node.map(n => trimmed(n, io, depth + 1));
	}
	if (node === null || typeof node !== 'object') {
		return node;
	}
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(node)) {
		if ((key === 'additionalProperties' && value === false) || BOUNDS.has(key)) {
			continue;
		}
		if (key === 'required' && io === 'output' && depth > 0) {
			continue;
		}
		out[key] = key === 'required' ? value : trimmed(value, io, depth + 1);
	}
	return out;
}

/**
 * Fills a resource template from a tool's arguments. A value over the URI cap could never make a
 * URI the registry reads, and one over the SDK's own cap (a million characters) makes `expand`
 * throw a plain Error, which reached the model as a bare "<tool> failed" and was logged as a
 * server fault: so it is refused first, naming the argument, as the model's mistake it is.
 */
export function fillTemplate(tool: string, template: UriTemplate, variables: Record<string, string>): string {
	for (const [name, value] of Object.entries(variables)) {
		const bytes = Buffer.byteLength(value, 'utf8');
		if (bytes > MAX_URI_BYTES) {
			throw new ToolArgumentsError(`Invalid arguments for ${tool}: ${name} is ${formatBytes(bytes)}, over the ${formatBytes(MAX_URI_BYTES)} limit for a resource URI`);
		}
	}
	return template.expand(variables);
}

/** A read of the registry whose answer is JSON text (the search and symbols families answer so). */
export async function readJson<T>(registry: ProviderRegistry, uri: string): Promise<T> {
	const [content] = await registry.read(uri);
	if (!content || !('text' in content)) {
		throw new Error(`${uri} answered no text`);
	}
	return JSON.parse(content.text) as T;
}

/** Offered where some provider handles `probe`, a URI of the family the tool reads. */
export const offeredFor = (probe: string) => (providers: readonly ResourceProvider[]): boolean => providers.some(p => p.handles(probe));
