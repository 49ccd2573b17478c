import type { ContentBlock, Tool } from '@modelcontextprotocol/server';
import { toJSONSchema, type ZodType } from 'zod';
import { ProviderRegistry } from '../../core/registry';
import { ResourceProvider } from '../../core/resource';

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
 * spec's default dialect, and each line is paid for in tokens on every request a model makes).
 */
function jsonSchemaOf(schema: ZodType, io: 'input' | 'output'): Record<string, unknown> {
	const json = toJSONSchema(schema, { io }) as Record<string, unknown>;
	delete json.$schema;
	return json;
}
