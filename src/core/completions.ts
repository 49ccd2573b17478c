import { Completion } from './resource';

/** The most values one `completion/complete` answer may carry (the MCP spec's cap). */
export const MAX_COMPLETIONS = 100;

/** `values` as an answer: the first {@link MAX_COMPLETIONS}, saying whether there were more. */
export function cappedCompletion(values: readonly string[], moreBeyond = false): Completion {
	return { values: values.slice(0, MAX_COMPLETIONS), total: values.length, hasMore: moreBeyond || values.length > MAX_COMPLETIONS };
}

/** The candidates that start with `value`, then those that contain it in any case. */
export function matchCompletion(candidates: readonly string[], value: string): Completion {
	const lower = value.toLowerCase();
	const matches = candidates.filter(c => c.startsWith(value))
		.concat(value ? candidates.filter(c => !c.startsWith(value) && c.toLowerCase().includes(lower)) : []);
	return cappedCompletion(matches);
}
