// The conversation a model stand-in plays with a real client: one resource tool call per step,
// each checked against the tool result the client sends back, then a final answer. Stateless:
// the steps reached and their results are read from the conversation each request carries, so
// the client's side requests (titles, quota checks, retries) cannot push the script off course.

/**
 * One tool call the model makes; every `expect` string is required in its result. `list`, `read`
 * and `templates` are the client's own resource tools; `tool` is one of our server's tools,
 * `tool` by the name it has on the server (the stand-in calls it by the name the client gives it).
 */
export interface ScriptStep {
	label: string;
	kind: 'list' | 'read' | 'templates' | 'tool';
	uri?: string;
	tool?: string;
	args?: Record<string, unknown>;
	expect: string[];
	/** Strings its result must not hold (a refused file's text). */
	forbid?: string[];
}

export interface StepOutcome { label: string; ok: boolean; detail: string }

/** What the model does now: call the next step's tool, or answer. */
export type ScriptMove = { call: ScriptStep; final?: undefined } | { final: string; call?: undefined };

export interface Script {
	readonly steps: readonly ScriptStep[];
	/** One per step, updated by each next(). */
	readonly outcomes: StepOutcome[];
	/** Takes the texts of the script's tool results so far, in order, and says what the model does now. */
	next(results: readonly string[]): ScriptMove;
}

export function createScript(steps: readonly ScriptStep[]): Script {
	const outcomes: StepOutcome[] = steps.map(step => ({ label: step.label, ok: false, detail: 'the client never sent this tool result' }));
	return {
		steps,
		outcomes,
		next(results) {
			results.slice(0, steps.length).forEach((text, i) => {
				const missing = steps[i].expect.filter(e => !text.includes(e));
				const leaked = (steps[i].forbid ?? []).filter(f => text.includes(f));
				const problems = [
					missing.length > 0 ? `tool result lacks ${JSON.stringify(missing)}` : '',
					leaked.length > 0 ? `tool result holds ${JSON.stringify(leaked)}` : '',
				].filter(Boolean).join(', ');
				outcomes[i] = { label: steps[i].label, ok: problems === '', detail: problems === '' ? '' : `${problems}: ${JSON.stringify(text.slice(0, 300))}` };
			});
			return results.length < steps.length ? { call: steps[results.length] } : { final: 'Done: every resource was read and every tool called.' };
		},
	};
}

/** Text of a tool result whatever its shape (string, content blocks, nested JSON). */
export function resultText(value: unknown): string {
	return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}
