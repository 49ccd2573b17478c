// The conversation a model stand-in plays with a real client: one resource tool call per step,
// each checked against the tool result the client sends back, then a final answer. Stateless:
// the steps reached and their results are read from the conversation each request carries, so
// the client's side requests (titles, quota checks, retries) cannot push the script off course.

/**
 * `steps`: [{ label, kind: 'list' | 'read' | 'templates', uri?, expect: string[] }], every `expect` string
 * required in the step's tool result. Returns the script with `outcomes` (one per step: ok,
 * detail) and `next(results)`, which takes the texts of the resource tool results so far, in
 * order, and says what the model does now.
 */
export function createScript(steps) {
	const outcomes = steps.map(step => ({ label: step.label, ok: false, detail: 'the client never sent this tool result' }));
	return {
		steps,
		outcomes,
		next(results) {
			results.slice(0, steps.length).forEach((text, i) => {
				const missing = steps[i].expect.filter(e => !text.includes(e));
				outcomes[i] = { label: steps[i].label, ok: missing.length === 0, detail: missing.length === 0 ? '' : `tool result lacks ${JSON.stringify(missing)}: ${JSON.stringify(text.slice(0, 300))}` };
			});
			return results.length < steps.length ? { call: steps[results.length] } : { final: 'Done: every resource was read.' };
		},
	};
}

/** Text of a tool result whatever its shape (string, content blocks, nested JSON). */
export function resultText(value) {
	return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}
